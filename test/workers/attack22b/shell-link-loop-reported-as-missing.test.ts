/**
 * Issue 20, twenty-second attack run: a symbolic-link loop (`ln -s loop loop`, or a -> b -> a) is reported as
 * "No such file or directory" by cat, ls, stat -L, cd, head and grep; GNU (and bash's cd) say "Too many levels of
 * symbolic links" (ELOOP). The Workspace itself answers ELOOP (ws.fs and the provider, as node:fs) and wc — fixed
 * in run 21 through readFailureReason — already prints the right reason; the others map every failure to ENOENT,
 * so an agent looks for a missing file instead of a broken link.
 * Tried: side by side with GNU coreutils 9.1 / grep 3.8 / bash 5.2: `cat loop`, `ls loop/`, `stat -L a`, `cd loop`,
 * `[ -e loop ]`, `wc -c a`, `head -1 a`, `grep x a`; `echo x > loop`, `touch loop`, `mkdir -p loop/x` (EEXIST/ELOOP
 * held), `readlink -f loop` (prints a path, exit 0; GNU exit 1).
 * Held: exit statuses (1/2 as GNU), `[ -e loop ]` false, wc's reason, touch/redirect/mkdir naming ELOOP.
 * Found (low — wrong reason in the message; 2 of 2 runs): six commands end their line with "No such file or
 * directory" where GNU ends it with "Too many levels of symbolic links".
 * Suggested fix: route cat/ls/stat/cd/head/grep's "cannot open" messages through isolate/coreutils.ts
 * readFailureReason (strerror of the error's code), as run 21 did for wc/tac/od.
 * Fixed: gen-shell patches give the error's strerror (path-errors.ts reason) in cat, ls (operand and directory
 * paths), stat, head/tail, grep (file and -r), cd, pushd and an input redirection `<`, keeping just-bash's line
 * shapes; chmod through chmodFailure. Siblings (`<`, pushd, tail, chmod): test/workers/fix22/shell-sh1-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("commands name a link loop ELOOP (Too many levels of symbolic links), as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "ln -s loop loop; ln -s b a; ln -s a b; cat loop; ls loop/; stat -L a; cd loop; wc -c a; head -1 a; grep x a", { cwd: "/workspace" });
    return r.stderr
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.slice(line.lastIndexOf(": ") + 2));
  });
  expect(out).toEqual(Array(7).fill("Too many levels of symbolic links"));
});
