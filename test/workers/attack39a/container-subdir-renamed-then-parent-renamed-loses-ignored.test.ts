/**
 * Issue 20, thirty-ninth attack run: a subdirectory renamed inside a synced directory, then that directory renamed
 * (`mv a/u a/x; mv a b`, both in the Workspace between two pushes) reaches the container without the directory's own
 * container-only entries: with `MOUNT_IGNORE=**\/node_modules`, `a/node_modules/n` (installed by a command in the
 * container) is gone after the next push — the container holds `b b/x`, bash leaves `b b/node_modules
 * b/node_modules/n b/x`. docs/container.md: "A Workspace rename of a synced directory is sent as a rename … what the
 * container holds only in it — ignored entries such as node_modules … — moves with it" and "Any sequence of renames,
 * removals and creations before a push leaves the container as `mv`, `rm -r` and `mkdir` leave it".
 * Change log of the reproduction: `a/u` deleted (rev 3, subtree), `a` deleted (rev 4, subtree), `b` (4), `b/x` (4).
 * The push meets `a/u`'s deletion first; `#pushRename("a/u")` finds its inode at `b/x` and sends `rename a/u → b/x`;
 * the daemon's `rename` makes missing parents (container/lib/sync.mjs `case "rename"`: `mkdir(dirname(to),
 * { recursive: true })`), so it succeeds and creates an empty `b`. Then `a`'s rename to `b` is refused (`ENOTEMPTY`,
 * `b` holds `x`), `a` is pushed as a deletion (`rm a`, node_modules with it) and `b` is sent as a new directory.
 * Tried: a differential fuzzer (test-local model of a tree with container-only node_modules that move with their
 * directory; random mv / rm -r / mkdir / write in the Workspace between pushes, names a, b, s, t, a-b, a.b; 20 seeds
 * x 8 rounds, then 40 seeds x 12 rounds with container-side commands too; container tree and Workspace tree compared
 * after each push; 4 failing seeds, all this defect, e.g. `mv b t/b; mv t a`), then the reduced forms below, each
 * checked against bash 5.2.15 on a temp dir (`find . -mindepth 1 | LC_ALL=C sort`).
 * Held: the other fuzz seeds; `mv a b; mv b/u b/x`, `mv a/u a/x; mv a/x a/s`, `mv a/u a/x; mv a/x a/u`,
 * `mv a b; mv t/t b/x; mv b/x b/s`, `mv t/t a/x; mv a b`, `mv t/t a/x; mv a b; mv b/x t/s` (trees equal to bash's).
 * Found (medium — renaming a subfolder and then the project folder is an ordinary restructuring; the project's
 * installed dependencies (or .venv) vanish from the container silently, push exits 0 with skipped []; the next
 * `node`/`python` run fails; 3 of 3 runs): container trees below without `b/node_modules` (e.g. `b b/x t t/t
 * t/t/node_modules t/t/node_modules/n` for the first row).
 * Suggested fix: src/runtime/sync.ts #pushRename — a rename whose target's parent is not in the container (not
 * recorded in the manifest, or itself the new path of a recorded directory whose own deletion is still to come in
 * this push) must not be sent as is: the daemon makes the parent, which then blocks the parent's own rename. Either
 * defer it (treat as nested: park under `.ws-sync-move-<hex>`, renamed into place by the entry at `to`), or send the
 * rename without creating parents (a `rename` op flag; ENOENT → park) so `a → b` lands first.
 * Fixed: a rename the push meets before the entry at its target is sent with `parents: false` (the daemon's rename then answers ENOENT for a missing parent, as rename(2), instead of making it) and, refused so, parked under `.ws-sync-move-<hex>` for the entry at the target to rename into place — src/runtime/sync.ts #pushRename, container/lib/sync.mjs `rename` (issue 20, run 39, fixer CR). Siblings: test/workers/fix39/container-rename-order.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree } from "../container/helpers.js";

const W = (p: string) => `/workspace/${p}`;
const T = "t t/t t/t/node_modules t/t/node_modules/n";

/** [Workspace renames, the container's tree as bash leaves it (find . -mindepth 1 | LC_ALL=C sort)]. */
const CASES: [string, string][] = [
  ["mv a/u a/x; mv a b", `b b/node_modules b/node_modules/n b/x b/x/f ${T}`],
  ["mv a/u a/x; mv a b; mv b/x b/u", `b b/node_modules b/node_modules/n b/u b/u/f ${T}`],
  ["mv a/u a/x; mv a b; mv b/x b/s", `b b/node_modules b/node_modules/n b/s b/s/f ${T}`],
  ["mv t/t a/x; mv a/x a/s; mv a b", "b b/node_modules b/node_modules/n b/s b/s/node_modules b/s/node_modules/n b/u b/u/f t"],
  ["mv t/t a/x; mv a b; mv b/x b/s", "b b/node_modules b/node_modules/n b/s b/s/node_modules b/s/node_modules/n b/u b/u/f t"],
  ["mv t a/t; mv a b", "b b/node_modules b/node_modules/n b/t b/t/t b/t/t/node_modules b/t/t/node_modules/n b/u b/u/f"],
  ["mv t a/x; mv a b; mv b/x b/s", "b b/node_modules b/node_modules/n b/s b/s/t b/s/t/node_modules b/s/t/node_modules/n b/u b/u/f"],
];

describe("attack39a: a subdirectory renamed, then its parent renamed", () => {
  for (const [script, tree] of CASES) {
    it(`${script}: keeps the parent's container-only node_modules, as mv does`, async () => {
      const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
      await inWorkspace(c, async (ws) => {
        await ws.fs.mkdir(W("a/u"), { recursive: true });
        await ws.fs.mkdir(W("t/t"), { recursive: true });
        await ws.fs.writeFile(W("a/u/f"), "f");
        const install = await sh(ws, "mkdir a/node_modules t/t/node_modules && echo n > a/node_modules/n && echo n > t/t/node_modules/n");
        expect(install.exitCode).toBe(0);

        for (const step of script.split("; ")) {
          const [, from, to] = step.split(" ") as [string, string, string];
          await ws.fs.rename(W(from), W(to));
        }

        const r = await sh(ws, "true");
        expect([r.exitCode, r.skipped]).toEqual([0, []]);
        for (const [path, entry] of await workspaceTree(ws)) if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
        // Was: the same tree without b/node_modules (e.g. `b b/x b/x/f t t/t …` for the first row).
        expect([...(await c.tree()).keys()].sort()).toEqual(tree.split(" "));
      });
    });
  }
});
