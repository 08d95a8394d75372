/**
 * Issue 20, thirteenth attack run: `git status` / `git add` over an untracked directory chain (the
 * Workspace's git walk, src/git/ops/walk.ts, with isomorphic-git's `isIgnored` per path).
 *
 * Tried: `mkdir -p` of a chain of one-letter directories (`a/a/…/a`, a path of ~1 KB — far inside the
 * Workspace's path limits, docs/filesystem.md "Deep paths within the limits work at any depth") with
 * one file at the bottom, in a fresh repository, then `git status --porcelain` (and `git add .`).
 * Measured (Node, node:sqlite): depth 80 → 0.7 s, 160 → 3.2 s, 250 → 24 s (`add .` 18 s), 500 → 194 s:
 * about cubic in the depth. The answer is one line, `? a/`. isIgnored asks about every directory on the
 * way down, and for each one reads the `.gitignore` of every ancestor (depth × depth reads of missing
 * files, each a lookup of a path as deep again). GIT_MAX_TREE_DEPTH (256, docs/git.md) bounds only trees
 * read from objects (checkout, clone, merge), not the working tree git walks.
 * (Held: workspace.fs itself over a 5,500-deep chain — find 1.0 s, grep, ls, stat, rename, rm — and the
 * provider's recursive readdir, 2.6 s.)
 *
 * Found (high): a 1 KB `mkdir -p` (an agent's, a package's nested folders, an archive unpacked) makes the
 * next `git status` freeze the Durable Object for minutes; the agent's most common git call.
 * Reproduction (Node):
 *   await git.cli({ argv: ["init", "-q"], cwd: "/repo" });
 *   await ws.fs.mkdir("/repo/" + Array(250).fill("a").join("/"), { recursive: true });
 *   await ws.fs.writeFile("/repo/" + Array(250).fill("a").join("/") + "/f.txt", "x");
 *   await git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" });   // 24 s
 * Suggested fix: decide ignores during the walk with one matcher per directory built once from its
 * parent's (as real git's exclude stack does) instead of isIgnored per path; remember missing
 * `.gitignore` files; stop descending an untracked directory once it holds a file (status shows `a/`).
 *
 * Fixed: ignores are decided during the walk by src/git/ops/ignores.ts (WorktreeIgnores): each
 * directory's ignore file is read and compiled once per operation, and none is read where the walk's
 * listing of the directory holds no `.gitignore` — a 300-deep chain now takes well under a second.
 *
 * The call runs in a worker thread (worker-run.ts) so the bounded wait can see the freeze.
 */
import { describe, expect, it } from "vitest";
import { GIT_SRC, runInWorker } from "./worker-run.js";

function script(depth: number): string {
  return `const ws = new Workspace({ storage: nodeSqliteStorage() });
const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@b" } });
await ws.fs.mkdir("/repo");
await git.cli({ argv: ["init", "-q"], cwd: "/repo" });
const deep = "/repo/" + Array(${depth}).fill("a").join("/");
await ws.fs.mkdir(deep, { recursive: true });
await ws.fs.writeFile(deep + "/f.txt", "x");
post("tree made");
post(await git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" }));`;
}
const PRELUDE = `import { createGitClient } from ${JSON.stringify(GIT_SRC)};`;

describe("attack13b: git status over a deep untracked directory chain", () => {
  it("control: a 40-deep chain — status answers `? a/`", { timeout: 60_000 }, async () => {
    const run = await runInWorker(script(40), 15_000, PRELUDE);
    expect(run).toEqual({ messages: ["tree made", { stdout: "? a/\n", stderr: "", exitCode: 0 }], settled: true, error: undefined });
  });

  it("a 300-deep chain (a 600-byte path) — status settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(script(300), 15_000, PRELUDE);
    expect(run).toEqual({ messages: ["tree made", { stdout: "? a/\n", stderr: "", exitCode: 0 }], settled: true, error: undefined });
  });
});
