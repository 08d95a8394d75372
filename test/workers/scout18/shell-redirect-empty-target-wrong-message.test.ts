/**
 * Issue 20, scout after the eighteenth attack run: a redirect to an empty
 * target prints the wrong strerror.
 *
 * Tried: `x=; echo a > "$x"` and `echo a > ""` in the shell backend after
 * 30a2e58 (failed redirects print `bash: <path>: <strerror>`), against real
 * bash 5.
 *
 * Found (low — a wrong message, exit status right): the shell prints
 * `bash: : Is a directory` (the empty path resolved to the cwd, a
 * directory); bash prints `bash: : No such file or directory` (open("")
 * is ENOENT). `$?` is 1 in both. (Unquoted `> $x` is bash's
 * `bash: $x: ambiguous redirect`; not asserted here.)
 *
 * Fixed: scripts/gen-shell.mjs patches just-bash's redirect open to refuse an empty target (No such file or directory)
 * and one ending in / (Is a directory) before anything is opened (redirect-failure.ts redirectTargetError).
 * Suggested fix: an empty redirect target fails ENOENT before the path is
 * resolved against the cwd (just-bash openRedirectTarget / the adapter),
 * so redirectFailure prints `No such file or directory`.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("echo a > \"\" is `bash: : No such file or directory`, $? 1 (bash)", async () => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.ready();
    const r = await sh(ws, 'x=; echo a > "$x"; echo rc=$?\necho b > ""; echo rc=$?', { cwd: "/workspace" });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  });
  // Probe (this checkout): stderr "bash: : Is a directory\n" twice.
  expect(r).toEqual({ exitCode: 0, stdout: "rc=1\nrc=1\n", stderr: "bash: : No such file or directory\nbash: : No such file or directory\n" });
}, 60_000);
