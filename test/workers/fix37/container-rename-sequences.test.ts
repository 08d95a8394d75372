/**
 * Issue 20, run 37, fixer RA — sibling of test/workers/attack37a/container-rename-then-move-back-loses-subdir.test.ts
 * and test/workers/attack37a/container-rename-then-subdir-out-loses-ignored.test.ts.
 * Any sequence of Workspace renames, removals and creations between two pushes leaves the container equal to the
 * Workspace, with what only the container holds (entries under `MOUNT_IGNORE=**\/node_modules`) moved as `mv` moves
 * it (src/runtime/sync.ts: `#pushRename`, `#movedOn`, `#pendingAt`). The neighbourhood: a chain out of a renamed
 * directory and a rename of that directory after it (the tombstone at an intermediate path), a rename away with a new
 * directory made at the old path and the renamed tree moved into it, a move back, a rename within then out, a file
 * saved aside while its directory is wiped, a new directory made where a moved one was, a file made at the old path,
 * a directory moved into a new directory at its old path or up over its old parent (parked at the mount root for the
 * push, `.ws-sync-move-<8 hex>`, never left there), a directory or file made where a renamed tree's moved-on
 * subdirectory was recorded (the recorded one parked, then renamed to where it lives), and a swap through a third name (the documented fallback: content right, the swapped-in directory's own
 * node_modules go with the deletion, docs/container.md; since run 38, fixer RB, its subdirectory's are kept, as bash keeps them).
 * Every expected container tree is `find . -mindepth 1 | LC_ALL=C sort` after the same steps with `mv`, `mkdir`,
 * `rm -r`, `printf` in bash 5.2.15 on a temp dir holding a/s/x, a/y, b/q and the container-only
 * a/s/node_modules/n, b/node_modules/m; every file's bytes are compared with the Workspace's, and a second command
 * pushes and pulls nothing.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inWorkspace, sh, startContainer, workspaceTree, type LocalContainer } from "../container/helpers.js";

const IGNORE = { MOUNT_IGNORE: "**/node_modules" };
const W = (p: string) => `/workspace/${p}`;

async function paths(c: LocalContainer): Promise<string[]> {
  return [...(await c.tree()).keys()].sort();
}

/** Applies `mv A B`, `mkdir A`, `rm A` (recursive), `write A TEXT` to the Workspace, in order. */
async function steps(ws: Workspace, script: string): Promise<void> {
  for (const step of script.split(";").map((s) => s.trim().split(" "))) {
    const [op, a, b] = step as [string, string, string | undefined];
    if (op === "mv") await ws.fs.rename(W(a), W(b!));
    else if (op === "mkdir") await ws.fs.mkdir(W(a), { recursive: true });
    else if (op === "rm") await ws.fs.rm(W(a), { recursive: true });
    else if (op === "write") await ws.fs.writeFile(W(a), b!);
    else throw new Error(`unknown step ${op}`);
  }
}

