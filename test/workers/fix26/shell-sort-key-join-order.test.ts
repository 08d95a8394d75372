/**
 * Issue 20, run 26, fixer SD: siblings of test/workers/attack26b/shell-sort-key-without-end-stops-at-field.test.ts
 * and shell-join-unsorted-input-silent.test.ts. sort finds a key's text as GNU sort 9.1's begfield/limfield (a
 * field without -t is its leading blanks and what follows; `b` skips them once; `.C` may run past the field; an end
 * `,N.C` counts into field N); join checks both inputs' order as GNU join 9.1 in every mode (-a, -v, stdin `-`, -i,
 * --check-order stops at the first). Expected outputs are GNU coreutils 9.1's (LC_ALL=C.UTF-8).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sort keys start and end where GNU sort's do", async () => {
  const cases: [string, string][] = [
    ["printf 'a  c\\nb b\\n' | sort -k2", "a  c\nb b\n"],
    ["printf 'a  c\\nb b\\n' | sort -k2b", "b b\na  c\n"],
    ["printf 'a:x:1\\nb:y:0\\n' | sort -t: -k2.2", "b:y:0\na:x:1\n"],
    ["printf 'x  2b\\ny 1a\\n' | sort -k2.2b", "y 1a\nx  2b\n"],
    ["printf 'ab 1\\nb 2\\n' | sort -u -k1.2", "b 2\nab 1\n"],
    ["printf 'a,2,z\\nb,10,y\\n' | sort -t, -k2n", "a,2,z\nb,10,y\n"],
    ["printf 'x 3 b\\nx 3 a\\n' | sort -k2,2.1", "x 3 a\nx 3 b\n"],
    ["printf 'ab:c\\naa:d\\n' | sort -t: -k1.2,2.1", "aa:d\nab:c\n"],
    ["printf 'b a\\na a\\n' | sort -k2,2 -k1,1", "a a\nb a\n"],
  ];
  const out = await shellCases({}, cases.map(([command]) => command));
  expect(out).toEqual(cases.map(([command, stdout]) => [command, stdout, ""]));
});

const tree = { files: { u3: "a 1\nc 3\nb 2\n", s3: "a x\nb y\nc z\n", s1: "a 1\nb 2\n", u2: "b x\na y\nc z\n" } };

it("join checks the order of both inputs as GNU join, with -a, -v, stdin and -i", async () => {
  const out = await shellCases(tree, [
    "join -a1 u3 s3; echo st=$?",
    "join --check-order u3 s3; echo st=$?",
    "join s1 u2; echo st=$?",
    "join -v2 s1 u2; echo st=$?",
    "join -a1 -a2 u3 u2; echo st=$?",
    "cat u3 | join - s3; echo st=$?",
    "join -i u3 s3; echo st=$?",
    "join s3 s3; echo st=$?",
  ]);
  expect(out).toEqual([
    ["join -a1 u3 s3; echo st=$?", "a 1 x\nc 3 z\nb 2\nst=1\n", "join: u3:3: is not sorted: b 2\njoin: input is not in sorted order\n"],
    // --check-order stops at the first line out of order, without the closing line.
    ["join --check-order u3 s3; echo st=$?", "a 1 x\nst=1\n", "join: u3:3: is not sorted: b 2\n"],
    ["join s1 u2; echo st=$?", "b 2 x\nst=1\n", "join: u2:2: is not sorted: a y\njoin: input is not in sorted order\n"],
    ["join -v2 s1 u2; echo st=$?", "a y\nc z\nst=1\n", "join: u2:2: is not sorted: a y\njoin: input is not in sorted order\n"],
    ["join -a1 -a2 u3 u2; echo st=$?", "a 1\nb x\na y\nc 3 z\nb 2\nst=1\n", "join: u2:2: is not sorted: a y\njoin: u3:3: is not sorted: b 2\njoin: input is not in sorted order\n"],
    ["cat u3 | join - s3; echo st=$?", "a 1 x\nc 3 z\nst=1\n", "join: -:3: is not sorted: b 2\njoin: input is not in sorted order\n"],
    ["join -i u3 s3; echo st=$?", "a 1 x\nc 3 z\nst=1\n", "join: u3:3: is not sorted: b 2\njoin: input is not in sorted order\n"],
    ["join s3 s3; echo st=$?", "a x x\nb y y\nc z z\nst=0\n", ""],
  ]);
});
