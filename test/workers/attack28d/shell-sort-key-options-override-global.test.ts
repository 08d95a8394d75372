/**
 * Issue 20, twenty-eighth attack run: sort applied the global ordering options (`-r`, `-n`, `-f`, `-b`, …) to a key
 * that has ordering options of its own; GNU sort 9.1 ignores ALL global ordering options for such a key (a key with
 * no options of its own inherits them all). `sort -k2n -r` sorts the key ascending in GNU, descending here;
 * `sort -n -k2r` compares key 2 as text (reversed) in GNU, as numbers here; `sort -t, -b -k1,1f` counts the
 * leading blank in GNU, strips it here; and a key with none (`sort -b -k2,2`) did not inherit the global `-b`.
 * Tried: side by side with GNU coreutils 9.1 sort — `-k2n -r`, `-r -k2n`, `-k2nr`, `-rnk2`, `-k2,2n -r -s`,
 * `-k2,2n -r` (ties broken by the whole line, reversed by the global -r), `-n -k2r`, `-k1,1 -k2n -r` (the first key
 * inherits r, the second not), `-f -k1,1` vs `-k1,1f`, `-k1,1f -s`, `-k1,1f -r`, `-b -k2n`, `-b -k2,2`,
 * `-b -k2,2f`, `-t, -b -k1,1f`, `-t, -k2n -r -u`, `-c -k2n -r`.
 * Held: keys without options of their own (`-rnk2`, `-f -r -k1,1`); `-k2nr`; `-s`; `-u` keeping the
 * first of equal keys.
 * Found (medium — `sort -k2n -r` / `sort -r -k2,2n` is a common agent form and silently sorts the other way; found by
 * fixer OP, run 28; 2 of 2 runs).
 * Suggested fix: resolve each key's options once all options are read (GNU main(): `if (default_key_compare (key) &&
 * !key->reverse)` copies the global key's options), in just-bash's sort comparator (scripts/gen-shell.mjs).
 *
 * Fixed: fixer SO (run 28) — src/backends/worker-shell/isolate/sort-keys.ts resolveKeys, called by just-bash's sort
 * comparator (scripts/gen-shell.mjs SO_PATCHES): a key with any of b d f h M n r V takes only its own options (all
 * others false), a key with none takes every global one (`-b` as its `b`); global `-b` strips the line's leading
 * blanks only when there are no keys. The last-resort whole-line comparison keeps the global `-r` alone, as GNU.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  files: {
    "n.txt": "a 1\nb 2\nc 3\n",
    "t.txt": "b 10\na 9\nc 10\nd 9\n",
    "x.txt": "x 2\nx 10\ny 1\nx 1\n",
    "f.txt": "b\nA\na\nB\n",
    "b.txt": "x  b\nx a\nx  a\nx c\n",
    "bt.csv": " b,1\na,2\n",
    "c.csv": "a,1\nb,2\nc,2\nd,3\n",
    "e.txt": "a 1\nb 1\n",
  },
};

it("a key with options of its own ignores all global ordering options, as GNU sort 9.1", async () => {
  const out = await shellCases(tree, [
    "sort -k2n -r n.txt",
    "sort -r -k2n n.txt",
    "sort -k2nr n.txt",
    "sort -rnk2 n.txt",
    "sort -k2,2n -r -s t.txt",
    "sort -k2,2n -r t.txt",
    "sort -n -k2r t.txt",
    "sort -k1,1 -k2n -r x.txt",
    "sort -f -k1,1 f.txt",
    "sort -k1,1f f.txt",
    "sort -k1,1f -s f.txt",
    "sort -k1,1f -r f.txt",
    "sort -f -r -k1,1 f.txt",
    "sort -b -k2n b.txt",
    "sort -b -k2,2 b.txt",
    "sort -b -k2,2f b.txt",
    "sort -t, -b -k1,1f bt.csv",
    "sort -t, -b -k1,1 bt.csv",
    "sort -t, -k2n -r -u c.csv",
    "sort -t, -k2nr -u c.csv",
    "sort -k2n -r e.txt",
    "sort -k2n -r -s e.txt",
    "sort -c -k2n -r n.txt; echo rc=$?",
  ]);
  expect(out).toEqual([
    // Was: "c 3\nb 2\na 1\n" (the global -r applied to the key).
    ["sort -k2n -r n.txt", "a 1\nb 2\nc 3\n", ""],
    // Was: "c 3\nb 2\na 1\n".
    ["sort -r -k2n n.txt", "a 1\nb 2\nc 3\n", ""],
    ["sort -k2nr n.txt", "c 3\nb 2\na 1\n", ""],
    ["sort -rnk2 n.txt", "c 3\nb 2\na 1\n", ""],
    // Was: "b 10\nc 10\na 9\nd 9\n".
    ["sort -k2,2n -r -s t.txt", "a 9\nd 9\nb 10\nc 10\n", ""],
    // Was: "c 10\nb 10\nd 9\na 9\n" (expected: ties broken by the whole line, reversed by the global -r).
    ["sort -k2,2n -r t.txt", "d 9\na 9\nc 10\nb 10\n", ""],
    // Was: "b 10\nc 10\na 9\nd 9\n" (key 2 compared as numbers).
    ["sort -n -k2r t.txt", "a 9\nd 9\nb 10\nc 10\n", ""],
    // Was: "y 1\nx 10\nx 2\nx 1\n" (the second key reversed too).
    ["sort -k1,1 -k2n -r x.txt", "y 1\nx 1\nx 2\nx 10\n", ""],
    ["sort -f -k1,1 f.txt", "A\na\nB\nb\n", ""],
    ["sort -k1,1f f.txt", "A\na\nB\nb\n", ""],
    ["sort -k1,1f -s f.txt", "A\na\nb\nB\n", ""],
    // Was: "b\nB\na\nA\n".
    ["sort -k1,1f -r f.txt", "a\nA\nb\nB\n", ""],
    ["sort -f -r -k1,1 f.txt", "b\nB\na\nA\n", ""],
    ["sort -b -k2n b.txt", "x  a\nx  b\nx a\nx c\n", ""],
    // Was: "x  a\nx  b\nx a\nx c\n" (the key did not inherit the global -b).
    ["sort -b -k2,2 b.txt", "x  a\nx a\nx  b\nx c\n", ""],
    ["sort -b -k2,2f b.txt", "x  a\nx  b\nx a\nx c\n", ""],
    // Was: "a,2\n b,1\n" (the line's leading blank stripped).
    ["sort -t, -b -k1,1f bt.csv", " b,1\na,2\n", ""],
    ["sort -t, -b -k1,1 bt.csv", "a,2\n b,1\n", ""],
    // Was: "d,3\nb,2\na,1\n".
    ["sort -t, -k2n -r -u c.csv", "a,1\nb,2\nd,3\n", ""],
    ["sort -t, -k2nr -u c.csv", "d,3\nb,2\na,1\n", ""],
    ["sort -k2n -r e.txt", "b 1\na 1\n", ""],
    ["sort -k2n -r -s e.txt", "a 1\nb 1\n", ""],
    // Was: "rc=1\n", "sort: n.txt:2: disorder: b 2\n".
    ["sort -c -k2n -r n.txt; echo rc=$?", "rc=0\n", ""],
  ]);
});
