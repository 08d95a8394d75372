/**
 * Issue 20, twenty-first attack run: the JavaScript backend's node:fs ignores a trailing `/` or last `.` on a file.
 * Tried: `node:fs/promises` in a WorkerJavaScriptBackend run (a Durable Object, default options) on
 * /workspace/f.txt ("f"): writeFile, rm, readFile, stat, chmod and access of `f.txt/` and `f.txt/.` — the entry point
 * left after the same meaning was given to the shell's fs adapter (1f24350, runtime.md: "`f.txt/`, `new/.` names a
 * directory"), the write tool (porting.md: "`write` under a file is `ENOTDIR`") and SQLiteWorkspaceProvider ("a path
 * ending in `/` (or `/.`) must lead to a directory"); this backend's `rm` already follows node:fs on Linux for a last
 * `.`/`..` (da3a73f: EINVAL).
 * Held: `rm("/workspace/d/x/..")` is EINVAL, `rm("")` EPERM (the backend root); `mkdir("new/..")` EEXIST.
 * Found (medium — a write and a removal where Node fails, from code written against node:fs; 3 of 3 runs):
 * `writeFile("/workspace/f.txt/.", "x")` and `writeFile("/workspace/f.txt/", "x")` resolve and replace f.txt's
 * bytes; `rm("/workspace/f.txt/", { force: true })` resolves and removes f.txt; `readFile`/`stat`/`access`/`chmod`
 * of `f.txt/` succeed on the file. Node on Linux: ENOTDIR for each (open(2)/stat(2)/unlink(2) of "f.txt/").
 * `writeFile("/workspace/new/", "x")` (missing) creates a FILE named new; Node: EISDIR, nothing created.
 * Suggested fix: in the backend's node:fs bridge (src/backends/worker-javascript/bridge.ts), check a path whose last
 * segment as written is `/` or `.` as the shell adapter does (`directoryForm`): stat it, and answer ENOTDIR when it
 * is not a directory (EISDIR for writeFile of a missing `new/`), before the Workspace drops the slash.
 * Fixed: the node:fs bridge (src/backends/worker-javascript/bridge.ts, `#resolveNode`) reads a path in directory form
 * (`directoryForm`, now in src/util/path.ts and shared with the shell's fs adapter) as Node on Linux does, for
 * readFile, writeFile, stat, lstat, access, chmod, readlink and rm: a non-directory there is `ENOTDIR: not a directory,
 * <syscall> '<path>'`; writeFile (open(2) with O_CREAT) of `x/` is `EISDIR` whatever is there — also `f.txt/` of a
 * file, which is what Node 22 answers (checked: `EISDIR: illegal operation on a directory, open 'f.txt/'`), so that
 * one expectation is EISDIR, not the ENOTDIR first asserted — and of a missing `new/.` is `ENOENT`.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const OPS = [
  `writeFile("/workspace/f.txt/.", "x")`,
  `writeFile("/workspace/f.txt/", "x")`,
  `readFile("/workspace/f.txt/", "utf8")`,
  `stat("/workspace/f.txt/").then((s) => s.size)`,
  `access("/workspace/f.txt/")`,
  `chmod("/workspace/f.txt/", 0o600)`,
  `rm("/workspace/f.txt/", { force: true })`,
];

it("node:fs answers ENOTDIR for f.txt/ and f.txt/. and leaves the file", async () => {
  const out = await inWorkspace(async (ws) => {
    const results: { op: string; code: string; file: string }[] = [];
    for (const op of OPS) {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", "f");
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises"; export default async () => { try { await fs.${op}; return "resolved"; } catch (e) { return e.code; } }`,
      );
      const r = await h.result();
      const file = await ws.fs.readFile("/workspace/f.txt", "utf8").catch((e: { code?: string }) => String(e.code));
      results.push({ op, code: String(r.value), file });
    }
    for (const op of [`writeFile("/workspace/new/.", "x")`, `readlink("/workspace/f.txt/")`, `lstat("/workspace/f.txt/.")`, `rm("/workspace/f.txt/.", { force: true })`]) {
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises"; export default async () => { try { await fs.${op}; return "resolved"; } catch (e) { return e.message; } }`,
      );
      const r = await h.result();
      const file = await ws.fs.readFile("/workspace/f.txt", "utf8").catch((e: { code?: string }) => String(e.code));
      results.push({ op, code: String(r.value), file });
    }
    return results;
  });
  // Found: every op "resolved"; file "x" after both writeFiles, "ENOENT" after rm.
  // writeFile("f.txt/") is EISDIR, as Node 22 on Linux answers (open(2) with O_CREAT and a trailing slash).
  expect(out).toEqual([
    ...OPS.map((op) => ({ op, code: op === `writeFile("/workspace/f.txt/", "x")` ? "EISDIR" : "ENOTDIR", file: "f" })),
    { op: `writeFile("/workspace/new/.", "x")`, code: "ENOENT: no such file or directory, open '/workspace/new/.'", file: "f" },
    { op: `readlink("/workspace/f.txt/")`, code: "ENOTDIR: not a directory, readlink '/workspace/f.txt/'", file: "f" },
    { op: `lstat("/workspace/f.txt/.")`, code: "ENOTDIR: not a directory, lstat '/workspace/f.txt/.'", file: "f" },
    { op: `rm("/workspace/f.txt/.", { force: true })`, code: "ENOTDIR: not a directory, rm '/workspace/f.txt/.'", file: "f" },
  ]);
}, 120_000);

it("node:fs writeFile of a missing new/ is EISDIR and creates nothing", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises"; export default async () => { try { await fs.writeFile("/workspace/new/", "x"); return "resolved"; } catch (e) { return e.code; } }`,
    );
    const code = String((await h.result()).value);
    const created = await ws.fs.lstat("/workspace/new").then(() => "exists", (e: { code?: string }) => String(e.code));
    return { code, created };
  });
  // Found: { code: "resolved", created: "exists" } — a file named new, as the shell made before 1f24350.
  expect(out).toEqual({ code: "EISDIR", created: "ENOENT" });
}, 60_000);

it("node:fs still reaches a directory through d/ and d/.", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/d/k.txt", "k");
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises"; export default async () => {
        const out = [];
        const tryIt = async (f) => { try { out.push(await f()); } catch (e) { out.push(e.message); } };
        await tryIt(async () => (await fs.stat("/workspace/d/")).isDirectory());
        await tryIt(async () => (await fs.readdir("/workspace/d/.")).join(","));
        await tryIt(async () => { await fs.writeFile("/workspace/d/", "x"); return "resolved"; });
        await tryIt(async () => { await fs.readFile("/workspace/d/"); return "resolved"; });
        await tryIt(async () => { await fs.access("/workspace/gone/"); return "resolved"; });
        await tryIt(async () => { await fs.rm("/workspace/gone/", { force: true }); return "resolved"; });
        await tryIt(async () => { await fs.rm("/workspace/d/", { recursive: true }); return "resolved"; });
        return out;
      }`,
    );
    return { out: (await h.result()).value, d: await ws.fs.lstat("/workspace/d").then(() => "exists", (e: { code?: string }) => String(e.code)) };
  });
  expect(out).toEqual({
    out: [
      true,
      "k.txt",
      "EISDIR: illegal operation on a directory, open '/workspace/d/'",
      "EISDIR: illegal operation on a directory, read: /workspace/d",
      "ENOENT: no such file or directory, access '/workspace/gone'",
      "resolved",
      "resolved",
    ],
    d: "ENOENT",
  });
}, 60_000);
