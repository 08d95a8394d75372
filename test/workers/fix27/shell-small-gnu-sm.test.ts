/**
 * Issue 20, twenty-seventh run, fixer SM: small GNU coreutils 9.1 divergences found by attack run 27 and their
 * siblings — seq -w's width (the sign counts) and seq's decimal places, base64 -d's invalid input (what was decoded is
 * written, then `base64: invalid input`, status 1) and -i, md5sum/sha1sum/sha256sum -b (`*` before the name), unexpand
 * -t implying -a and --first-only (src/backends/worker-shell/isolate/small-gnu.ts and text-output.ts's checksumCommand,
 * patched in by scripts/gen-shell.mjs `// SM`). Every expectation is GNU coreutils 9.1's output for the same command in
 * the same tree on this machine (bash 5.2.15, LC_ALL=C.UTF-8).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: {"f": "hi\n", "a\\b": "x", "t.txt": "a   b       c\n    x  y   z\n  a b\n\t  q    r\n        lead  x\n", "bad.b64": "YW!j", "ok.b64": "aGVs\nbG8=\n"} };

it("seq: -w pads to FIRST's and LAST's width with the sign counted; decimal places from FIRST and INCREMENT, as GNU seq 9.1", async () => {
  const out = await shellCases(tree, [
    "seq -w -1 1",
    "seq -w -10 5 1",
    "seq -w -5 3",
    "seq -w 1 10",
    "seq -w -1.5 1",
    "seq -w 1 0.5 3",
    "seq -w -3 -1",
    "seq -w 5 -1 -2",
    "seq -w 10 -3 -10",
    "seq -w -0.5 0.5 1",
    "seq -s, -w -1 1",
    "seq -w 08 10",
    "seq -w +1 10",
    "seq -w 1.5e1 17",
    "seq -w 1e1 12",
    "seq -w 0.5 .5 1.5",
    "seq -w -.5 .5 .5",
    "seq 1 2.5",
    "seq 1.0 3",
    "seq 0.1 0.1 0.3",
    "seq 1 0.25 2",
    "seq -w 9 11",
    "seq -w 2 -1 -2; echo rc=$?",
  ]);
  expect(out).toEqual([
    ["seq -w -1 1", "-1\n00\n01\n", ""],
    ["seq -w -10 5 1", "-10\n-05\n000\n", ""],
    ["seq -w -5 3", "-5\n-4\n-3\n-2\n-1\n00\n01\n02\n03\n", ""],
    ["seq -w 1 10", "01\n02\n03\n04\n05\n06\n07\n08\n09\n10\n", ""],
    ["seq -w -1.5 1", "-1.5\n-0.5\n00.5\n", ""],
    ["seq -w 1 0.5 3", "1.0\n1.5\n2.0\n2.5\n3.0\n", ""],
    ["seq -w -3 -1", "-3\n-2\n-1\n", ""],
    ["seq -w 5 -1 -2", "05\n04\n03\n02\n01\n00\n-1\n-2\n", ""],
    ["seq -w 10 -3 -10", "010\n007\n004\n001\n-02\n-05\n-08\n", ""],
    ["seq -w -0.5 0.5 1", "-0.5\n00.0\n00.5\n01.0\n", ""],
    ["seq -s, -w -1 1", "-1,00,01\n", ""],
    ["seq -w 08 10", "08\n09\n10\n", ""],
    ["seq -w +1 10", "01\n02\n03\n04\n05\n06\n07\n08\n09\n10\n", ""],
    ["seq -w 1.5e1 17", "15\n16\n17\n", ""],
    ["seq -w 1e1 12", "10\n11\n12\n", ""],
    ["seq -w 0.5 .5 1.5", "0.5\n1.0\n1.5\n", ""],
    ["seq -w -.5 .5 .5", "-0.5\n00.0\n00.5\n", ""],
    ["seq 1 2.5", "1\n2\n", ""],
    ["seq 1.0 3", "1.0\n2.0\n3.0\n", ""],
    ["seq 0.1 0.1 0.3", "0.1\n0.2\n0.3\n", ""],
    ["seq 1 0.25 2", "1.00\n1.25\n1.50\n1.75\n2.00\n", ""],
    ["seq -w 9 11", "09\n10\n11\n", ""],
    ["seq -w 2 -1 -2; echo rc=$?", "02\n01\n00\n-1\n-2\nrc=0\n", ""],
  ]);
}, 120000);

it("base64 -d: groups of four, newlines skipped, the bytes before an invalid group written, then `base64: invalid input` (status 1); -i drops garbage, as GNU", async () => {
  const out = await shellCases(tree, [
    "printf YWJ | base64 -d; echo \" rc=$?\"",
    "printf 'YW!j' | base64 -d; echo \" rc=$?\"",
    "printf 'YW!j' | base64 -di; echo \" rc=$?\"",
    "printf 'YQ==YWJj' | base64 -d; echo \" rc=$?\"",
    "printf 'YW Jj' | base64 -d; echo \" rc=$?\"",
    "printf 'YW\\nJj\\n\\n' | base64 -d; echo \" rc=$?\"",
    "printf 'YW\\r\\nJj' | base64 -d; echo \" rc=$?\"",
    "printf 'Y' | base64 -d; echo \" rc=$?\"",
    "printf 'YQ=' | base64 -d; echo \" rc=$?\"",
    "printf 'YQ=a' | base64 -d; echo \" rc=$?\"",
    "printf 'Y=Jj' | base64 -d; echo \" rc=$?\"",
    "printf 'YQ==\\n=' | base64 -d; echo \" rc=$?\"",
    "printf 'Y W J j' | base64 -i -d; echo \" rc=$?\"",
    "printf 'YQ' | base64 --ignore-garbage --decode; echo \" rc=$?\"",
    "base64 -d bad.b64; echo \" rc=$?\"",
    "base64 -d ok.b64; echo \" rc=$?\"",
    "base64 -di bad.b64; echo \" rc=$?\"",
    "printf '\\377\\000abc' | base64 | base64 -d | od -An -tx1",
    "printf '' | base64 -d; echo \" rc=$?\"",
    "printf '\\n\\n' | base64 -d; echo \" rc=$?\"",
    "printf 'YWJj' | base64 -i; echo \" rc=$?\"",
  ]);
  expect(out).toEqual([
    ["printf YWJ | base64 -d; echo \" rc=$?\"", "ab rc=1\n", "base64: invalid input\n"],
    ["printf 'YW!j' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'YW!j' | base64 -di; echo \" rc=$?\"", "ah rc=1\n", "base64: invalid input\n"],
    ["printf 'YQ==YWJj' | base64 -d; echo \" rc=$?\"", "aabc rc=0\n", ""],
    ["printf 'YW Jj' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'YW\\nJj\\n\\n' | base64 -d; echo \" rc=$?\"", "abc rc=0\n", ""],
    ["printf 'YW\\r\\nJj' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'Y' | base64 -d; echo \" rc=$?\"", " rc=1\n", "base64: invalid input\n"],
    ["printf 'YQ=' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'YQ=a' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'Y=Jj' | base64 -d; echo \" rc=$?\"", " rc=1\n", "base64: invalid input\n"],
    ["printf 'YQ==\\n=' | base64 -d; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["printf 'Y W J j' | base64 -i -d; echo \" rc=$?\"", "abc rc=0\n", ""],
    ["printf 'YQ' | base64 --ignore-garbage --decode; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["base64 -d bad.b64; echo \" rc=$?\"", "a rc=1\n", "base64: invalid input\n"],
    ["base64 -d ok.b64; echo \" rc=$?\"", "hello rc=0\n", ""],
    ["base64 -di bad.b64; echo \" rc=$?\"", "ah rc=1\n", "base64: invalid input\n"],
    ["printf '\\377\\000abc' | base64 | base64 -d | od -An -tx1", " ff 00 61 62 63\n", ""],
    ["printf '' | base64 -d; echo \" rc=$?\"", " rc=0\n", ""],
    ["printf '\\n\\n' | base64 -d; echo \" rc=$?\"", " rc=0\n", ""],
    ["printf 'YWJj' | base64 -i; echo \" rc=$?\"", "WVdKag==\n rc=0\n", ""],
  ]);
}, 120000);

it("md5sum/sha1sum/sha256sum -b: `<hash> *<name>` (-t or the last of -b/-t wins); -c reads `*` lines and refuses -b/-t, as GNU", async () => {
  const out = await shellCases(tree, [
    "md5sum -b f",
    "md5sum -bt f",
    "md5sum -tb f",
    "sha1sum --binary f",
    "sha256sum -b f - < f",
    "md5sum -b 'a\\b'",
    "md5sum -b f > s; cat s; md5sum -c s; echo rc=$?",
    "md5sum -b f > s; md5sum -c -b s; echo rc=$?",
    "md5sum f > s; sha1sum --text -c s; echo rc=$?",
    "md5sum -b --text f",
    "printf 'x\\n' | md5sum -b",
    "sha1sum -b f > s; sha1sum -c s; sed 's/ \\*/  /' s | sha1sum -c",
    "md5sum -cb f; echo rc=$?",
  ]);
  expect(out).toEqual([
    ["md5sum -b f", "764efa883dda1e11db47671c4a3bbd9e *f\n", ""],
    ["md5sum -bt f", "764efa883dda1e11db47671c4a3bbd9e  f\n", ""],
    ["md5sum -tb f", "764efa883dda1e11db47671c4a3bbd9e *f\n", ""],
    ["sha1sum --binary f", "55ca6286e3e4f4fba5d0448333fa99fc5a404a73 *f\n", ""],
    ["sha256sum -b f - < f", "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4 *f\n98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4 *-\n", ""],
    ["md5sum -b 'a\\b'", "\\9dd4e461268c8034f5c8564e155c67a6 *a\\\\b\n", ""],
    ["md5sum -b f > s; cat s; md5sum -c s; echo rc=$?", "764efa883dda1e11db47671c4a3bbd9e *f\nf: OK\nrc=0\n", ""],
    ["md5sum -b f > s; md5sum -c -b s; echo rc=$?", "rc=1\n", "md5sum: the --binary and --text options are meaningless when verifying checksums\nTry 'md5sum --help' for more information.\n"],
    ["md5sum f > s; sha1sum --text -c s; echo rc=$?", "rc=1\n", "sha1sum: the --binary and --text options are meaningless when verifying checksums\nTry 'sha1sum --help' for more information.\n"],
    ["md5sum -b --text f", "764efa883dda1e11db47671c4a3bbd9e  f\n", ""],
    ["printf 'x\\n' | md5sum -b", "401b30e3b8b5d629635a5c613cdb7919 *-\n", ""],
    ["sha1sum -b f > s; sha1sum -c s; sed 's/ \\*/  /' s | sha1sum -c", "f: OK\nf: OK\n", ""],
    ["md5sum -cb f; echo rc=$?", "rc=1\n", "md5sum: the --binary and --text options are meaningless when verifying checksums\nTry 'md5sum --help' for more information.\n"],
  ]);
}, 120000);

