/**
 * Issue 20, run 33, fixer MB — siblings of attack33b/tools-write-beside-mount-erofs.test.ts and
 * attack33b/mkdir-p-existing-mount-ancestor-erofs.test.ts: a mkdir that creates nothing is never refused by a
 * read-only mount, one that would create something inside it is EROFS — at the VFS (`workspace.fs.mkdir`), in the
 * JavaScript backend's node:fs, in the shell (`mkdir`, `mkdir -p`, `cp -r src/. dest`), through a link into the
 * mount, and for the callers that make a parent first (the write tool, `git init`, `git checkout -- file`).
 *
 * Expected values are what Linux answers with a read-only bind mount at w/m (run on this machine under
 * `unshare -rm`: `mount --bind w/m w/m; mount -o remount,bind,ro w/m`, GNU coreutils mkdir/cp, Node 22):
 *   mkdir -p w w/m w/m/sub → 0 · mkdir m, m/sub, m/a.txt → "File exists" · mkdir -p m/new/x, mkdir m/new →
 *   "Read-only file system" · cp -r empty/. m → 0 · cp -r s/. . → 0 · with lk → m: mkdir -p lk/sub lk → 0,
 *   mkdir lk/sub → "File exists", mkdir -p lk/n → "Read-only file system" · Node fs.promises.mkdir: ".", "m",
 *   "m/sub" (and "lk": the JavaScript backend refuses to traverse links, EACCES, so not asked here) with recursive →
 *   undefined; "m" → EEXIST; "m/new" → EROFS. GNU `mkdir -p m/new/x` names the directory refused, 'm/new'.
 * One difference is kept: Node 22's recursive mkdir of m/new/x answers ENOENT (libuv's mkdirp retries the parent
 * after EROFS and reports that retry's ENOENT); here it is EROFS, as GNU `mkdir -p` says.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

type Exec = { execute: (input: unknown, options: unknown) => Promise<unknown> };
const mounts = { "/workspace/m": WorkerBundle({ "a.txt": "A\n", "sub/b.txt": "B\n" }) };
const code = (p: Promise<unknown>): Promise<string> => p.then(() => "ok", (e: { code?: string }) => String(e.code));

it("workspace.fs.mkdir: existing directories (ancestor, root, inside, through a link) succeed with recursive, EEXIST without; creating is EROFS", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const fs = ws.fs;
      await fs.symlink("/workspace/m", "/workspace/lk");
      const before = await Promise.all(["/workspace", "/workspace/m", "/workspace/m/sub"].map(async (p) => [(await fs.stat(p)).mtime, (await fs.stat(p)).inode]));
      const results: Record<string, string> = {};
      for (const [p, recursive] of [
        ["/workspace", true],
        ["/workspace/m", true],
        ["/workspace/m/sub", true],
        ["/workspace/lk/sub", true],
        ["/workspace/m/sub/../sub", true],
        ["/workspace", false],
        ["/workspace/m", false],
        ["/workspace/m/sub", false],
        ["/workspace/m/a.txt", false],
        ["/workspace/m/a.txt", true],
        ["/workspace/lk/sub", false],
        ["/workspace/m/new", false],
        ["/workspace/m/new", true],
        ["/workspace/m/new/x", true],
        ["/workspace/m/sub/new", true],
        ["/workspace/lk/n", true],
        ["/workspace/lk/n", false],
      ] as const) results[`${p} ${recursive ? "-p" : ""}`] = await code(fs.mkdir(p, { recursive }));
      const after = await Promise.all(["/workspace", "/workspace/m", "/workspace/m/sub"].map(async (p) => [(await fs.stat(p)).mtime, (await fs.stat(p)).inode]));
      // Beside the mount a new directory is still made, with its parents.
      await fs.mkdir("/workspace/new/deeper", { recursive: true });
      return {
        results,
        unchanged: JSON.stringify(after) === JSON.stringify(before),
        m: (await fs.readdir("/workspace/m")).map((e) => e.name),
        sub: (await fs.readdir("/workspace/m/sub")).map((e) => e.name),
        deeper: (await fs.stat("/workspace/new/deeper")).isDirectory,
      };
    },
    { workspace: { mounts } },
  );
  expect(out).toEqual({
    results: {
      "/workspace -p": "ok",
      "/workspace/m -p": "ok",
      "/workspace/m/sub -p": "ok",
      "/workspace/lk/sub -p": "ok",
      "/workspace/m/sub/../sub -p": "ok",
      "/workspace ": "EEXIST",
      "/workspace/m ": "EEXIST",
      "/workspace/m/sub ": "EEXIST",
      "/workspace/m/a.txt ": "EEXIST",
      "/workspace/m/a.txt -p": "EEXIST", // a file at the leaf, as mkdir -p's "File exists"
      "/workspace/lk/sub ": "EEXIST",
      "/workspace/m/new ": "EROFS",
      "/workspace/m/new -p": "EROFS",
      "/workspace/m/new/x -p": "EROFS",
      "/workspace/m/sub/new -p": "EROFS",
      "/workspace/lk/n -p": "EROFS",
      "/workspace/lk/n ": "EROFS",
    },
    unchanged: true,
    m: ["a.txt", "sub"],
    sub: ["b.txt"],
    deeper: true,
  });
}, 60000);

const JS = `import * as fs from "node:fs/promises";
export default async () => {
  const out = [];
  for (const [p, o] of [[".", { recursive: true }], ["m", { recursive: true }], ["m/sub", { recursive: true }],
                        ["m", undefined], ["m/new", undefined], ["m/new/x", { recursive: true }]]) {
    try { out.push(p + " " + String(await fs.mkdir(p, o))); } catch (e) { out.push(p + " " + e.code); }
  }
  return out;
};`;

it("node:fs mkdir in the JavaScript backend and the shell's mkdir / cp -r answer as Linux beside and on a read-only mount", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const js = (await (await ws.runtime.exec(JS, { backend: "worker-javascript", cwd: "/workspace" })).result()).value;
      const shell = await sh(
        ws,
        [
          "ln -s m lk; mkdir -p /workspace /workspace/m /workspace/m/sub; echo rc=$?",
          "mkdir m; echo rc=$?",
          "mkdir m/sub; echo rc=$?",
          "mkdir m/a.txt; echo rc=$?",
          "mkdir -p m/new/x; echo rc=$?",
          "mkdir m/new; echo rc=$?",
          "mkdir -p lk/sub lk; echo rc=$?",
          "mkdir lk/sub; echo rc=$?",
          "mkdir -p lk/n; echo rc=$?",
          "mkdir -p /tmp/e /tmp/s/sub; echo 1 > /tmp/s/f1; echo 2 > /tmp/s/sub/f2",
          "cp -r /tmp/e/. m; echo rc=$?",
          "cp -r /tmp/s/. .; echo rc=$?",
          "ls; cat f1 sub/f2; ls m m/sub",
        ].join("\n"),
        { cwd: "/workspace" },
      );
      return { js, stdout: shell.stdout, stderr: shell.stderr };
    },
    { javascript: true, workspace: { mounts } },
  );
  expect(out).toEqual({
    js: [". undefined", "m undefined", "m/sub undefined", "m EEXIST", "m/new EROFS", "m/new/x EROFS"],
    stdout: "rc=0\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=0\nrc=1\nrc=1\nrc=0\nrc=0\nf1\nlk\nm\nsub\n1\n2\nm:\na.txt\nsub\n\nm/sub:\nb.txt\n",
    stderr: [
      "mkdir: cannot create directory 'm': File exists",
      "mkdir: cannot create directory 'm/sub': File exists",
      "mkdir: cannot create directory 'm/a.txt': File exists",
      "mkdir: cannot create directory 'm/new': Read-only file system",
      "mkdir: cannot create directory 'm/new': Read-only file system",
      "mkdir: cannot create directory 'lk/sub': File exists",
      "mkdir: cannot create directory 'lk/n': Read-only file system",
      "",
    ].join("\n"),
  });
}, 60000);

it("the write tool, git init and git checkout -- file make a parent beside a read-only mount; writes into it stay EROFS", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const tools = createAITools({ workspace: ws }) as unknown as Record<string, Exec>;
      const o = { toolCallId: "1", messages: [] };
      const beside = await tools.write.execute({ path: "/workspace/new/dir/f.txt", content: "n" }, o);
      const into = (await tools.write.execute({ path: "/workspace/m/x.txt", content: "x" }, o)) as { error?: string };
      const intoSub = (await tools.write.execute({ path: "/workspace/m/sub/new/x.txt", content: "x" }, o)) as { error?: string };
      const edit = (await tools.edit.execute({ path: "/workspace/m/a.txt", edits: [{ oldText: "A", newText: "Z" }] }, o)) as { error?: string };
      const git = await sh(
        ws,
        "git init -q && echo t > t.txt && git add t.txt && git commit -qm one && rm t.txt && git checkout -- t.txt; echo rc=$?; cat t.txt; git init -q proj; echo rc=$?; test -d proj/.git && echo proj",
        { cwd: "/workspace" },
      );
      return {
        beside,
        into: into.error,
        intoSub: intoSub.error,
        edit: edit.error,
        git: [git.stdout, git.stderr],
        m: (await ws.fs.readdir("/workspace/m")).map((e) => e.name),
        a: await ws.fs.readFile("/workspace/m/a.txt", "utf8"),
      };
    },
    { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" }, mounts } },
  );
  expect(out).toEqual({
    beside: { path: "/workspace/new/dir/f.txt", bytesWritten: 1 },
    into: "EROFS: read-only file system (mount at /workspace/m), writeFile: /workspace/m/x.txt",
    intoSub: "EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace/m/sub/new",
    edit: "EROFS: read-only file system (mount at /workspace/m), writeFile: /workspace/m/a.txt",
    git: ["rc=0\nt\nrc=0\nproj\n", ""],
    m: ["a.txt", "sub"],
    a: "A\n",
  });
}, 60000);
