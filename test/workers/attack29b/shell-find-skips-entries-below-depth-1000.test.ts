/**
 * Issue 20, twenty-ninth attack run: `find` stops walking 1000 directories down without a word: entries deeper than
 * that are neither printed nor tested (`-name`, `-type f`, `-exec`), nothing is said on stderr and find exits 0, so
 * `find d -name deep.txt` answers "no such file" for a file that is there. GNU find 4.9 (fts) has no depth bound; the
 * shell's own `du` on the same tree fails loudly (`du: filesystem traversal depth limit exceeded (1000)`, 126).
 * Tried: side by side with GNU findutils 4.9 in a temp dir — files at depths 990–1003 under `find d -type f`,
 * `find d -name f1003`, `find d -type f -exec echo {} \;`, `find d | wc -l`; `du -a d`.
 * Held: find reaches depth 1000 (files at 990, 998, 999, 1000 are listed); `cat`/`ls` of the deep path work; du
 * refuses loudly.
 * Found (medium — `find … | xargs …` silently computes a different file list, exit 0, on a hostile tree; 2 of 2 runs).
 * Suggested fix: just-bash's find walker (the find chunk: `v > (s2 ?? t.limits.maxTraversalDepth)) return null` and
 * `!(v >= (s2 ?? …maxTraversalDepth))`) — patch it in scripts/gen-shell.mjs to fail as du does (a message naming the
 * limit, non-zero status) when it would go past maxTraversalDepth without -maxdepth, instead of dropping the subtree.
 * Fixed: find no longer drops what lies below maxTraversalDepth; it walks to just-bash's traversal budget, which now
 * allows MAX_WALK_DEPTH (5,793: deeper than any Workspace path can lie, src/backends/worker-shell/isolate/deep-walks.ts,
 * set in worker.ts) and fails loudly past it as du does (`find: filesystem traversal depth limit exceeded (5793)`,
 * 126) — scripts/gen-shell.mjs DP_PATCHES (fixer DP, run 29). du, ls -R, cp -r, chmod -R and rg go as deep.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("find reports a file 1001 directories down, as GNU find", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const deep = "/workspace/" + "d/".repeat(1001);
    await ws.fs.mkdir(deep, { recursive: true });
    await ws.fs.writeFile(deep + "deep.txt", "x\n");
    const r = await sh(ws, "find d -name deep.txt | wc -l; find d -type f | wc -l; echo rc=${PIPESTATUS[0]}", {
      cwd: "/workspace",
      timeoutMs: 60_000,
    });
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "0\n0\nrc=0\n", ""] — the file below depth 1000 is skipped without a message.
  expect(out).toEqual([0, "1\n1\nrc=0\n", ""]);
});