/** [steps, the container's tree as bash leaves it]. */
const CASES: [string, string][] = [
  ["mv a c; mv c/s d; mv c e", "b b/node_modules b/node_modules/m b/q d d/node_modules d/node_modules/n d/x e e/y"],
  ["mv a z; mkdir a; mv z/s a/s", "a a/s a/s/node_modules a/s/node_modules/n a/s/x b b/node_modules b/node_modules/m b/q z z/y"],
  ["mv a t; mkdir a; mv t a/t", "a a/t a/t/s a/t/s/node_modules a/t/s/node_modules/n a/t/s/x a/t/y b b/node_modules b/node_modules/m b/q"],
  ["mv a t; mv t/s t/u; mv t/u v", "b b/node_modules b/node_modules/m b/q t t/y v v/node_modules v/node_modules/n v/x"],
  ["mv a/s/x q; rm a; mkdir a/s; mv q a/s/x", "a a/s a/s/x b b/node_modules b/node_modules/m b/q"],
  ["mv a t; mv t/s c; mkdir t/s; write t/s/w w", "b b/node_modules b/node_modules/m b/q c c/node_modules c/node_modules/n c/x t t/s t/s/w t/y"],
  ["mv a z; write a f", "a b b/node_modules b/node_modules/m b/q z z/s z/s/node_modules z/s/node_modules/n z/s/x z/y"],
  ["mv a t; mv t/s a2; mv a2 t/s2", "b b/node_modules b/node_modules/m b/q t t/s2 t/s2/node_modules t/s2/node_modules/n t/s2/x t/y"],
  ["mv a/s t; rm a; mv t a", "a a/node_modules a/node_modules/n a/x b b/node_modules b/node_modules/m b/q"],
  ["mv a t; mkdir a; mv t a/t; mv a/t/s a/s", "a a/s a/s/node_modules a/s/node_modules/n a/s/x a/t a/t/y b b/node_modules b/node_modules/m b/q"],
  ["mv a t; mv t/s c; mv t d; mkdir d/s", "b b/node_modules b/node_modules/m b/q c c/node_modules c/node_modules/n c/x d d/s d/y"],
  ["mv a t; mv t/s c; mv t d; mkdir d/s; write c/w w", "b b/node_modules b/node_modules/m b/q c c/node_modules c/node_modules/n c/w c/x d d/s d/y"],
  ["mv a t; mv t/s c; mv t d; write d/s f", "b b/node_modules b/node_modules/m b/q c c/node_modules c/node_modules/n c/x d d/s d/y"],
  [
    "mv a t; mkdir a/b; mv t a/b/t; mv b a/b/t/b",
    "a a/b a/b/t a/b/t/b a/b/t/b/node_modules a/b/t/b/node_modules/m a/b/t/b/q a/b/t/s a/b/t/s/node_modules a/b/t/s/node_modules/n a/b/t/s/x a/b/t/y",
  ],
];

async function check(c: LocalContainer, ws: Workspace, expected: string[]): Promise<void> {
  const r = await sh(ws, "true");
  expect([r.exitCode, r.skipped]).toEqual([0, []]);
  expect(await paths(c)).toEqual(expected); // no `.ws-sync-move-*` left either
  const tree = await workspaceTree(ws);
  for (const [path, entry] of tree) {
    if (entry.kind !== "file") continue;
    expect([path, await c.text(path)]).toEqual([path, entry.text]);
  }
  for (const n of expected.filter((p) => /node_modules\/[nm]$/.test(p))) expect(await c.text(n)).toBe(n.endsWith("n") ? "n\n" : "m\n");
  const again = await sh(ws, "true");
  expect([again.pushed, again.pulled, again.skipped]).toEqual([0, 0, []]);
  expect(await paths(c)).toEqual(expected);
}

async function seed(c: LocalContainer, ws: Workspace): Promise<void> {
  await ws.fs.mkdir(W("a/s"), { recursive: true });
  await ws.fs.mkdir(W("b"));
  await ws.fs.writeFile(W("a/s/x"), "x");
  await ws.fs.writeFile(W("a/y"), "y");
  await ws.fs.writeFile(W("b/q"), "q");
  const install = await sh(ws, "mkdir a/s/node_modules b/node_modules && echo n > a/s/node_modules/n && echo m > b/node_modules/m");
  expect(install.exitCode).toBe(0);
}

describe("fix37 RA: Workspace rename sequences reach the container as mv leaves it", () => {
  for (const [script, tree] of CASES) {
    it(script, async () => {
      const c = await startContainer(IGNORE);
      await inWorkspace(c, async (ws) => {
        await seed(c, ws);
        await steps(ws, script);
        await check(c, ws, tree.split(" "));
      });
    });
  }

  it("a swap through a third name: content right; the directory renamed over another keeps the deletion fallback", async () => {
    // bash: a a/node_modules a/node_modules/m a/q b b/s b/s/node_modules b/s/node_modules/n b/s/x b/y. `a → t` is
    // met first, when the container's b still holds its own entries (rename(2) answers ENOTEMPTY): sent as a deletion
    // of a and a re-creation at b (docs/container.md, the swap fallback); `b → a` is a rename. Since run 38 (fixer RB)
    // the deletion of a parks a/s first (its inode lives on at b/s) and the entry at b/s renames it there, so
    // a/s/node_modules is kept as bash keeps it (was: "a a/node_modules a/node_modules/m a/q b b/s b/s/x b/y").
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await seed(c, ws);
      await steps(ws, "mv a t; mv b a; mv t b");
      await check(c, ws, "a a/node_modules a/node_modules/m a/q b b/s b/s/node_modules b/s/node_modules/n b/s/x b/y".split(" "));
    });
  });
});
