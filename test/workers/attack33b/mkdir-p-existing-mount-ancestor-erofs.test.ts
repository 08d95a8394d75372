/**
 * Issue 20, thirty-third attack run: beside a read-only mount at /workspace/m, the commonest "make sure the output
 * directory exists" idioms fail with EROFS although the directory exists and nothing would change: in the JavaScript
 * backend `await fs.mkdir(path.dirname("/workspace/out.json"), { recursive: true })` (Node 22: resolves undefined for
 * an existing directory) rejects `EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace`, so the
 * script's `writeFile("/workspace/out.json")` never runs; in the shell `cp -r /tmp/s/. /workspace` (GNU cp: exit 0,
 * copies f1 and sub/f2) prints `cp: cannot create directory '/workspace/.': Read-only file system`, exits 1 and
 * copies nothing — while `cp -rT /tmp/s /workspace` and `mkdir -p /workspace` succeed. docs/filesystem.md makes
 * `workspace.fs.mkdir("/workspace", { recursive: true })` EROFS on purpose (so nothing is created above a mount), but
 * node:fs's and cp's contract is "no error when the directory is already there". Sibling of
 * tools-write-beside-mount-erofs.test.ts (the write/edit tools and git init, same cause at the VFS).
 * Tried: a WorkerBundle mount at /workspace/m; node:fs/promises mkdir -p of /workspace, of "." (cwd /workspace) and of
 * a new /workspace/new/x; shell cp -r src/. /workspace, cp -rT, tar -x of a `./`-rooted archive into /workspace;
 * differential: Node 22 `fs.promises.mkdir("/tmp", { recursive: true })` → undefined; GNU cp -r s/. w → exit 0.
 * Held: mkdir -p of a new directory beside the mount, tar -x of `./`, `./f1`, `./sub/` into /workspace, cp -rT, and
 * every write into the mount stays EROFS with the mount's bytes unchanged.
 * Found (medium — agent scripts that create their output directory first, and `cp -r build/. /workspace`, fail on
 * every Workspace with a mount below /workspace; 2 of 2 runs): see the `Was:` lines.
 * Suggested fix: src/fs (the recursive mkdir's EROFS check): when every segment already exists as a directory (the
 * call would create nothing), resolve as without the mount; src/fs/provider.ts mkdir and
 * src/backends/worker-shell/fs-adapter.ts cp (line ~1002) then follow; or skip the mkdir there when lstat says it
 * is a directory.
 *
 * Fixed: src/fs/filesystem.ts `mkdir` refuses for a read-only mount only what it would create — an existing leaf is
 * EEXIST, or with `recursive` and a directory a success, as Linux's mkdir(2) answers EEXIST before EROFS — so every
 * caller that makes a parent first (the tools' store, git init, tree-state, node:fs, the shell's cp) goes on; the
 * shell's `mkdir -p` names the directory the mount refused, as GNU (issue 20, run 33, fixer MB). Siblings:
 * test/workers/fix33/mount-mkdir-existing.test.ts.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const JS = `import * as fs from "node:fs/promises"; import path from "node:path";
export default async () => {
  const out = [];
  for (const f of [
    async () => { await fs.mkdir(path.dirname("/workspace/out.json"), { recursive: true }); await fs.writeFile("/workspace/out.json", "{}"); return "written"; },
    async () => fs.mkdir(".", { recursive: true }),
  ]) {
    try { out.push(String(await f())); } catch (e) { out.push(e.code + " " + e.message); }
  }
  return out;
};`;

it("node:fs mkdir -p of an existing /workspace and cp -r src/. /workspace succeed beside a read-only mount, as Node 22 and GNU cp", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const cp = await sh(ws, "mkdir -p /tmp/s/sub; echo 1 > /tmp/s/f1; echo 2 > /tmp/s/sub/f2; cp -r /tmp/s/. /workspace; echo rc=$?; ls /workspace", { cwd: "/workspace" });
      const js = (await (await ws.runtime.exec(JS, { backend: "worker-javascript" })).result()).value;
      return { cp: [cp.stdout, cp.stderr], js, mount: await ws.fs.readFile("/workspace/m/a.txt", "utf8") };
    },
    { javascript: true, workspace: { mounts: { "/workspace/m": WorkerBundle({ "a.txt": "A\n" }) } } },
  );
  expect(out).toEqual({
    // Was: ["rc=1\nm\n", "cp: cannot create directory '/workspace/.': Read-only file system\n"]
    cp: ["rc=0\nf1\nm\nsub\n", ""],
    // Was: ["EROFS EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace", (the same)]
    js: ["written", "undefined"],
    mount: "A\n",
  });
}, 60000);
