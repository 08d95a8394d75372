/**
 * Fixer FC2, issue 20 run 24 (attack24c, "data crossing Workers RPC unmeasured"): siblings of the shell's fixes in
 * real workerd (Dynamic Worker ↔ Durable Object RPC).
 *
 * - Reads past 16 MiB cross as a stream (`ShellHostTarget.readBytes`): every byte in order (`sha256sum` of a
 *   24 MiB patterned file equals the digest taken in the object); past `maxReadBytes` (64 MiB) still refused,
 *   `File too large`, never `No such file or directory`.
 * - A listing past 16 MiB (170 names of 100,004 characters) crosses as JSON lines: a glob, `find` and `cp -r` see
 *   every entry.
 * - Writes past 16 MiB cross as a stream: `>` and `>>` of 40 MiB (output limit raised to 64 MiB) store every byte.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const MiB = 1024 * 1024;

function pattern(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = i % 251;
  return out;
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("fix24 FC2: shell data past 16 MiB crosses RPC as a stream", () => {
  it("sha256sum of a 24 MiB file is the file's digest; a file past 64 MiB is 'File too large'", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const bytes = pattern(24 * MiB + 3);
      const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
      await ws.fs.writeFile("/workspace/p.bin", bytes);
      const sum = await sh(ws, "sha256sum p.bin", { cwd: "/workspace", timeoutMs: 200_000 });
      await ws.fs.rm("/workspace/p.bin");
      await ws.fs.writeFile("/workspace/over.bin", new Uint8Array(64 * MiB + 1));
      const over = await sh(ws, "wc -c over.bin", { cwd: "/workspace", timeoutMs: 200_000 });
      return { digest, sum: [sum.exitCode, sum.stdout, sum.stderr], over: [over.exitCode, over.stdout, over.stderr] };
    });
    expect(r.sum).toEqual([0, `${r.digest}  p.bin\n`, ""]);
    expect(r.over).toEqual([1, "", "wc: over.bin: File too large\n"]);
  });

  it("a listing of 170 names of 100,004 characters (past 16 MiB) is whole for a glob, find and cp -r", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      const name = (i: number) => `n${String(i).padStart(3, "0")}${"x".repeat(100_000)}`;
      await ws.fs.mkdir("/workspace/w", { recursive: true });
      for (let i = 0; i < 170; i++) await ws.fs.writeFile(`/workspace/w/${name(i)}`, String(i));
      const out: [number, string, string][] = [];
      for (const cmd of ['set -- w/*; echo $# ${#1}', "find w -type f -printf 'x\\n' | wc -l", "cp -r w w2 && echo copied"]) {
        const s = await sh(ws, cmd, { cwd: "/workspace", timeoutMs: 200_000 });
        out.push([s.exitCode, s.stdout, s.stderr]);
      }
      const copied = await ws.fs.readdir("/workspace/w2");
      return { out, copied: [copied.length, copied.every((e, i) => e.name === name(i))], last: await ws.fs.readFile(`/workspace/w2/${name(169)}`, "utf8") };
    });
    expect(r).toEqual({
      out: [
        [0, "170 100006\n", ""],
        [0, "170\n", ""],
        [0, "copied\n", ""],
      ],
      copied: [170, true],
      last: "169",
    });
  });

  it("`>` and `>>` of 40 MiB store every byte (output limit raised to 64 MiB)", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/f", new Uint8Array(20 * MiB).fill(97));
        await ws.fs.writeFile("/workspace/h", "start\n");
        // Two commands: the limit counts a script's output in all, redirected output included.
        const a = await sh(ws, "cat f f > g && echo done", { cwd: "/workspace", timeoutMs: 200_000 });
        const b = await sh(ws, "cat f f >> h && echo done", { cwd: "/workspace", timeoutMs: 200_000 });
        const tail = async (path: string, at: number) => new TextDecoder().decode(await new Response((await ws.fs.readFile(path, { byteOffset: at })) as ReadableStream).arrayBuffer());
        return {
          run: [a.exitCode, a.stdout, a.stderr, b.exitCode, b.stdout, b.stderr],
          sizes: [(await ws.fs.stat("/workspace/g")).size, (await ws.fs.stat("/workspace/h")).size],
          heads: [await ws.fs.readFile("/workspace/h", { encoding: "utf8", byteLength: 8 }), await tail("/workspace/g", 40 * MiB - 2)],
        };
      },
      { shell: { maxOutputBytes: 64 * MiB } },
    );
    expect(r).toEqual({ run: [0, "done\n", "", 0, "done\n", ""], sizes: [40 * MiB, 40 * MiB + 6], heads: ["start\naa", "aa"] });
  });
});
