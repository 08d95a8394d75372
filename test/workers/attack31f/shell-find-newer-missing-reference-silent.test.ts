/**
 * Issue 20, thirty-first attack run: `find . -newer REF` with a REF that does not exist prints nothing and exits 0;
 * GNU find 4.9 refuses it before walking (`find: ‘nope’: No such file or directory`, status 1). A build step
 * `find src -newer .stamp` whose stamp is missing reads as "nothing changed".
 * Tried: side by side with GNU findutils 4.9 in a temp dir: `find . -newer nope; echo $?`,
 * `find . -newer nope -name x; echo $?`.
 * Held: -newer with an existing file, a missing start point (`find nope` → status 1 with a message).
 * Found (medium — a missing reference silently computes "no file is newer" with status 0; 2 of 2 runs).
 * Suggested fix: find's expression parser (the find chunk in scripts/gen-shell.mjs / src/backends/worker-shell/
 * isolate): stat the -newer (and -anewer/-cnewer) operand when the expression is built; if it is missing print
 * `find: ‘REF’: No such file or directory` and exit 1 without walking.
 * Fixed: find stats each -newer reference before walking (the link itself when it dangles, as GNU's -P) and fails
 * with `find: REF: <reason>`, status 1, when it cannot (a `// GS` patch in scripts/gen-shell.mjs; issue 20, run 31,
 * fixer GS). -anewer/-cnewer/-samefile/-newerXY are not supported and stay loud refusals (`unknown predicate`,
 * status 1; test/workers/fix31/grep-sed-find-gnu).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("find -newer a missing file fails with status 1", async () => {
  const out = await shellCases({ files: { "a.txt": "x\n" } }, ["find . -newer nope; echo $?", "find . -newer nope -name x; echo $?"]);
  // Was: [["find . -newer nope; echo $?", "0\n", ""], ["find . -newer nope -name x; echo $?", "0\n", ""]]
  // (the message in the shell's own wording, as `find nope` has it: `find: nope: No such file or directory`)
  expect(out.map(([c, o]) => [c, o])).toEqual([
    ["find . -newer nope; echo $?", "1\n"],
    ["find . -newer nope -name x; echo $?", "1\n"],
  ]);
  for (const [, , err] of out) expect(err).toMatch(/^find: .?nope.?: No such file or directory\n$/);
});
