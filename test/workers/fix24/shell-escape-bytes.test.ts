/**
 * Issue 20, twenty-fourth attack run (lead's finding, fixer SP): bytes written by escapes.
 *
 * Tried: `printf '\xc0\x3f' | od -c`, `printf '\300'`, `printf '%b' '\xc0'`, `echo -e '\xc0'`, `printf '\xc0' > f`,
 *   and the way agents make binary files: `printf '\x89PNG\r\n\x1a\n' > a.png`.
 * Held: valid UTF-8 written by `\x` escapes (`printf '\xc3\xa9'` is é and `grep é` matches it in a pipe;
 *   `printf '\xef\xbb\xbf'` keeps the BOM — run 22).
 * Found: a byte >= 0x80 that did not form valid UTF-8 was written as the UTF-8 encoding of the Latin-1 character of
 *   the same number: `printf '\xc0\x3f' | od -c` gave `303 200   ?` (bash 5.2: `300   ?`), `printf '\xc0' > f` made a
 *   2-byte file, a.png started `c2 89` (medium: the bytes on disk are wrong). Octal escapes were characters even when
 *   they formed UTF-8 (`printf '\303\251' | grep é` found nothing).
 * Suggested fix: an escape's byte >= 0x80 is its surrogate escape U+DC00 + byte (the shell's surrogateescape text,
 *   src/util/utf8-escape.ts), and runs of such bytes that form valid UTF-8 are decoded to their characters.
 * Fixed: src/backends/worker-shell/isolate/escapes.ts (byteChar, bytesText, joinBytes), called from just-bash's
 *   escape processors through SOURCE_PATCHES in scripts/gen-shell.mjs (entries "escape bytes: … (SP)"): printf's
 *   format `\xH[H]`/`\NNN` (also find -printf's), printf `%b`'s `\xHH`/`\0NNN`/`\NNN`, `echo -e`, `$'…'` and awk
 *   string literals write one byte per escape (the low 8 bits: `\777` is ff); printf's whole output, echo -e's,
 *   a `$'…'` word and an awk string join runs of bytes that form UTF-8 (`\303\251`, `\xc3%s\xa9` are é). Also as
 *   bash: printf's format takes one hex digit (`\xc` is \f) and `$'\xcg'` keeps the `g`.
 *
 * Every expected stdout is what bash 5.2.15 (its printf and echo builtins), GNU findutils 4.9 and coreutils 9.1 od
 * printed for the same command on Linux (awk: mawk and gawk write the same bytes).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, shellCases } from "../shell/helpers.js";
import { createGitClient } from "../../../src/git/index.js";

const TREE = { files: { a: "" } };

it("the finding: a byte that forms no UTF-8 is that one byte (printf \\x and \\NNN, %b, echo -e, a redirect)", async () => {
  const expected: [string, string, string][] = [
    ["printf '\\xc0\\x3f' | od -c", "0000000 300   ?\n0000002\n", ""],
    ["printf '\\300' | od -c", "0000000 300\n0000001\n", ""],
    ["printf '%b' '\\xc0' | od -c", "0000000 300\n0000001\n", ""],
    ["echo -e '\\xc0' | od -c", "0000000 300  \\n\n0000002\n", ""],
    ["printf '\\xc0' > f; wc -c < f", "1\n", ""],
    ["printf '\\x89PNG\\r\\n\\x1a\\n' | od -c", "0000000 211   P   N   G  \\r  \\n 032  \\n\n0000010\n", ""],
    ["printf '\\xff\\xfe' | od -An -tx1", " ff fe\n", ""],
    ["printf '\\xc3' | od -An -tx1", " c3\n", ""],
    ["printf '\\xc3\\xa9\\xc0' | od -An -tx1", " c3 a9 c0\n", ""],
    ["printf '\\xe9t\\xe9\\n' | od -An -tx1", " e9 74 e9 0a\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("valid UTF-8 written byte by byte is its characters (\\x, octal, mixed, across %s), and a BOM stays", async () => {
  const expected: [string, string, string][] = [
    ["printf '\\xc3\\xa9' | grep é", "é\n", ""],
    ["printf '\\303\\251' | grep é", "é\n", ""],
    ["printf '\\xc3\\251\\n'", "é\n", ""],
    ["printf '\\xc3%s\\xa9\\n' ''", "é\n", ""],
    ["printf '%b' '\\0303\\0251\\n'", "é\n", ""],
    ["echo -e '\\0303\\0251'", "é\n", ""],
    ["echo $'\\xc3\\xa9' $'\\303\\251' $'\\u00e9'", "é é é\n", ""],
    ["printf '\\xef\\xbb\\xbf' | od -c", "0000000 357 273 277\n0000003\n", ""],
    ["printf '\\xf0\\x9f\\x98\\x80' | od -An -tx1", " f0 9f 98 80\n", ""],
    ["printf '\\u00e9\\n' | od -An -tx1", " c3 a9 0a\n", ""],
    ["x=$(printf '\\xc3%s\\xa9' ''); [[ $x == é ]] && echo same; echo ${#x}", "same\n1\n", ""],
    ["printf -v v '\\xc3\\xa9'; echo ${#v}; printf -v w '\\xc0'; echo ${#w}", "1\n1\n", ""],
    ["printf '%s' $'\\xc3' $'\\xa9' | od -An -c", " 303 251\n", ""],
    ["printf '\\xc3\\xa9%s' '\\xc3' | od -An -c", " 303 251   \\   x   c   3\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("siblings: octal's low 8 bits, one hex digit, $'…', find -printf, awk strings, a variable, pipes, sed, and a byte as a grep/sed/tr pattern", async () => {
  const expected: [string, string, string][] = [
    ["printf '\\777' | od -An -tx1", " ff\n", ""],
    ["printf '\\0101' | od -An -c", "  \\b   1\n", ""],
    ["printf '%b' '\\0777' | od -An -tx1; printf '%b' '\\777' | od -An -tx1", " ff\n ff\n", ""],
    ["echo -e '\\0777' | od -An -tx1", " ff 0a\n", ""],
    ["echo $'\\777' | od -An -tx1", " ff 0a\n", ""],
    ["echo $'\\xc0' | od -c; echo $'\\300' | od -c", "0000000 300  \\n\n0000002\n0000000 300  \\n\n0000002\n", ""],
    ["printf '\\xc' | od -c; printf '\\xcg' | od -c; printf '%b' '\\xc' | od -c", "0000000  \\f\n0000001\n0000000  \\f   g\n0000002\n0000000  \\f\n0000001\n", ""],
    ["echo $'\\xcg' | od -An -c; echo $'\\x' | od -An -c", "  \\f   g  \\n\n   \\   x  \\n\n", ""],
    ["find a -printf '\\300\\n' | od -An -tx1; find a -printf '\\303\\251\\n'", " c0 0a\né\n", ""],
    ["awk 'BEGIN{printf \"\\xc0\"}' | od -c; awk 'BEGIN{printf \"\\xc0\\x3f\"}' | od -c", "0000000 300\n0000001\n0000000 300   ?\n0000002\n", ""],
    ["awk 'BEGIN{printf \"\\303\\251\\n\"}'; awk 'BEGIN{printf \"%s|\", \"\\xc3\\xa9\"}' | od -An -tx1", "é\n c3 a9 7c\n", ""],
    ["x=$'\\xc0'; printf '%s' \"$x\" | od -An -tx1; y=$(printf '\\xe9'); echo ${#y}", " c0\n1\n", ""],
    ["printf 'a\\x00b' | od -An -c", "   a  \\0   b\n", ""],
    ["printf 'caf\\xe9\\n' > f; grep -c $'\\xe9' f; sed -n \"s/$(printf '\\xe9')/E/p\" f; tr $'\\xe9' E < f", "1\ncafE\ncafE\n", ""],
    ["printf '\\xc0\\n' | cat | od -An -tx1; printf 'x\\xc0y\\n' | sed 's/x/z/' | od -An -tx1; printf 'x\\xc0y\\n' | grep -c y", " c0 0a\n 7a c0 79 0a\n1\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("the bytes land in files (redirects of printf, %b, echo -ne, $'…', awk) and in the run's stdout (printf's, sed's of a Latin-1 file)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const source = [
      "printf '\\x89PNG\\r\\n\\x1a\\n' > a.png",
      "printf '\\300\\x3f' > b",
      "printf '%b' '\\xff\\xfe' > c",
      "echo -ne '\\xff\\xd8\\xff' > d",
      "x=$'\\xc0\\303\\251'; printf '%s' \"$x\" > e",
      "awk 'BEGIN{printf \"\\xff\\x80\"}' > f",
      "printf '\\xef\\xbb\\xbf\\xc3\\xa9' > g",
      "printf '\\xff\\xc0A'",
      "printf 'x\\300y\\n' > l; sed -n p l",
    ].join("; ");
    const r = await (await ws.runtime.exec(source, { cwd: "/workspace" })).result();
    const files: Record<string, number[]> = {};
    for (const name of ["a.png", "b", "c", "d", "e", "f", "g"]) files[name] = [...new Uint8Array(await new Response(await ws.fs.readFile(`/workspace/${name}`)).arrayBuffer())];
    return { exitCode: r.exitCode, stdout: [...(r.stdout as Uint8Array)], stderr: [...(r.stderr as Uint8Array)], files };
  });
  expect(out).toEqual({
    exitCode: 0,
    stdout: [0xff, 0xc0, 0x41, 0x78, 0xc0, 0x79, 0x0a],
    stderr: [],
    files: {
      "a.png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      b: [0xc0, 0x3f],
      c: [0xff, 0xfe],
      d: [0xff, 0xd8, 0xff],
      e: [0xc0, 0xc3, 0xa9],
      f: [0xff, 0x80],
      g: [0xef, 0xbb, 0xbf, 0xc3, 0xa9],
    },
  });
});

it("git gets the bytes: printf 'h\\303\\251llo\\n' | git hash-object --stdin is real git's id", async () => {
  const r = await inShellWorkspace(
    async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      const run = await ws.runtime.exec("git init >/dev/null; printf 'h\\303\\251llo\\n' | git hash-object --stdin; printf '\\xff\\xc0A' | git hash-object --stdin", { cwd: "/workspace/r", encoding: "utf8" });
      return run.result();
    },
    { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } },
  );
  // git 2.39.5: printf 'h\303\251llo\n' | git hash-object --stdin; printf '\xff\xc0A' | git hash-object --stdin
  expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "5fb50d3c93474f139362304b663fe44e9d17a26e\n52f7e8ab1560d05368ed0d21b42a6cbcf77bf19a\n", ""]);
});
