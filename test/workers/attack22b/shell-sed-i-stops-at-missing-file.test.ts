/**
 * Issue 20, twenty-second attack run: `sed -i EXPR f missing g` edits f, reports the missing file and then STOPS:
 * g is left unedited and $? is 1. GNU sed reports `sed: can't read missing: No such file or directory`, goes on
 * with g, and exits 2 — so a batch edit over a glob or a file list with one stale name ends half-applied here, and
 * the exit status (1, "no match" for grep-like tools) does not say that input was missing.
 * Tried: side by side with GNU sed 4.9: `sed -i 's/a/b/' f nope g`; `sed -i 's/a/b/' f d g` with d a directory (held:
 * GNU also stops there, `couldn't edit d: not a regular file`, exit 4 — here exit 1 and "No such file or
 * directory", wording only).
 * Held: the single-file and all-present cases.
 * Found (low-medium — a multi-file edit silently partial; 2 of 2 runs): cat f g → `b` `a` and rc=1 (GNU `b` `b`,
 * rc=2).
 * Suggested fix: in sed's file loop, on ENOENT print GNU's "can't read" line, remember exit 2 and continue with
 * the next file.
 * Fixed: sed (with or without -i) says `sed: can't read f: <reason>`, goes on and exits 2; a directory stops it with
 * status 4 (`couldn't edit d: not a regular file` / `read error on d: Is a directory`) (gen-shell "sed -i files",
 * "sed input files"; text-output.ts sedReadFailure). Siblings in test/workers/fix22/shell-text-output.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("sed -i goes on past a missing file and exits 2, as GNU sed", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "echo a > f; echo a > g; sed -i 's/a/b/' f nope g; echo rc=$?; cat f g", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=2\nb\nb\n", stderr: "sed: can't read nope: No such file or directory\n" });
});