it("unexpand: -t implies -a; --first-only converts only leading blanks, as GNU unexpand 9.1", async () => {
  const out = await shellCases(tree, [
    "unexpand -t 4 t.txt",
    "unexpand -t4 t.txt",
    "unexpand --tabs=4 t.txt",
    "unexpand --tabs 4 t.txt",
    "unexpand -t 4 --first-only t.txt",
    "unexpand --first-only -t 4 t.txt",
    "unexpand -a t.txt",
    "unexpand -t 2,6 t.txt",
    "unexpand -a --first-only t.txt",
    "unexpand t.txt",
    "printf '  a b\\n' | unexpand -t 2",
    "printf 'ab  c   d\\n' | unexpand -t 4",
    "printf 'a \\tb\\n' | unexpand -a",
    "printf 'x\\t b   \\n' | unexpand -t 4",
    "printf ' a\\n' | unexpand -t 1",
    "printf 'ab\\b   c\\n' | unexpand -t 4",
    "printf '   \\n    ' | unexpand -t 4",
    "printf 'abcdefg h\\n' | unexpand -a",
    "printf 'abcdefg  h\\n' | unexpand -a",
    "printf '       \\t x\\n' | unexpand",
    "printf 'a b  c\\n' | unexpand -t 3,5,9",
  ]);
  expect(out).toEqual([
    ["unexpand -t 4 t.txt", "a\tb\t\tc\n\tx  y   z\n  a b\n\t  q\t   r\n\t\tlead  x\n", ""],
    ["unexpand -t4 t.txt", "a\tb\t\tc\n\tx  y   z\n  a b\n\t  q\t   r\n\t\tlead  x\n", ""],
    ["unexpand --tabs=4 t.txt", "a\tb\t\tc\n\tx  y   z\n  a b\n\t  q\t   r\n\t\tlead  x\n", ""],
    ["unexpand --tabs 4 t.txt", "a\tb\t\tc\n\tx  y   z\n  a b\n\t  q\t   r\n\t\tlead  x\n", ""],
    ["unexpand -t 4 --first-only t.txt", "a   b       c\n\tx  y   z\n  a b\n\t  q    r\n\t\tlead  x\n", ""],
    ["unexpand --first-only -t 4 t.txt", "a   b       c\n\tx  y   z\n  a b\n\t  q    r\n\t\tlead  x\n", ""],
    ["unexpand -a t.txt", "a   b\t    c\n    x  y   z\n  a b\n\t  q    r\n\tlead  x\n", ""],
    ["unexpand -t 2,6 t.txt", "a\t  b       c\n\t  x  y   z\n\ta b\n\t  q    r\n\t\t  lead  x\n", ""],
    ["unexpand -a --first-only t.txt", "a   b       c\n    x  y   z\n  a b\n\t  q    r\n\tlead  x\n", ""],
    ["unexpand t.txt", "a   b       c\n    x  y   z\n  a b\n\t  q    r\n\tlead  x\n", ""],
    ["printf '  a b\\n' | unexpand -t 2", "\ta b\n", ""],
    ["printf 'ab  c   d\\n' | unexpand -t 4", "ab\tc\td\n", ""],
    ["printf 'a \\tb\\n' | unexpand -a", "a\tb\n", ""],
    ["printf 'x\\t b   \\n' | unexpand -t 4", "x\t b\t \n", ""],
    ["printf ' a\\n' | unexpand -t 1", "\ta\n", ""],
    ["printf 'ab\\b   c\\n' | unexpand -t 4", "ab\b\tc\n", ""],
    ["printf '   \\n    ' | unexpand -t 4", "   \n\t", ""],
    ["printf 'abcdefg h\\n' | unexpand -a", "abcdefg h\n", ""],
    ["printf 'abcdefg  h\\n' | unexpand -a", "abcdefg\t h\n", ""],
    ["printf '       \\t x\\n' | unexpand", "\t x\n", ""],
    ["printf 'a b  c\\n' | unexpand -t 3,5,9", "a b\tc\n", ""],
  ]);
}, 120000);
