/**
 * Issue 20, twenty-second attack run: `sed -i.bak 's/…/…/' f` (also `-i~`, `-ibak`) edits f in place but makes NO
 * backup: the suffix is accepted and dropped, $? 0. The backup is exactly what a careful agent relies on to undo a
 * bad substitution — it is not there, and the original text is gone. `--in-place=.orig` is refused as an unknown
 * option.
 * Tried: side by side with GNU sed 4.9: `sed -i.bak`, `sed -i~`, `sed -ibak`, `sed --in-place=.orig`, `sed -i''`
 * (held), `sed -i -e … -e …` (held), `sed -i` over CRLF / no final newline (held), `sed -i` over files with a
 * missing one in the middle (a separate finding).
 * Held: in-place editing itself, CRLF and a missing final newline kept, a link's target edited.
 * Found (medium — the undo copy silently missing, $? 0; 2 of 2 runs): after `echo a > f; sed -i.bak 's/a/b/' f`,
 * `ls` shows only f (GNU: f and f.bak holding "a"); `-i~` and `-ibak` the same.
 * Suggested fix: in the sed in-place path (gen-shell patch), when -i carries a suffix (attached, or
 * --in-place=SUF), write the original bytes to <file><SUF> (a `*` in SUF replaced by the base name, as GNU) before
 * replacing the file; accept `--in-place[=SUF]`.
 * Fixed: sed -i SUFFIX / -iSUFFIX / --in-place=SUFFIX (and -ni.bak as getopt reads it) writes the original bytes,
 * with the original mode, to <file><SUFFIX> (a `*` is the operand as written, as GNU sed 4.9 does) before the edit;
 * a backup it cannot write is `sed: cannot rename f: …`, status 4, file untouched (gen-shell "sed -i suffix",
 * "sed -i files"; text-output.ts sedBackup). Siblings in test/workers/fix22/shell-text-output.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("sed -i SUFFIX keeps the original as file+SUFFIX, as GNU sed", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "echo a > f; echo a > g; sed -i.bak 's/a/b/' f; sed -i~ 's/a/b/' g; echo rc=$?; ls; cat f f.bak g g~", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=0\nf\nf.bak\ng\ng~\nb\na\nb\na\n", stderr: "" });
});
