/**
 * Issue 20, twenty-first attack run: the JavaScript backend's node:fs reads an empty path as the backend's root.
 * Tried: `node:fs/promises` in a WorkerJavaScriptBackend run (a Durable Object, default root /workspace) with the
 * path "" — what `fs.stat(process.env.DIR ?? "")` or a template with an unset part passes — for stat, lstat, readdir,
 * access, chmod, mkdir (recursive), readFile, writeFile, rm; the entry point left after the shell made '' "No such
 * file or directory" for every command (c4ebc57: `rm -rf ''` removed the working directory).
 * Held: `symlink("", "/workspace/l")` is ENOENT ("link target is empty"); `rm("", { recursive: true, force: true })`
 * is refused (EPERM, the backend root) and removes nothing.
 * Found (low–medium — wrong answers to code written against node:fs, and a changed mode; 3 of 3 runs): `stat("")`,
 * `lstat("")` and `access("")` resolve (a directory), `readdir("")` lists /workspace (["d","f.txt"]), `chmod("", 0o700)`
 * changes /workspace's mode, `mkdir("", { recursive: true })` resolves; `readFile("")` is EISDIR, `writeFile("")`
 * EISDIR, `rm("")` EPERM. Node on Linux answers ENOENT (`no such file or directory, stat ''`) for each.
 * Suggested fix: in the node:fs bridge's path resolution (src/backends/worker-javascript/paths.ts), refuse "" with
 * ENOENT before joining it to the root, as the shell's resolvePath keeps '' (docs/porting.md: "An empty operand …
 * is 'No such file or directory' for every command").
 * Fixed: the node:fs bridge (src/backends/worker-javascript/bridge.ts) answers `ENOENT: no such file or directory,
 * <syscall> ''` for "" in readFile, writeFile, stat, lstat, access, chmod, readdir, readlink, mkdir, symlink (the link)
 * and rm, before joining it to the root. `rm("", { force: true })` resolves and removes nothing, as Node 22 answers
 * (checked: force makes a missing path a success) — so that one expectation is "resolved", not the ENOENT first
 * asserted; without force it is ENOENT.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const OPS = [
  `stat("")`,
  `lstat("")`,
  `access("")`,
  `readdir("")`,
  `chmod("", 0o700)`,
  `mkdir("", { recursive: true })`,
  `readFile("", "utf8")`,
  `writeFile("", "x")`,
  `rm("", { recursive: true, force: true })`,
  `rm("", { recursive: true })`,
  `readlink("")`,
  `symlink("f.txt", "")`,
];

it('node:fs answers ENOENT for the path ""', async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "f");
    const before = (await ws.fs.stat("/workspace")).mode;
    const codes: { op: string; code: string }[] = [];
    for (const op of OPS) {
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises"; export default async () => { try { await fs.${op}; return "resolved"; } catch (e) { return e.code; } }`,
      );
      codes.push({ op, code: String((await h.result()).value) });
    }
    const left = (await ws.fs.find("/", "**")).map((e) => e.path).sort();
    expect(left).toEqual(["/workspace", "/workspace/d", "/workspace/f.txt"]);
    return { codes, modeKept: (await ws.fs.stat("/workspace")).mode === before };
  });
  // Found: stat/lstat/access/readdir/chmod/mkdir "resolved", readFile/writeFile "EISDIR", rm "EPERM"; modeKept false.
  expect(out).toEqual({ codes: OPS.map((op) => ({ op, code: op.includes("force: true") ? "resolved" : "ENOENT" })), modeKept: true });
}, 120_000);
