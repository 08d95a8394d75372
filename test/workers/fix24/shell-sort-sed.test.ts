/**
 * Issue 20, twenty-fourth attack run (fixer SS): siblings of shell-sort-locale-order-breaks-comm and
 * shell-sed-ng-flag-and-empty-hold-append (test/workers/attack24b/). `sort` compares by UTF-8 bytes as GNU sort in
 * the C locale (a byte that is not UTF-8 as itself), `-f` folds to upper case, `-n` reads numbers as GNU, `-u`
 * keeps the first of each equal run and `-c -u` rejects equal lines; `comm` compares by bytes too, `uniq -i` and
 * `join -i` fold ASCII only and `join -i` prints file 1's field; sed's `s///N` and `s///Ng` count matches as GNU
 * sed 4.9 and make no substitution when there are fewer (`p` and `t` see none), and `H` always adds a newline.
 * Each expectation is what GNU coreutils 9.1 / sed 4.9 printed for the same command under LC_ALL=C.UTF-8 on this
 * machine.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string, string][] = [
  // byte order: escaped bytes as themselves, U+FFFD (ef bf bd) before an emoji (f0 …) — localeCompare put é before z
  ["printf 'a\\n\\xff\\n\\xc3\\xa9\\n\\xc3\\nz\\n\\xf0\\x9f\\x98\\x80\\n\\xef\\xbf\\xbd\\nZ\\n' | sort | od -An -tx1", " 5a 0a 61 0a 7a 0a c3 0a c3 a9 0a ef bf bd 0a f0\n 9f 98 80 0a ff 0a\n", ""],
  ["printf 'b\\nA\\na\\nB\\n_\\n' | sort -f", "A\na\nB\nb\n_\n", ""],
  // GNU -n: no exponent (1e3 is 1), no `+` (+3 is 0), exact digits; equal numbers by bytes
  ["printf '1e3\\n5\\n+3\\n-0\\n0\\n.5\\n-.5\\n 2\\n12345678901234567891\\n12345678901234567890\\n1.50\\n1.5\\nabc\\n' | sort -n", "-.5\n+3\n-0\n0\nabc\n.5\n1e3\n1.5\n1.50\n 2\n5\n12345678901234567890\n12345678901234567891\n", ""],
  // -u keeps the first of each run equal by the keys (-n: 1 = 01 = 1.0; -f: a = A)
  ["printf '1\\n01\\n1.0\\n2\\n' | sort -nu; printf 'a\\nA\\nb\\n' | sort -fu", "1\n2\na\nb\n", ""],
  ["printf 'a\\na\\n' | sort -cu; echo rc=$?", "rc=1\n", "sort: -:2: disorder: a\n"],
  ["printf '1\\n01\\n' | sort -cn; echo rc=$?; printf 'B\\na\\n' | sort -c; echo rc=$?", "rc=1\nrc=0\n", "sort: -:2: disorder: 01\n"],
  ["printf 'b 1\\nB 2\\na 3\\n' | sort -s -k1,1; printf 'b\\nB\\na\\n' | sort -r; printf 'x:10\\nz:9\\ny:9\\n' | sort -t: -k2,2n", "B 2\na 3\nb 1\nb\na\nB\ny:9\nz:9\nx:10\n", ""],
  ["printf 'c\\nB\\na\\n' > u; sort -o u u; cat u", "B\na\nc\n", ""],
  // comm of files sorted by sort: U+FFFD is only in b.s, the emoji in both (UTF-16 order split it)
  ["printf '\\xc3\\xa9\\n\\xf0\\x9f\\x98\\x80\\n' | sort > a.s; printf '\\xf0\\x9f\\x98\\x80\\n\\xef\\xbf\\xbd\\n' | sort > b.s; comm a.s b.s", "é\n\t�\n\t\t😀\n", ""],
  // uniq -i and join -i fold ASCII only, as in the C locale; join prints file 1's field (it printed `a`)
  ["printf '\\xc3\\xa4\\n\\xc3\\x84\\na\\nA\\n' | uniq -i", "ä\nÄ\na\n", ""],
  ["printf 'A 1\\n\\xc3\\xa4 3\\n' > x; printf 'a 2\\n\\xc3\\x84 4\\n' > y; join -i x y", "A 1 2\n", ""],
  // join of files sorted by sort
  ["printf 'B 1\\na 2\\n' | sort > x; printf 'a y\\nB x\\n' | sort > y; join x y", "B 1 x\na 2 y\n", ""],
  // ls, globs and sort agree
  ["touch B a _x; ls | sort -c; echo rc=$?; echo *", "rc=0\nB _x a\n", ""],
  // s///N and Ng count matches as GNU (an empty match right after a match is not one)
  ["echo abc | sed 's/b*/-/2g'; echo abc | sed 's/b*/-/3'; echo baaac | sed 's/a*/x/2'", "a-c-\nabc-\nbxc\n", ""],
  // fewer than N matches: no substitution (for p and t)
  ["echo a | sed -n 's/a/x/2p'; echo rc=$?; echo aaa | sed -n 's/a/x/2p'", "rc=0\naxa\n", ""],
  ["echo a | sed 's/a/x/2;te;s/$/ no/;b;:e;s/$/ yes/'; echo aa | sed 's/a/x/2;te;s/$/ no/;b;:e;s/$/ yes/'", "a no\nax yes\n", ""],
  ["echo aAaA | sed 's/a/x/2gI'; echo hello | sed 's/l/L/3g'; echo one two three | sed -E 's/([a-z]+)/[\\1]/2g'", "axxx\nhello\none [two] [three]\n", ""],
  // H on an empty hold space starts it with a newline
  ["printf 'a\\nb\\nc\\n' | sed -n 'H;${g;p}'; printf 'a\\n' | sed 'x;H;x'", "\na\nb\nc\na\n\n", ""],
  ["printf 'aaa\\nbab\\n' > f; sed -i 's/a/x/2' f; cat f", "axa\nbab\n", ""],
];

it("sort, comm, uniq -i, join -i and sed s///N, H answer as GNU coreutils 9.1 and sed 4.9 in the C locale", async () => {
  const out = await shellCases({}, cases.map(([command]) => command));
  expect(out).toEqual(cases);
});
