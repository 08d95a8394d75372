/**
 * Issue 20, thirty-eighth attack run: a subdirectory moved into a NEW directory, its old parent removed, and the new
 * directory then renamed onto the old parent's path (`mkdir c; mv a/s c/s; rm -r a; mv c a`, all in the Workspace
 * between two pushes) reaches the container without the subdirectory's container-only entries: with
 * `MOUNT_IGNORE=**\/node_modules`, `a/s/node_modules/n` (installed by a command in the container) is gone after the
 * next push, although docs/container.md says any sequence of renames, removals and creations before a push leaves
 * the container as `mv`, `rm -r` and `mkdir` leave it. `s`'s inode lives on at `a/s` (its path unchanged at the
 * end), but its old parent's deletion takes it with it. Eight forms of one agent move — restructure a directory by
 * moving a subdirectory out, removing or renaming away the rest, and putting the subdirectory back under a directory
 * at the old parent's path — all lose it (table below, each checked against bash).
 * Tried: the same seed as test/workers/fix37/container-rename-sequences.test.ts (a/s/x, a/y, b/q; container-only
 * a/s/node_modules/n, b/node_modules/m), then thirteen sequences: a cycle a→t→u→a (in one push and across three),
 * a rename plus an edit of the moved file, a rename over an existing empty directory and over an existing file, a
 * name with a newline, a tree holding a link and an empty directory, a rename into a synced sibling, rename chains
 * out of a renamed tree, a file and a directory moved into a renamed one. Differential: bash 5.2.15 on a temp dir,
 * `mkdir c; mv a/s c/s; rm -r a; mv c a; find . -mindepth 1 | LC_ALL=C sort` →
 * a a/s a/s/node_modules a/s/node_modules/n a/s/x b b/node_modules b/node_modules/m b/q.
 * Held: the twelve other sequences (container tree equal to bash's, every file's bytes equal to the Workspace's,
 * a second command pushes and pulls nothing).
 * Found (medium — a dependency tree or virtualenv an agent installed in the container vanishes after a
 * Workspace-side reorganisation, silently; the next `node`/`python` run fails; 3 of 3 runs): container tree
 * a a/s a/s/x b b/node_modules b/node_modules/m b/q — a/s/node_modules/n lost; the push exits 0, skipped []; the other seven forms likewise (the moved
 * subdirectory arrives with its Workspace files only).
 * Suggested fix: src/runtime/sync.ts #pushRename / #movedOn: `s` moved on out of `a` into a directory the container
 * does not hold yet (`c`, new this push), then `c` lands at `a` — `s`'s final path equals its recorded one, so it is
 * neither renamed nor parked, and `rm a` takes it. Park `s` before the removal of its recorded parent when its inode
 * lives on under a path that is re-created (or rename `a`'s old tree aside and remove only what did not move on).
 * Fixed: before the container's `rm` of a recorded directory, every recorded directory under it whose Workspace inode
 * lives on (at a synced path whose change-log entry is still to come, its recorded path included) is parked under
 * `.ws-sync-move-<8 hex>` and renamed into place by that entry — src/runtime/sync.ts `RemoteSync.#parkLiving`, called
 * for a deletion's removals, a stale row's removal, a kind change and a renamed tree's removed rows (issue 20, run 38,
 * fixer RB). Siblings: test/workers/fix38/container-living-under-removed.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree } from "../container/helpers.js";

const W = (p: string) => `/workspace/${p}`;
const BASE = "b b/node_modules b/node_modules/m b/q";

/** [Workspace steps (mv, mkdir -p, rm -r), the container's tree as bash leaves it (find . -mindepth 1 | LC_ALL=C sort)]. */
const CASES: [string, string][] = [
  ["mkdir c; mv a/s c/s; rm a; mv c a", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE}`],
  ["mkdir c; mv a/s c/s2; rm a; mv c a", `a a/s2 a/s2/node_modules a/s2/node_modules/n a/s2/x ${BASE}`],
  ["mv a a2; mkdir a; mv a2/s a/s; rm a2", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE}`],
  ["mv a/s s; mv a/y y; rm a; mkdir a; mv s a/s", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE} y`],
  ["mv a/s b/s; rm a; mkdir a; mv b/s a/s", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE}`],
  ["mkdir c/d; mv a/s c/d/s; rm a; mv c/d a", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE} c`],
  ["mkdir c; mv a c/a; mv c/a/s c/s; rm c/a; mv c a", `a a/s a/s/node_modules a/s/node_modules/n a/s/x ${BASE}`],
  ["mv a/s b/s; rm a; mv b a", "a a/node_modules a/node_modules/m a/q a/s a/s/node_modules a/s/node_modules/n a/s/x"],
];

describe("attack38a: a subdirectory moved out and back under a directory now at its removed parent's path", () => {
  for (const [script, tree] of CASES) {
    it(`${script}: keeps its container-only node_modules, as mv does`, async () => {
      const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
      await inWorkspace(c, async (ws) => {
        await ws.fs.mkdir(W("a/s"), { recursive: true });
        await ws.fs.mkdir(W("b"));
        await ws.fs.writeFile(W("a/s/x"), "x");
        await ws.fs.writeFile(W("a/y"), "y");
        await ws.fs.writeFile(W("b/q"), "q");
        const install = await sh(ws, "mkdir a/s/node_modules b/node_modules && echo n > a/s/node_modules/n && echo m > b/node_modules/m");
        expect(install.exitCode).toBe(0);

        for (const step of script.split("; ")) {
          const [op, a, b] = step.split(" ") as [string, string, string | undefined];
          if (op === "mv") await ws.fs.rename(W(a), W(b!));
          else if (op === "mkdir") await ws.fs.mkdir(W(a), { recursive: true });
          else await ws.fs.rm(W(a), { recursive: true });
        }

        const r = await sh(ws, "true");
        expect([r.exitCode, r.skipped]).toEqual([0, []]);
        for (const [path, entry] of await workspaceTree(ws)) if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
        // Was: the same tree without the moved subdirectory's node_modules (e.g. for the first row
        // a a/s a/s/x b b/node_modules b/node_modules/m b/q — a/s/node_modules/n lost).
        expect([...(await c.tree()).keys()].sort()).toEqual(tree.split(" "));
      });
    });
  }
});
