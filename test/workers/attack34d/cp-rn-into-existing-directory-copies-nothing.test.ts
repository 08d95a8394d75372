/**
 * Issue 20, thirty-fourth attack run: the shell's `cp -rn` (copy recursively, never overwrite — the "merge without
 * clobbering" idiom) copies NOTHING when the destination directory already exists: `cp -rn a/. b` (b holding f)
 * and `cp -rn a c` (c/a holding f) leave out the new file `new` and the subtree `s/g`, `s/t/h`; status 0 and no
 * message, so the files are silently missing. GNU cp 9.1 merges: it creates the missing directories and copies every
 * file not already there (new, s/g, s/t/h), keeping the existing f. Into a fresh destination ours copies all.
 * Tried: cp -rn with `a/.` into an existing directory, `a` into a directory holding `a`, and `a` into a new one;
 * cp -r, cp -a, cp -rT of similar trees; differential: GNU cp on this machine.
 * Held: -n never overwrites an existing file (f keeps `2`); `cp -rn a c` into a new c copies the whole tree;
 * `cp -r a/. b` into an existing b and a repeated `cp -r a b` merge subdirectories, as GNU.
 * Found (medium — files lost from a copy the agent was told succeeded (data it then believes is in place); 2 of 2
 * runs): see the `Was:` line.
 * Suggested fix: the shell's cp (just-bash `name:"cp"` as patched in scripts/gen-shell.mjs, helpers in
 * src/backends/worker-shell/isolate/cp-mkdir-extra.ts): apply `-n` (no-clobber) only to a destination FILE that
 * exists; a source directory that exists at the destination is merged into — its entries walked with -n passed
 * down — not skipped as an existing name.
 *
 * Fixed: cp -n asks noClobberCopy (src/backends/worker-shell/isolate/cp-mkdir-extra.ts, patched in by scripts/gen-shell.mjs
 * CP_PATCHES) before its destination checks: an existing directory under a directory source is merged into, entry by
 * entry with -rn passed down; anything else there is skipped (issue 20, run 34, fixer CP). Siblings:
 * test/workers/fix34/chmod-cp-recursive.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("cp -rn merges into an existing directory, copying what is missing and overwriting nothing, as GNU cp", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(
      ws,
      "mkdir -p a/s/t b; echo 1 > a/f; echo 3 > a/s/g; echo 4 > a/s/t/h; echo 5 > a/new; echo 2 > b/f; " +
        "cp -rn a/. b; echo rc=$?; find b -type f | sort | xargs cat | tr '\\n' ' '; echo; mkdir -p c/a; echo 2 > c/a/f; cp -rn a c; echo rc=$?; find c -type f | sort | xargs cat | tr '\\n' ' '",
      { cwd: "/workspace" },
    );
    return [r.stdout, r.stderr];
  });
  // Was: ["rc=0\n2 \nrc=0\n2 ", ""]
  expect(out).toEqual(["rc=0\n2 5 3 4 \nrc=0\n2 5 3 4 ", ""]);
}, 60000);
