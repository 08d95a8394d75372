/**
 * Issue 20, twenty-fourth attack run (scout of fixes): after 3aca56d (an escape writes its byte; the shell's text is
 * UTF-8 with surrogate escapes), the `read`, `mapfile` and `readarray` builtins still take their stdin as just-bash's
 * byte string (one char per byte) and never decode it, so every line they read is Latin-1 text.
 * Tried: `echo é | while read l; do echo "$l"; done`, `read x <<< é; echo ${#x}`, `mapfile -t a < f`, a list of names
 *   read back with `while read f; do cat "$f"; done < list`, and a Latin-1 byte (`printf 'caf\xe9\nz\n' | while read`),
 *   against bash 5.2.15 (C.UTF-8).
 * Held: `$(<f)`, `$(cat f)`, `x=$(printf …)`, `read -u 3`, `read -n 1` keep the text; sed/awk/cat keep bytes.
 * Found (high: the idiomatic `while read` loop corrupts every non-ASCII line and name): valid UTF-8 comes out double
 *   encoded (é → c3 83 c2 a9, `${#x}` 2, `[[ $x == é ]]` false, `cat "$f"` of a name read from a list says No such
 *   file), and a byte that is not UTF-8 becomes its Latin-1 character (e9 → c3 a9) instead of staying one byte.
 *   Also before 3aca56d (f4b71cc), but docs/runtime.md now says "Valid UTF-8 is read and written unchanged".
 * Suggested fix: decode the builtin's stdin (handleRead / mapfile's input, the group stdin and here-strings) with the
 *   same surrogateescape codec just-bash's patched stdin decoder uses (src/util/utf8-escape.ts utf8EscapeDecode of the
 *   byte string), so the variable holds the text and a non-UTF-8 byte its escape U+DC80+byte.
 * Fixed (fixer SR): src/backends/worker-shell/isolate/read-input.ts, called from just-bash's read and mapfile through
 *   SOURCE_PATCHES in scripts/gen-shell.mjs (entries "… (SR)"): read scans its stdin (pipe, redirect, here-string,
 *   here-document, a group's or loop's stdin) one UTF-8 character at a time — a byte that is not UTF-8 is its escape —
 *   and leaves the rest in bytes for the next reader; -n/-N count characters, -d takes the delimiter's first character;
 *   mapfile/readarray decode their input the same way. An open descriptor's input (-u N, <&N) is text already and is
 *   read as it is. Siblings in test/workers/fix24/shell-decoding.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace } from "../shell/helpers.js";

it("read/mapfile/readarray keep UTF-8 text and raw bytes as bash 5.2 does", async () => {
  const source = [
    "echo é | while read l; do echo \"$l\"; done | od -An -tx1",
    "read x <<< é; echo ${#x}; [[ $x == é ]] && echo same",
    "printf 'é\\nü\\n' > f; mapfile -t a < f; printf '%s|' \"${a[@]}\" | od -An -tx1",
    "touch é.txt; ls *.txt > list; while read -r n; do cat \"$n\" && echo found \"$n\"; done < list",
    "printf 'caf\\xe9\\nz\\n' | while read -r l; do echo \"$l\"; done | od -An -tx1",
    "printf 'caf\\xe9\\nz\\n' > g; readarray a < g; printf '%s' \"${a[0]}\" | od -An -tx1",
  ].join("; ");
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    return (await ws.runtime.exec(source, { cwd: "/workspace" })).result();
  });
  // bash 5.2.15, LC_ALL=C.UTF-8, the same source in an empty directory.
  expect({ exitCode: r.exitCode, stdout: new TextDecoder().decode(r.stdout as Uint8Array), stderr: new TextDecoder().decode(r.stderr as Uint8Array) }).toEqual({
    exitCode: 0,
    stdout: " c3 a9 0a\n1\nsame\n c3 a9 7c c3 bc 7c\nfound é.txt\n 63 61 66 e9 0a 7a 0a\n 63 61 66 e9 0a\n",
    stderr: "",
  });
});
