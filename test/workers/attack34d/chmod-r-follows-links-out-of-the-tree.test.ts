/**
 * Issue 20, thirty-fourth attack run: the shell's `chmod -R` follows a symbolic link it meets INSIDE the tree and
 * changes the mode of the link's target, wherever it is: with `d/run -> ../s/run.sh` (a 0755 script outside d),
 * `chmod -R 644 d` leaves `s/run.sh` 0644 — its execute bits gone — and `chmod -R a-w d` with `d/ls -> ../s` makes
 * the outside directory `s` 0555. GNU chmod 9.1 (`-P` by default for links met during the walk) never touches a
 * link's target there: `s/run.sh` stays 0755, `s` 0755. Conversely, for a link named on the command line GNU follows
 * it and recurses (`chmod -R 700 ls` with `ls -> s` makes `s` and `s/f` 0700); ours changes `s` and stops (s/f 0644).
 * Tried: chmod -R with numeric and symbolic modes over trees holding links to files and directories outside, and a
 * link operand; cp -a/-r, tar c/x, mv and rm -r of a tree with a dangling link; differential: GNU chmod on this
 * machine.
 * Held: the link itself is left alone; rm -rf of a tree with a link to outside removes only the link; cp -a, tar and
 * mv of a tree with a dangling link keep it as a link.
 * Found (medium — a recursive chmod of the agent's own directory silently rewrites modes outside it: a shared
 * script loses its execute bit (and git reports a mode change the agent never made); 2 of 2 runs): see `Was:`.
 * Suggested fix: the shell's chmod -R walk (just-bash `name:"chmod"` as patched in scripts/gen-shell.mjs; the walk
 * helpers in src/backends/worker-shell/isolate/deep-walks.ts / link-operands.ts): lstat each entry met in the walk
 * and skip a link (GNU -P), and for an operand that is a link to a directory, recurse into its target.
 *
 * Fixed: the chmod -R walk (scripts/gen-shell.mjs CP_PATCHES, helpers in src/backends/worker-shell/isolate/chmod-walk.ts)
 * skips a link it meets and walks a link operand's target (`followRoot`); -v names and words each file as GNU chmod
 * 9.1 (issue 20, run 34, fixer CP). Siblings: test/workers/fix34/chmod-cp-recursive.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("chmod -R leaves the targets of links inside the tree alone and recurses through a link operand, as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(
      ws,
      [
        "mkdir s d; printf '#!/bin/sh\\n' > s/run.sh; chmod 755 s/run.sh; ln -s ../s/run.sh d/run; echo x > d/a",
        "ln -s ../s d/ls; chmod -R 644 d; chmod -R a-w d; echo rc=$?",
        "mkdir u; echo x > u/f; ln -s u lu; chmod -R 700 lu",
        "stat -c '%a %n' s s/run.sh d d/a u u/f",
      ].join("\n"),
      { cwd: "/workspace" },
    );
    return [r.stdout, r.stderr];
  });
  // Was: ["rc=0\n555 s\n555 s/run.sh\n444 d\n444 d/a\n700 u\n644 u/f\n", ""]
  expect(out).toEqual(["rc=0\n755 s\n755 s/run.sh\n444 d\n444 d/a\n700 u\n700 u/f\n", ""]);
}, 60000);
