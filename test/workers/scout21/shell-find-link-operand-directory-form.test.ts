/**
 * Issue 20, twenty-first attack run (scout of fixes): `find ld/` (a link to a directory, written with a slash) does
 * not descend.
 * Tried: 685e323 (a link operand is the link itself in ln, mv, cp -r, find -type, stat, ls — GNU without -L) and
 * its sibling rule for operands in directory form: with a trailing `/` GNU resolves the link (`stat ld/`, `ls ld/`
 * are the directory). Compared with GNU findutils 4.9 / coreutils 9.1 on this machine over the same tree
 * (`d/f.txt`, `d/sub/`, `ld -> d`).
 * Held: `stat -c %F ld/` (directory), `ls -ld ld/`, `ls ld/`, `find ld -type l` (ld), `find ld -maxdepth 0 -type d`
 * (nothing) answer as GNU; `find ld/.` descends.
 * Found (medium — a search silently finds nothing; deterministic; the same at 0dd7643, so left unfixed rather than
 * a regression): `find ld/ -name '*.txt'` prints nothing (GNU: `ld/f.txt`); `find ld/` prints `ld` only (GNU:
 * `ld/`, `ld/f.txt`, `ld/sub`); `find ld/ -maxdepth 0 -type d` prints nothing (GNU: `ld/`). A model that writes
 * `find src/ -name …` where src is a link gets an empty answer and concludes there is no such file.
 * Suggested fix: in find's start-point handling (the gen-shell find patches / link-operands.ts), take a start path
 * in directory form (`directoryForm(path) !== null`) by stat (following the link), print it as written (`ld/`), and
 * walk below it; only a start without the trailing slash is the link itself.
 * Fixed (fixer S2): gen-shell's find patches (SOURCE_PATCHES "find start point…") call
 * src/backends/worker-shell/isolate/walk-operands.ts: find no longer drops a start point's trailing `/`; one in
 * directory form is stat'ed (the link followed) and walked, printed as written, children joined as GNU's fts
 * (`ld/f.txt`, `d//f.txt`), `-name` sees `ld`, `%P` is the path below it, a bad start point names its reason. The
 * siblings — du and grep -r start points — are fixed alongside (test/workers/fix21/shell-walk-operands.test.ts).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("find ld/ walks the directory the link names, as GNU find", async () => {
  const out = await shellCases({ dirs: ["d/sub"], files: { "d/f.txt": "keep\n" }, links: { ld: "d" } }, ["find ld/ | sort", "find ld/ -name '*.txt'", "find ld/ -maxdepth 0 -type d"], {
    wrap: (command) => `(${command}) 2>&1; echo rc=$?`,
    collect: (_ws, _command, r) => r.stdout,
  });
  // Found: ["ld\nrc=0\n", "rc=0\n", "rc=0\n"]. Expected: GNU find 4.9's output for the same tree.
  expect(out).toEqual(["ld/\nld/f.txt\nld/sub\nrc=0\n", "ld/f.txt\nrc=0\n", "ld/\nrc=0\n"]);
}, 60_000);
