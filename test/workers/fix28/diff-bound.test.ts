/**
 * Issue 20, run 28, fixer DT: siblings of attack28b/shell-diff-unbounded-on-many-changed-lines — the shell's diff
 * trims the lines both files share at the start and the end, then bounds the `diff` library's Myers search
 * (DIFF_MAX_EDIT_LENGTH, 1,000 line edits, in src/backends/worker-shell/isolate/text-gnu.ts); past the bound the
 * change is ONE change from the first to the last differing line. Checked side by side with GNU diffutils 3.8 in a
 * temp dir: every output below that GNU gives too is compared by its md5sum (normal, -u, -c, -r, -q, --brief, -B),
 * a change within the bound (400 lines changed out of 8,000) is GNU's byte for byte, and a permutation (the search
 * runs to the bound and gives up) is one change where GNU finds two — still a correct diff, answered in seconds.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const SETUP = [
  "seq 1 8000 > a",
  "seq 1 8000 | sed 's/$/x/' > b",
  "seq 1 10000 > c",
  "seq 1 10000 | awk 'NR >= 100 && NR <= 9000 { $0 = $0 \"y\" } { print }' > d",
  "awk '{ print NR % 20 ? $0 : $0 \"z\" }' a > e",
  "mkdir -p r1/s r2/s && cp a r1/s/f && cp b r2/s/f",
  "seq 3000 > s && seq 3000 | tac > r",
].join(" && ");

it("diff of many changed lines answers within seconds, in every format, as GNU diff", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const setup = await sh(ws, SETUP, { cwd: "/workspace" });
    const started = Date.now();
    const r = await sh(
      ws,
      [
        "diff a b | md5sum; echo rc=${PIPESTATUS[0]}",
        "diff -u --label a --label b a b | md5sum",
        "diff -c --label a --label b a b | md5sum",
        "diff -c --label a --label b a b | sed -n '4,5p;8002,8004p'",
        "diff -q a b; echo rc=$?",
        "diff --brief a b; echo rc=$?",
        "diff -B a b | head -1",
        "diff c d | md5sum; diff c d | head -1",
        "diff -u --label c --label d c d | md5sum; diff -u --label c --label d c d | sed -n 3p",
        "diff -r r1 r2 | md5sum; diff -r r1 r2 | head -2",
        "diff a e | md5sum; diff a e | wc -l",
      ].join("; "),
      { cwd: "/workspace", timeoutMs: 20000 },
    );
    return { setup: setup.exitCode, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, fast: Date.now() - started < 20000 };
  });
  // GNU diffutils 3.8 on the same files: the same lines.
  expect(out).toEqual({
    setup: 0,
    exitCode: 0,
    stdout: [
      "57cdc2610bf8c6317c2dcbddedd3c1b4  -",
      "rc=1",
      "d71099b92254b6a70c9b9a1a7a48795c  -",
      "132ff4ac189d1cd5de7db5c5c1661ff5  -",
      "*** 1,8000 ****",
      "! 1",
      "! 7998",
      "! 7999",
      "! 8000",
      "Files a and b differ",
      "rc=1",
      "Files a and b differ",
      "rc=1",
      "1,8000c1,8000",
      "bc5b5415260d8c6e4853ca35b7c4dc9b  -",
      "100,9000c100,9000",
      "4c6e09021e6e8662b7ffca594a1ed4ee  -",
      "@@ -97,8907 +97,8907 @@",
      "30f5dc55391ee1b041b31d6c5e842516  -",
      "diff -r r1/s/f r2/s/f",
      "1,8000c1,8000",
      "c91c92e29fa78486f57df36c111acb67  -",
      "1600",
      "",
    ].join("\n"),
    stderr: "",
    fast: true,
  });
});

it("a permutation past the bound is one change (GNU finds two), still a correct diff, within seconds", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const setup = await sh(ws, SETUP, { cwd: "/workspace" });
    const started = Date.now();
    const r = await sh(ws, "diff s r | wc -l; diff s r | grep '^[0-9]'; diff s r | sed -n '2p;3000,3003p;6002p'", { cwd: "/workspace", timeoutMs: 20000 });
    return { setup: setup.exitCode, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, fast: Date.now() - started < 20000 };
  });
  // GNU diffutils 3.8: "6000\n1,2999d0\n3000a2,3000\n…" — the 3,000 lines reversed share one line (the Myers search
  // needs 5,998 edits, past DIFF_MAX_EDIT_LENGTH), so here every old line is removed and every new one added.
  expect(out).toEqual({
    setup: 0,
    exitCode: 0,
    stdout: "6002\n1,3000c1,3000\n< 1\n< 2999\n< 3000\n---\n> 3000\n> 1\n",
    stderr: "",
    fast: true,
  });
});
