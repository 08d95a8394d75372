/**
 * Issue 20, twenty-seventh attack run: sed's `w /dev/stdout` and `w /dev/stderr` (the `w` command and the `s///w`
 * flag) write nothing to the streams: `sed -n 's/o/0/w /dev/stdout' f` prints nothing, where GNU sed treats both
 * names specially and prints each changed line — the usual way to see what a `sed -i` changed.
 * Tried: side by side with GNU sed 4.9 — `w FILE`, `s///w FILE`, `s///pw FILE`, `w /dev/stdout`, `w /dev/stderr`.
 * Held: `w out` and `s///pw out` to a file, the `p` flag.
 * Found (low — output silently missing, `-i` runs unaffected; 2 of 2 runs).
 * Suggested fix: sed's `w` handling (just-bash sed): map `/dev/stdout` and `/dev/stderr` to the command's stdout and
 * stderr, in order with its other output, as GNU sed does.
 *
 * Fixed: sed reads the `s///w FILE` flag (just-bash's read it as a separate `w` of every line) and writes through
 * sed-gnu.ts write: `/dev/stdout` in order with the cycle's output (with -i, to the command's stdout), `/dev/stderr`
 * to stderr, other files gathered over all inputs (scripts/gen-shell.mjs `// SH`).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sed w /dev/stdout and /dev/stderr write to the streams, as GNU sed", async () => {
  const out = await shellCases({ files: { "a.txt": "one\ntwo\nthree\nfour\nfive\n" } }, [
    "sed -n 's/o/0/w /dev/stdout' a.txt",
    "sed -n '/o/w /dev/stdout' a.txt",
    "sed 's/o/0/w /dev/stderr' a.txt 2>&1 >/dev/null",
  ]);
  expect(out).toEqual([
    // Was: "".
    ["sed -n 's/o/0/w /dev/stdout' a.txt", "0ne\ntw0\nf0ur\n", ""],
    // Was: "".
    ["sed -n '/o/w /dev/stdout' a.txt", "one\ntwo\nfour\n", ""],
    // Was: "".
    ["sed 's/o/0/w /dev/stderr' a.txt 2>&1 >/dev/null", "0ne\ntw0\nf0ur\n", ""],
  ]);
});
