/**
 * Issue 20, twentieth attack run: `ln -sf <target> d/.` or `ln -sf <target> link/` (the link name in directory form)
 * REMOVES the directory d (or the link) and then fails, where GNU ln makes the new link inside the directory.
 * Tried: /workspace/w holding an empty directory e and link -> e, /workspace/keep: `ln -sf /workspace/keep e/.`,
 * `ln -sf /workspace/keep link/`, `ln -sfn /workspace/keep link/`, `ln -sf /workspace/keep ''`; side by side with
 * GNU coreutils 9.1.
 * Held: `ln -sf /workspace/keep ''` removes nothing (`ln: cannot remove '': Permission denied`, where GNU says
 * `No such file or directory`).
 * Found (low–medium — a directory or link the command was not asked to remove is gone, and no link is made):
 * `ln -sf /workspace/keep e/.` removes e, then `ln: ENOENT: no such file or directory, symlink '/workspace/w/e/.'`,
 * `$?` 1; `ln -sfn /workspace/keep link/` removes link the same way (2 of 2 runs). GNU: e/keep is created (a
 * link to /workspace/keep), `$?` 0, e and link stay. just-bash's ln -f removes the link path before symlink, and the
 * adapter's rm accepts `e/.` (a directory) and removes e; its symlink then refuses the directory form (1f24350).
 * Suggested fix: a link name in directory form names a directory to create the link in (as a trailing `/` does for
 * cp and mv): `<dir>/<basename of target>`; at least never rm a path in directory form for ln -f (a gen-shell
 * patch, or the adapter's rm refusing a path ending in `/.` as for shell-rm-dot-removes-directory.test.ts).
 * Fixed: a gen-shell patch of just-bash's ln takes a link name ending in `/`, `.` or `..` as the directory to make the
 *   link in (`<name>/<last segment of target>`, GNU); the adapter's rm refuses a path ending in `/.` in any case.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("ln -sf target e/. makes e/keep and removes nothing (GNU ln)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/w/e", { recursive: true });
    await ws.fs.symlink("e", "/workspace/w/link");
    await ws.fs.writeFile("/workspace/keep", "keep\n");
    const r = await sh(ws, "ln -sf /workspace/keep e/.; echo rc=$?; find /workspace/w | sort | tr '\\n' ' '; readlink e/keep", { cwd: "/workspace/w" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=0\n/workspace/w /workspace/w/e /workspace/w/e/keep /workspace/w/link /workspace/keep\n", stderr: "" });
});
