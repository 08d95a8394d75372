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
 */
import { afterEach, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { ShellWorker, WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";

const open: ReturnType<typeof nodeSqliteStorage>[] = [];
afterEach(() => {
  for (const storage of open.splice(0)) storage.close();
});

it.fails("cat of a file with a leading BOM returns its bytes (and U+FEFF in utf8 mode)", async () => {
  const storage = nodeSqliteStorage(":memory:");
  open.push(storage);
  const ws = new Workspace({
    storage,
    backends: [new WorkerShellBackend({ source: { type: "external-runtime", connect: () => new ShellWorker(undefined, undefined) } })],
  });
  try {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const file = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x62, 0x0a]);
    await ws.fs.writeFile("/workspace/b.csv", file);
    const inside = await (await ws.runtime.exec("cat b.csv > c.csv; wc -c < c.csv; cat b.csv | wc -c", { encoding: "utf8" })).result();
    // Held: the shell itself keeps the 3 bytes.
    expect(inside.stdout).toBe("7\n7\n");
    const bytes = await (await ws.runtime.exec("cat b.csv")).result();
    const text = await (await ws.runtime.exec("cat b.csv", { encoding: "utf8" })).result();
    // Today: [97, 44, 98, 10] and "a,b\n".
    expect(Array.from(bytes.stdout as Uint8Array)).toEqual(Array.from(file));
    expect(text.stdout).toBe("\uFEFFa,b\n");
  } finally {
    await ws.close();
  }
});
