/**
 * Issue 20, run 38, fixer RB: a directory whose Workspace inode lives on is never taken by the container-side removal
 * of a recorded ancestor (src/runtime/sync.ts `RemoteSync.#parkLiving`). Before an `rm` of a recorded directory — a
 * deletion, a row a rename left where the Workspace holds nothing, a directory a rename's moved tree no longer holds —
 * every recorded directory under it that lives on at a synced path whose change-log entry is still to come is parked
 * (`.ws-sync-move-<8 hex>`) and renamed there by that entry, with what only the container holds in it.
 * Sibling of test/workers/attack38a/container-move-into-new-dir-then-over-old-loses-ignored.test.ts and
 * container-sibling-moved-into-dir-over-removed-loses-ignored.test.ts: the other forms of the same mistake — two levels
 * deep (a grandchild moved out and back under a re-made parent), a child and a grandchild living on at two places, a
 * directory removed inside a renamed tree with a subdirectory moved out of it, a cycle through a removed parent two
 * levels down, a directory removed and re-made at its own path around a moved child, a tree holding a link, a file
 * moved out and back (sent again, bytes right), a directory removed after all (nothing parked survives), a directory
 * replaced by a file while its child moves on.
 * Seed: a/s/x, a/y, b/q, a/s/t/z, a link a/s/l → x; container-only (MOUNT_IGNORE=**\/node_modules)
 * a/s/node_modules/n, a/s/t/node_modules/k, b/node_modules/m. Every expected tree is the output of the same steps with
 * `mv`, `mkdir -p`, `rm -r`, `printf` in bash 5.2.15 on a temp dir, `find . -mindepth 1 | LC_ALL=C sort` (no
 * `.ws-sync-move-*` left either); every Workspace file's bytes and link's target are compared with the container's;
 * a second command pushes and pulls nothing.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { containerTree, inWorkspace, sh, startContainer, workspaceTree, type LocalContainer } from "../container/helpers.js";

const W = (p: string) => `/workspace/${p}`;
const BASE = "b b/node_modules b/node_modules/m b/q";

/** [steps (mv, mkdir -p, rm -r, write PATH TEXT), the container's tree as bash leaves it]. */
const CASES: [string, string][] = [
  ["mkdir c; mv a/s/t c/t; rm a; mkdir a/s; mv c/t a/s/t; rm c", `a a/s a/s/t a/s/t/node_modules a/s/t/node_modules/k a/s/t/z ${BASE}`],
  ["mkdir c; mv a/s c/s; mv c/s/t t; rm a; mv c a", `a a/s a/s/l a/s/node_modules a/s/node_modules/n a/s/x ${BASE} t t/node_modules t/node_modules/k t/z`],
  ["mv a z; mv z/s/t t; rm z/s", `${BASE} t t/node_modules t/node_modules/k t/z z z/y`],
  ["mv a/s/t t; rm a; mkdir a; mv t a/t", `a a/t a/t/node_modules a/t/node_modules/k a/t/z ${BASE}`],
  ["mv a/s/t t; rm a/s; mkdir a/s; mv t a/s/t", `a a/s a/s/t a/s/t/node_modules a/s/t/node_modules/k a/s/t/z a/y ${BASE}`],
  ["mv a/s/t t; rm a; mv t a", `a a/node_modules a/node_modules/k a/z ${BASE}`],
  ["mv a/s a/u; mv a/u/t a/v; rm a/u; mkdir a/u; mv a/v a/u/t", `a a/u a/u/t a/u/t/node_modules a/u/t/node_modules/k a/u/t/z a/y ${BASE}`],
  ["mv a/s/t a/t; rm a/s; mv a/t a/s", `a a/s a/s/node_modules a/s/node_modules/k a/s/z a/y ${BASE}`],
  [
    "mkdir c; mv a/s c/s; rm a; mv c/s c/a; mv c/a a; rm c",
    `a a/l a/node_modules a/node_modules/n a/t a/t/node_modules a/t/node_modules/k a/t/z a/x ${BASE}`,
  ],
  ["mv a z; mkdir a; mv z/s/t a/t; rm z", `a a/t a/t/node_modules a/t/node_modules/k a/t/z ${BASE}`],
  [
    "mkdir c/d; mv a/s/t c/d/t; mv a/s c/s; rm a; mv c a",
    `a a/d a/d/t a/d/t/node_modules a/d/t/node_modules/k a/d/t/z a/s a/s/l a/s/node_modules a/s/node_modules/n a/s/x ${BASE}`,
  ],
  [
    "mv a/s s; rm a; write a f; mkdir d; mv s d/s; mv d a2",
    `a a2 a2/s a2/s/l a2/s/node_modules a2/s/node_modules/n a2/s/t a2/s/t/node_modules a2/s/t/node_modules/k a2/s/t/z a2/s/x ${BASE}`,
  ],
  ["mkdir c; mv a/y c/y; rm a; mv c a", `a a/y ${BASE}`],
  ["mkdir c; mv a/s c/s; rm a; mv c a; rm a/s", `a ${BASE}`],
];

async function steps(ws: Workspace, script: string): Promise<void> {
  for (const step of script.split("; ")) {
    const [op, a, b] = step.split(" ") as [string, string, string | undefined];
    if (op === "mv") await ws.fs.rename(W(a), W(b!));
    else if (op === "mkdir") await ws.fs.mkdir(W(a), { recursive: true });
    else if (op === "rm") await ws.fs.rm(W(a), { recursive: true });
    else if (op === "write") await ws.fs.writeFile(W(a), b!);
    else throw new Error(`unknown step ${op}`);
  }
}

async function check(c: LocalContainer, ws: Workspace, expected: string[]): Promise<void> {
  const r = await sh(ws, "true");
  expect([r.exitCode, r.skipped]).toEqual([0, []]);
  expect([...(await c.tree()).keys()].sort()).toEqual(expected);
  const theirs = await containerTree(c);
  for (const [path, entry] of await workspaceTree(ws)) {
    if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
    if (entry.kind === "symlink") expect([path, theirs.get(path)?.target]).toEqual([path, entry.target]);
  }
  const held: Record<string, string> = { n: "n\n", k: "k\n", m: "m\n" };
  for (const p of expected.filter((q) => /node_modules\/[nkm]$/.test(q))) expect([p, await c.text(p)]).toEqual([p, held[p.at(-1)!]]);
  const again = await sh(ws, "true");
  expect([again.pushed, again.pulled, again.skipped]).toEqual([0, 0, []]);
  expect([...(await c.tree()).keys()].sort()).toEqual(expected);
}

describe("fix38 RB: a directory that lives on is not taken by its recorded ancestor's removal", () => {
  for (const [script, tree] of CASES) {
    it(script, async () => {
      const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
      await inWorkspace(c, async (ws) => {
        await ws.fs.mkdir(W("a/s/t"), { recursive: true });
        await ws.fs.mkdir(W("b"));
        await ws.fs.writeFile(W("a/s/x"), "x");
        await ws.fs.writeFile(W("a/y"), "y");
        await ws.fs.writeFile(W("b/q"), "q");
        await ws.fs.writeFile(W("a/s/t/z"), "z");
        await ws.fs.symlink("x", W("a/s/l"));
        const install = await sh(
          ws,
          "mkdir a/s/node_modules a/s/t/node_modules b/node_modules && echo n > a/s/node_modules/n && echo k > a/s/t/node_modules/k && echo m > b/node_modules/m",
        );
        expect(install.exitCode).toBe(0);
        await steps(ws, script);
        await check(c, ws, tree.split(" "));
      });
    });
  }
});
