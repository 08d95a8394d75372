/**
 * Issue 20, scout after the twentieth attack run: "a leading BOM is content" (8e580c6 for git, 5fd200f for the
 * daemon's names) — checked the exec output path the same way.
 * Tried: the worker-shell backend on Node (`ShellWorker` as an external runtime, as test/node/shell/external-runtime
 * .test.ts) over a Workspace file `b.csv` = EF BB BF "a,b\n" (7 bytes); `cat b.csv` as bytes and as `encoding:
 * "utf8"`, and inside the shell `cat b.csv > c.csv; wc -c c.csv` and `cat b.csv | wc -c`.
 * Held: inside the shell the BOM is kept (c.csv is 7 bytes, the pipe carries 7).
 * Found (low-medium — the run's output is not the file; 2 of 2 modes): the exec result drops the BOM — bytes mode
 * stdout is 4 bytes (61 2C 62 0A), utf8 mode `"a,b\n"`. The shell's final stdout goes through a default
 * `TextDecoder` (just-bash's output text, then src/backends/worker-shell/worker.ts `toBytes`), and the runtime's utf8
 * decoders (src/runtime/handle.ts `new TextDecoder()` per stream; also src/modules/container.ts,
 * src/tools/core/exec-output.ts, src/do/exec-events.ts) strip a leading U+FEFF of any backend's output. A real
 * `cat` writes the 3 bytes; Node's `execSync(…, { encoding: "utf8" })` keeps U+FEFF.
 * Suggested fix: decode output with `ignoreBOM: true` everywhere a run's stdout/stderr becomes text (runtime
 * handle, exec tool, container module, DO event stream), and keep the shell's final stdout as the bytes it wrote
 * (or decode it with ignoreBOM) in worker.ts.
 * Fixed: the bundled shell's decoders of output (just-bash's byte-string → text conversions, gen-shell.mjs patches
 * "output decoder (BOM)" and "decodeBytesToUtf8 (decoder)") and the runtime's utf8 output decoders (handle.ts,
 * exec-output.ts, modules/container.ts, do/exec-events.ts, worker-javascript/stdio.ts, container/connector.ts) keep a
 * leading U+FEFF. The test moved to workerd: the bundled shell is what carries the patches (an external runtime
 * on Node loads the user's own just-bash unpatched).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("cat of a file with a leading BOM returns its bytes (and U+FEFF in utf8 mode)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.ready();
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/b.csv", new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x62, 0x0a]));
    const inside = await sh(ws, "cat b.csv > c.csv; wc -c < c.csv; cat b.csv | wc -c", { cwd: "/workspace" });
    const bytes = await (await ws.runtime.exec("cat b.csv", { cwd: "/workspace" })).result();
    const text = await (await ws.runtime.exec("cat b.csv", { cwd: "/workspace", encoding: "utf8" })).result();
    return { inside: inside.stdout, bytes: Array.from(bytes.stdout as Uint8Array), text: text.stdout };
  });
  // Held: the shell itself keeps the 3 bytes.
  expect(out.inside).toBe("7\n7\n");
  // Before: [97, 44, 98, 10] and "a,b\n".
  expect(out.bytes).toEqual([0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x62, 0x0a]);
  expect(out.text).toBe("\uFEFFa,b\n");
}, 60_000);
