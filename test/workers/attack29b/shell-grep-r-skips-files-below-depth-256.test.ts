/**
 * Issue 20, twenty-ninth attack run: `grep -r`/`grep -R` (and `rg`) stop walking 256 directories down without a word:
 * a file below that depth is not searched, nothing is said on stderr and the status is that of the files it did see
 * (`grep -rq TODO d` exits 1, "no match", with a TODO in d/…/deep.txt). A hostile tree hides a file from the agent's
 * `grep -rn`; GNU grep 3.8 (fts) and ripgrep have no such bound.
 * Tried: side by side with GNU grep 3.8 in a temp dir — a file 300 directories down (`d/d/…/deep.txt`, 600-byte path)
 * under `grep -rl`, `grep -Rl`, `grep -rq`, `rg -l`, `find -name`, `ls **` (globstar), `du -a`, `ls -R`, `tree`,
 * `cp -r`, `tar c`/`tar t`, `rm -r`.
 * Held: find, globstar, du, ls -R, tree, cp -r, tar and rm -r all reach the file at depth 300 (find stops near depth
 * 1000, see the report); `cat`/`ls` of the deep path work.
 * Found (medium — `grep -rn` silently computes a different answer, exit 0 or 1 as if the file were absent; 2 of 2 runs).
 * Suggested fix: just-bash's grep walker (`var ge = 256` in the grep chunk: its recursive `V(...)` returns when
 * `a2 >= ge`) and rg's `maxDepth: 256` default — patch them in scripts/gen-shell.mjs to walk without a depth bound (the
 * walk is bounded by its operation budget already), or at least to fail loudly (`grep: …: recursion depth exceeded`,
 * status 2) instead of returning.
 * Fixed: just-bash's grep walker (and its `**` operand walk) no longer stops at depth 256 and rg has no default depth;
 * both walk as deep as a Workspace path can go (just-bash's maxTraversalDepth, set to MAX_WALK_DEPTH = 5,793 in
 * src/backends/worker-shell/worker.ts) and fail loudly past it (`grep: filesystem traversal depth limit exceeded (5793)`,
 * 126) — scripts/gen-shell.mjs DP_PATCHES, src/backends/worker-shell/isolate/deep-walks.ts (fixer DP, run 29).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("grep -r and rg search a file 300 directories down, as GNU grep and ripgrep", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const deep = "/workspace/" + "d/".repeat(300);
    await ws.fs.mkdir(deep, { recursive: true });
    await ws.fs.writeFile(deep + "deep.txt", "TODO\n");
    await ws.fs.writeFile("/workspace/top.txt", "TODO\n");
    const r = await sh(
      ws,
      "grep -rl TODO . | wc -l; grep -Rl TODO . | wc -l; grep -rq TODO d; echo rq=$?; rg -l TODO d | wc -l",
      { cwd: "/workspace", timeoutMs: 60_000 },
    );
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "1\n1\nrq=1\n0\n", ""] — only ./top.txt found, d/…/deep.txt skipped without a message.
  expect(out).toEqual([0, "2\n2\nrq=0\n1\n", ""]);
});
