/**
 * Issue 20, thirty-third attack run: with a read-only mount anywhere below /workspace (the layout docs/filesystem.md
 * shows: `/workspace/data`, `/workspace/skills`), the `write` and `edit` tools refuse EVERY file directly in
 * /workspace — `write /workspace/notes.txt` and `edit /workspace/README.md` (an existing, ordinary file) both answer
 * `EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace` and change nothing — and `git init` in
 * /workspace fails the same way. The tools' store (and git init) run `fs.mkdir(parent, { recursive: true })` first,
 * and the VFS refuses a recursive mkdir of a mount's ancestor even when it exists; the shell's `mkdir -p /workspace`
 * (exit 0) and `echo x > /workspace/notes.txt` succeed, so only the agent's own file tools are locked out.
 * Tried: a WorkerBundle mount at /workspace/m, then through createAITools `write` of /workspace/top.txt and of
 * /workspace/sub/top.txt, `edit` of an existing /workspace/e.txt, `WorkspaceFileStore.write`, and `git init -q` /
 * `git init -q proj` in the shell; differential: on Linux with a read-only bind mount at /workspace/m, writing or
 * editing /workspace/top.txt and `git init` in /workspace succeed (mkdir -p of an existing directory is a no-op).
 * Held: every mutation INTO the mount through the shell (touch, mv, ln, cp, tar -x, sed -i, gzip, rm -rf ../*, links
 * into it, redirections, git rm/clean), node:fs in the JS backend and the tools is refused and the mount's bytes,
 * modes and times stay; `rm -rf /workspace` removes nothing; write into /workspace/sub works.
 * Found (high — every agent with a mounted skills/data directory cannot create or edit any top-level file of its
 * workspace with its file tools, and the error blames a mount it never touched; 2 of 2 runs): write → `{ error:
 * "EROFS: … mkdir: /workspace" }`, edit → the same, git init → exit 1 `git init: EROFS: …, mkdir: /workspace`.
 * Suggested fix: src/tools/core/store.ts `write` (and src/git/ops/repo.ts init, tree-state placeWorktreeFile): mkdir
 * the parent only when `stat(parent)` says it is missing (or treat EROFS from the recursive mkdir of an existing
 * directory like EEXIST and go on to writeFile, which does its own EROFS check); or let the VFS's recursive mkdir of
 * an existing directory that is only an ancestor of a mount succeed, as mkdir -p does on Linux.
 *
 * Fixed: src/fs/filesystem.ts `mkdir` refuses for a read-only mount only what it would create — an existing leaf is
 * EEXIST, or with `recursive` and a directory a success, as Linux's mkdir(2) answers EEXIST before EROFS — so every
 * caller that makes a parent first (the tools' store, git init, tree-state, node:fs, the shell's cp) goes on; the
 * shell's `mkdir -p` names the directory the mount refused, as GNU (issue 20, run 33, fixer MB). Siblings:
 * test/workers/fix33/mount-mkdir-existing.test.ts.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

type Exec = { execute: (input: unknown, options: unknown) => Promise<unknown> };

it("write and edit of a file directly in /workspace work beside a read-only mount at /workspace/m, as on Linux", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      await ws.fs.writeFile("/workspace/e.txt", "abc\n");
      const tools = createAITools({ workspace: ws }) as unknown as Record<string, Exec>;
      const o = { toolCallId: "1", messages: [] };
      const write = await tools.write.execute({ path: "/workspace/top.txt", content: "x" }, o);
      const edit = await tools.edit.execute({ path: "/workspace/e.txt", edits: [{ oldText: "abc", newText: "xyz" }] }, o);
      const init = await sh(ws, "git init -q; echo $?; test -d .git && echo has-git", { cwd: "/workspace" });
      const top = await ws.fs.readFile("/workspace/top.txt", "utf8").catch((e: { code?: string }) => e.code);
      const e = await ws.fs.readFile("/workspace/e.txt", "utf8");
      const mount = await ws.fs.readFile("/workspace/m/a.txt", "utf8");
      return { write, editError: (edit as { error?: string }).error, init: [init.stdout, init.stderr], top, e, mount };
    },
    { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" }, mounts: { "/workspace/m": WorkerBundle({ "a.txt": "A\n" }) } } },
  );
  expect(out).toEqual({
    // Was: { error: "EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace" }
    write: { path: "/workspace/top.txt", bytesWritten: 1 },
    // Was: "EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace"
    editError: undefined,
    // Was: ["1\n", "git init: EROFS: read-only file system (mount at /workspace/m), mkdir: /workspace\n"]
    init: ["0\nhas-git\n", ""],
    top: "x", // Was: "ENOENT"
    e: "xyz\n", // Was: "abc\n"
    mount: "A\n",
  });
}, 60000);
