/**
 * Issue 20, twenty-eighth attack run: `rm LINK` (and `rm -f LINK`) of a symbolic link that leads to a directory
 * refuses with `rm: cannot remove 'LINK': Is a directory`, `$?` 1, and keeps the link; GNU rm never follows the
 * operand (it lstat()s it) and removes the link, leaving the directory it names alone. The usual
 * `rm -f current && ln -s release-2 current` stops at the rm (or, with `;`, makes `current/release-2` inside the
 * old release), and a clean-up of a link such as `rm node_modules` / `rm build` under `set -e` aborts the script.
 * Tried: side by side with GNU coreutils 9.1 in a temp dir — `rm l`, `rm -f l`, `rm -r l`, `rm -rf l`, `rm -r l/`
 * with l → a directory (empty, with files, a read-only mount), `rm l` with l → a file.
 * Held: `rm -r l` / `rm -rf l` remove only the link (the directory's files kept); `rm l` of a link to a file; a
 * read-only mount behind the link is never touched.
 * Found (medium — a common `rm link` / `rm -f link` fails with a wrong reason and exit 1 and the link stays, so
 * the `ln -s` after it lands inside the directory; 2 of 2 runs).
 * Suggested fix: in just-bash's rm (patched by scripts/gen-shell.mjs, the `rm (operand ending in . or ..)` patch
 * matches the code) decide "Is a directory" from `lstat` of the operand, not `stat`: a link is removed with
 * `fs.rm(path)` whatever it leads to (an operand in directory form `l/` still goes through the link, as GNU).
 * Fixed: scripts/gen-shell.mjs (RL_PATCHES) makes just-bash's rm decide `Is a directory` from lstat of the operand
 * (src/backends/worker-shell/isolate/rm-links.ts refusalStat; `l/` still follows the link), so a link is removed with
 * fs.rm whatever it leads to. Siblings as GNU rm 9.1: `rm -d`/`--dir`, `rm -r l/` empties the directory and keeps the
 * link (`Not a directory`; silent with -f), a dangling `l/` is `Not a directory`; mkdir's refusals in strerror words.
 * Sibling tests: test/workers/fix28/rm-links.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["release-1"], files: { "release-1/app.js": "v1\n" }, links: { current: "release-1" } };

it("rm and rm -f of a link to a directory remove the link and keep the directory, as GNU rm", async () => {
  const out = await shellCases(TREE, ["rm current; echo rc=$?; ls", "rm -f current && ln -s release-2 current; echo rc=$?; ls; ls release-1"], {
    collect: (_ws, command, r) => [command, r.stdout, r.stderr],
  });
  expect(out).toEqual([
    // Was: "rc=1\ncurrent\nrelease-1\n", stderr "rm: cannot remove 'current': Is a directory\n".
    ["rm current; echo rc=$?; ls", "rc=0\nrelease-1\n", ""],
    // Was: "rc=1\ncurrent\nrelease-1\napp.js\n", stderr "rm: cannot remove 'current': Is a directory\n".
    ["rm -f current && ln -s release-2 current; echo rc=$?; ls; ls release-1", "rc=0\ncurrent\nrelease-1\napp.js\n", ""],
  ]);
});
