/**
 * Issue 20, thirty-first run, fixer GS: siblings of attack31f's grep -ow, grep context separator, sed `$a\` and
 * find -newer findings, each output checked against GNU grep 3.8, sed 4.9 and findutils 4.9 in a temp dir.
 * - grep -w with -o through -i, -E, -F, -b: every match of a line whole (the later ones were cut by a character);
 * - grep context groups of different files are separated by `--` with -A/-B/-C, -m, -o, -A0, a file without
 *   matches between, -r; never with -c/-l;
 * - grep -P: lookbehind/lookahead, back-references (`\1`, `\k<n>`), `\K`, -i, -x, -w as GNU's `(?<!\w)…(?!\w)`;
 *   PCRE escapes (`\h`); a single pattern only; what neither JavaScript nor RE2 has (possessive `a++`) and PCRE2's
 *   own refusals (`\u`) fail with status 2 and a message;
 * - sed: a queued `a`/`r` text ends a last line that had no newline with one first (`$a\`, `$r empty`, `$r nope`),
 *   `r`/`R` write the file's text as it is (no newline added to a last line without one), `-n`, `$i\`, `$c\`;
 * - find: `-newer REF` with REF missing fails before walking; the unsupported `-anewer`/`-cnewer`/`-samefile`/
 *   `-newerXY` fail loudly (status 1), never walking silently.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const withStatus = { collect: (_ws: unknown, c: string, r: { stdout: string; stderr: string; exitCode: number }) => [c, r.stdout, r.stderr, r.exitCode] as const };

it("grep -ow prints every match whole through -i, -E, -F, -b", async () => {
  const out = await shellCases({ files: { "a.txt": "foo bar foo\nbaz\nfoo\nfoobar\nbar foo baz foo\n" } }, [
    "grep -owi FOO a.txt",
    "grep -owE 'fo+|ba[rz]' a.txt",
    "grep -owF foo a.txt",
    "grep -owb foo a.txt",
    "grep -cw foo a.txt",
  ]);
  expect(out).toEqual([
    ["grep -owi FOO a.txt", "foo\nfoo\nfoo\nfoo\nfoo\n", ""],
    ["grep -owE 'fo+|ba[rz]' a.txt", "foo\nbar\nfoo\nbaz\nfoo\nbar\nfoo\nbaz\nfoo\n", ""],
    ["grep -owF foo a.txt", "foo\nfoo\nfoo\nfoo\nfoo\n", ""],
    ["grep -owb foo a.txt", "0:foo\n8:foo\n16:foo\n31:foo\n39:foo\n", ""],
    ["grep -cw foo a.txt", "3\n", ""],
  ]);
});

it("grep separates the context groups of different files with --", async () => {
  const out = await shellCases({ dirs: ["src"], files: { "src/x.txt": "a TODO\nb\nc\n", "src/y.txt": "TODO\nz\n", n: "q\n" } }, [
    "grep -c -A1 TODO src/x.txt src/y.txt",
    "grep -l -A1 TODO src/x.txt src/y.txt",
    "grep -m1 -A1 TODO src/x.txt src/y.txt",
    "grep -o -A1 TODO src/x.txt src/y.txt",
    "grep -A1 TODO src/x.txt n src/y.txt",
    "grep -A0 TODO src/x.txt src/y.txt",
    "grep -B1 TODO n src/x.txt",
    "grep -C1 -v TODO src/x.txt src/y.txt",
    "grep TODO src/x.txt src/y.txt",
  ]);
  expect(out).toEqual([
    ["grep -c -A1 TODO src/x.txt src/y.txt", "src/x.txt:1\nsrc/y.txt:1\n", ""],
    ["grep -l -A1 TODO src/x.txt src/y.txt", "src/x.txt\nsrc/y.txt\n", ""],
    ["grep -m1 -A1 TODO src/x.txt src/y.txt", "src/x.txt:a TODO\nsrc/x.txt-b\n--\nsrc/y.txt:TODO\nsrc/y.txt-z\n", ""],
    ["grep -o -A1 TODO src/x.txt src/y.txt", "src/x.txt:TODO\n--\nsrc/y.txt:TODO\n", ""],
    ["grep -A1 TODO src/x.txt n src/y.txt", "src/x.txt:a TODO\nsrc/x.txt-b\n--\nsrc/y.txt:TODO\nsrc/y.txt-z\n", ""],
    ["grep -A0 TODO src/x.txt src/y.txt", "src/x.txt:a TODO\n--\nsrc/y.txt:TODO\n", ""],
    ["grep -B1 TODO n src/x.txt", "src/x.txt:a TODO\n", ""],
    ["grep -C1 -v TODO src/x.txt src/y.txt", "src/x.txt-a TODO\nsrc/x.txt:b\nsrc/x.txt:c\n--\nsrc/y.txt-TODO\nsrc/y.txt:z\n", ""],
    ["grep TODO src/x.txt src/y.txt", "src/x.txt:a TODO\nsrc/y.txt:TODO\n", ""],
  ]);
});

it("grep -z ends the group separator with a newline", async () => {
  const out = await shellCases({}, ["printf 'a\\0b\\0c\\0' | grep -z -A0 -e a -e c | od -c"]);
  expect(out).toEqual([["printf 'a\\0b\\0c\\0' | grep -z -A0 -e a -e c | od -c", "0000000   a  \\0   -   -  \\n   c  \\0\n0000007\n", ""]]);
});

it("grep -P runs lookarounds and back-references as GNU grep's PCRE2", async () => {
  const out = await shellCases({ files: { x: "x=abc y=12\nfoo x=q\n@foo bar\nabab\n" } }, [
    "grep -oP '(?<=x=)\\w+' x",
    "grep -oP '\\w+(?=\\s)' x",
    "grep -oP '(?<=x=)\\w+(?= )' x",
    "grep -cP '(?<!x)=\\d' x",
    "grep -oP '(ab)\\1' x",
    "grep -oP '(?<n>a)b\\k<n>' x",
    "grep -oP 'x=\\K\\w+' x",
    "grep -oPi '(?<=X=)[A-Z]+' x",
    "grep -xP '(?=a)abab' x",
    "grep -Pw '@foo' x",
    "grep -oP '\\h\\w+' x",
  ], withStatus);
  expect(out).toEqual([
    ["grep -oP '(?<=x=)\\w+' x", "abc\nq\n", "", 0],
    ["grep -oP '\\w+(?=\\s)' x", "abc\nfoo\nfoo\n", "", 0],
    ["grep -oP '(?<=x=)\\w+(?= )' x", "abc\n", "", 0],
    ["grep -cP '(?<!x)=\\d' x", "1\n", "", 0],
    ["grep -oP '(ab)\\1' x", "abab\n", "", 0],
    ["grep -oP '(?<n>a)b\\k<n>' x", "aba\n", "", 0],
    ["grep -oP 'x=\\K\\w+' x", "abc\nq\n", "", 0],
    ["grep -oPi '(?<=X=)[A-Z]+' x", "abc\nq\n", "", 0],
    ["grep -xP '(?=a)abab' x", "abab\n", "", 0],
    ["grep -Pw '@foo' x", "@foo bar\n", "", 0],
    ["grep -oP '\\h\\w+' x", " y\n x\n bar\n", "", 0],
  ]);
});

it("grep -P refuses what it cannot run as PCRE2 does, status 2", async () => {
  const out = await shellCases({ files: { x: "aaa\n" } }, ["grep -P -e a -e b x", "grep -oP 'a++' x", "grep -oP '(?>a)' x", "grep -P '\\u0041' x", "grep -P '\\j' x"], withStatus);
  expect(out).toEqual([
    ["grep -P -e a -e b x", "", "grep: the -P option only supports a single pattern\n", 2],
    ["grep -oP 'a++' x", "", "grep: a possessive quantifier (`*+`, `++`, `?+`, `{n,m}+`) is not supported by the shell's grep -P (no JavaScript or RE2 equivalent)\n", 2],
    ["grep -oP '(?>a)' x", "", "grep: an atomic group `(?>…)` is not supported by the shell's grep -P (no JavaScript or RE2 equivalent)\n", 2],
    ["grep -P '\\u0041' x", "", "grep: PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u\n", 2],
    ["grep -P '\\j' x", "", "grep: unrecognized character follows \\\n", 2],
  ]);
});

it("sed's queued text ends a last line without a newline first, r/R text as the file has it", async () => {
  const files = { s: "x\ny", r2: "R", r3: "A\nB", empty: "" };
  const cmds = [
    "sed '$i\\' s | od -c",
    "sed '$c\\' s | od -c",
    "sed '$r empty' s | od -c",
    "sed '$r nope' s | od -c",
    "sed '$r r2' s | od -c",
    "sed '1r r2' s | od -c",
    "sed 'R r3' s | od -c",
    "sed '$R r3' s | od -c",
    "sed '$R nope' s | od -c",
    "sed 'a\\' s s | od -c",
    "sed -n '$a\\' s | od -c",
    "sed '$a foo' s | od -c",
    "sed -s '$a\\' s r2 | od -c",
  ];
  const out = await shellCases({ files }, cmds);
  expect(out.map(([c, o]) => [c, o])).toEqual([
    ["sed '$i\\' s | od -c", "0000000   x  \\n   y\n0000003\n"],
    ["sed '$c\\' s | od -c", "0000000   x  \\n\n0000002\n"],
    ["sed '$r empty' s | od -c", "0000000   x  \\n   y  \\n\n0000004\n"],
    ["sed '$r nope' s | od -c", "0000000   x  \\n   y  \\n\n0000004\n"],
    ["sed '$r r2' s | od -c", "0000000   x  \\n   y  \\n   R\n0000005\n"],
    ["sed '1r r2' s | od -c", "0000000   x  \\n   R   y\n0000004\n"],
    ["sed 'R r3' s | od -c", "0000000   x  \\n   A  \\n   y  \\n   B\n0000007\n"],
    ["sed '$R r3' s | od -c", "0000000   x  \\n   y  \\n   A  \\n\n0000006\n"],
    ["sed '$R nope' s | od -c", "0000000   x  \\n   y\n0000003\n"],
    ["sed 'a\\' s s | od -c", "0000000   x  \\n   y  \\n   x  \\n   y  \\n\n0000010\n"],
    ["sed -n '$a\\' s | od -c", "0000000\n"],
    ["sed '$a foo' s | od -c", "0000000   x  \\n   y  \\n   f   o   o  \\n\n0000010\n"],
    ["sed -s '$a\\' s r2 | od -c", "0000000   x  \\n   y  \\n   R  \\n\n0000006\n"],
  ]);
});

it("sed -i '$r f' and '$a\\' write the file's bytes", async () => {
  const out = await shellCases({ files: { f: "line", g: "top\nend", r2: "R" } }, ["sed -i '$a\\' f g && cat f g | od -c", "sed -i '$r r2' g && od -c g"]);
  expect(out.map(([c, o]) => [c, o])).toEqual([
    ["sed -i '$a\\' f g && cat f g | od -c", "0000000   l   i   n   e  \\n   t   o   p  \\n   e   n   d  \\n\n0000015\n"],
    ["sed -i '$r r2' g && od -c g", "0000000   t   o   p  \\n   e   n   d  \\n   R\n0000011\n"],
  ]);
});

it("find -newer of a missing file fails before walking; the time tests it lacks fail loudly", async () => {
  const out = await shellCases({ files: { "a.txt": "x\n" } }, [
    "find . -newer nope -print; echo $?",
    "find . -newer a.txt -o -newer nope; echo $?",
    "find . -newer; echo $?",
    "find . -anewer nope; echo $?",
    "find . -cnewer nope; echo $?",
    "find . -samefile nope; echo $?",
    "find . -newermt nope; echo $?",
  ]);
  expect(out).toEqual([
    ["find . -newer nope -print; echo $?", "1\n", "find: nope: No such file or directory\n"],
    ["find . -newer a.txt -o -newer nope; echo $?", "1\n", "find: nope: No such file or directory\n"],
    ["find . -newer; echo $?", "1\n", "find: missing argument to `-newer'\n"],
    ["find . -anewer nope; echo $?", "1\n", "find: unknown predicate '-anewer'\n"],
    ["find . -cnewer nope; echo $?", "1\n", "find: unknown predicate '-cnewer'\n"],
    ["find . -samefile nope; echo $?", "1\n", "find: unknown predicate '-samefile'\n"],
    ["find . -newermt nope; echo $?", "1\n", "find: unknown predicate '-newermt'\n"],
  ]);
});
