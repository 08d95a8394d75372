/**
 * Issue 20, twenty-eighth attack run: the shell's `diff` runs the `diff` package's Myers search (`diffArrays` in
 * src/backends/worker-shell/isolate/text-gnu.ts) with no bound on the edit length, so its time grows with the number
 * of lines times the number of changed lines, in one synchronous call: two 8,000-line files whose every line differs
 * take tens of seconds (GNU diff: 0.2 s; here a `timeoutMs` of 8 s settled after 29–40 s), two 20,000-line files
 * with ~40% of the lines changed over a minute, and the command cannot be stopped meanwhile — a `timeoutMs` of 60 s
 * settled after 90 s, local workerd frozen throughout. The Workspace's git met the same cost and bounds it (`GIT_DIFF_MAX_EDIT_LENGTH`, src/git/limits.ts:
 * "8,000 lines ~35 s of one synchronous call"); the shell's diff (new in run 27) does not.
 * Tried: `diff a b` and `diff -u a b` of 20,000-line files (every line with a 1 changed), 3,000 lines all
 * different, 5,000 lines shifted by one, 8,000 lines each changed, against GNU diffutils 3.8, with and without
 * `timeoutMs`.
 * Held: a one-line shift of 5,000 lines (0.1 s); 3,000 lines all different (about 3 s).
 * Found (medium — `diff old new` of two versions of a large generated file, CSV or log, a common agent step, holds
 * the shell for minutes past its timeout; 2 of 2 runs).
 * Suggested fix: in text-gnu.ts `changesOf`, pass `maxEditLength` (as git's GIT_DIFF_MAX_EDIT_LENGTH) and/or
 * `timeout` to `diffArrays`, and when it gives up, fall back to one change from the first to the last differing line
 * (what git does; GNU's output here is exactly that one `1,8000c1,8000` hunk), or to a linear-space heuristic.
 * Fixed: src/backends/worker-shell/isolate/text-gnu.ts `changesOf` trims the lines both files share at the start and
 * the end (as GNU diff), then searches the rest with `diffArrays`' `maxEditLength` (DIFF_MAX_EDIT_LENGTH, 1,000 line
 * edits), skipped when a multiset lower bound shows it would give up; past the bound the change is ONE change from
 * the first to the last differing line (normal, -u, -c alike; -q decides without a search), as the Workspace's git
 * does past GIT_DIFF_MAX_EDIT_LENGTH. Siblings: test/workers/fix28/diff-bound.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("diff of two 8,000-line files whose every line changed answers within seconds, as GNU diff", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    let a = "";
    let b = "";
    for (let i = 1; i <= 8000; i++) {
      a += `${i}\n`;
      b += `${i}x\n`;
    }
    await ws.fs.writeFile("/workspace/a", a);
    await ws.fs.writeFile("/workspace/b", b);
    const started = Date.now();
    const r = await sh(ws, "diff a b | wc -l; diff a b | head -1", { cwd: "/workspace", timeoutMs: 8000 });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, fast: Date.now() - started < 8000 };
  });
  // Was: 124, "", "Execution timed out after 8000 ms\n", false (settled well after the timeout).
  expect(out).toEqual({ exitCode: 0, stdout: "16002\n1,8000c1,8000\n", stderr: "", fast: true });
});
