/**
 * Issue 20, found by the lead after the sixteenth attack run (a fix helper's note): `clean` with `directories`
 * collected the paths of an untracked directory that also holds an ignored file by spreading them into one
 * `push(...inside)` call (src/git/ops/worktree.ts), so a directory of more paths than a call takes arguments
 * (~120,000 in V8) made `git clean -d` fail with a bare RangeError instead of listing or removing them.
 * Tried: an untracked directory `u/` of 150,000 empty files plus one ignored file (`*.log`), `clean({ directories:
 * true, dryRun: true })`.
 * Found (low; 3 of 3 runs): `RangeError: Maximum call stack size exceeded`, no code.
 * Fixed: the paths are pushed one by one (both places in worktree.ts).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("clean -d -n lists every path of an untracked directory of 150,000 files holding an ignored one", { timeout: 120_000 }, async () => {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  await ws.fs.writeFile("/r/.gitignore", "*.log\n");
  await ws.fs.mkdir("/r/u/v", { recursive: true });
  await ws.fs.writeFile("/r/u/v/keep.log", "ignored");
  const n = 150_000;
  for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/u/v/f${i}`, "");
  const listed = await git.clean({ dir: "/r", directories: true, dryRun: true });
  expect(listed.length).toBe(n + 1);
  expect(listed[0]).toBe(".gitignore");
  expect(listed.slice(1).every((p) => /^u\/v\/f\d+$/.test(p))).toBe(true);
  expect(new Set(listed).size).toBe(n + 1);
  expect(listed).not.toContain("u/v/keep.log");
  expect((await ws.fs.readdir("/r/u/v")).length).toBe(n + 1);
});
