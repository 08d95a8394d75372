/**
 * ls's output, built line by line under the shell's `maxOutputSize`, in time linear in its length (issue 20, run 34,
 * fixer FL).
 *
 * just-bash's ls appends each line of a long listing (`ls -l`, `ls -la`, the `dir:` headers of `ls -R`) to its output
 * string through a helper that checks the limit by measuring the UTF-8 length of the whole output so far on every
 * call: a directory of n entries cost O(n²) (3,000 files 1.6 s, 12,000 files 18 s for `ls -l`, where plain `ls`,
 * which joins its names once, took 25 ms → 48 ms). scripts/gen-shell.mjs replaces that helper's body with
 * {@link append}, imported as the namespace `__lsOutput` (entries marked `// FL`), which remembers the byte length of
 * the last string it returned, so appending to it measures only the new text. Pure apart from that one-entry memo;
 * bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The last output {@link append} returned and its length in UTF-8 bytes (as `byteLength` measured it). */
let lastOut = "";
let lastBytes = 0;

/**
 * `out + text`, or `fail()` (which throws, as just-bash's `ls: output size limit exceeded (N bytes)` error) when its
 * UTF-8 length would pass `limit` bytes. `byteLength` is just-bash's UTF-8 length of a string (code units; a
 * surrogate pair 4 bytes). `out`'s length is taken from the memo when `out` is the string the previous call returned
 * (the common case: ls appends to what it got back), else measured; the sum is exact except where `out` ends in a
 * lone high surrogate and `text` starts with a low one (2 bytes over, never the case for ls's newline-ended lines).
 */
export function append(out: string, text: string, limit: number, byteLength: (s: string) => number, fail: () => never): string {
  const before = out === lastOut ? lastBytes : byteLength(out);
  const added = byteLength(text);
  if (added > limit - before) fail();
  const next = out + text;
  lastOut = next;
  lastBytes = before + added;
  return next;
}
