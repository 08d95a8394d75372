/**
 * Issue 20, twenty-eighth attack run: sort refuses a cluster of short options that ends in `-k` with its argument —
 * `sort -nk2`, `sort -rnk2`, `sort -nrk2`, `sort -t: -nk3`, `sort -uk3` are `sort: invalid option -- 'nk2'` with
 * nothing sorted; GNU sort 9.1 (getopt) reads `-nk2` as `-n -k 2`. These are among the commonest sort forms in agent
 * scripts (`… | sort -rnk2 | head`); in a pipeline the script goes on with empty output and the pipeline's status 0.
 * Tried: side by side with GNU sort 9.1 — `-nk2`, `-rnk2`, `-nrk2`, `-uk3`, `-t, -nk2`, `-t: -nk3`, `-k2nr`,
 * `-k2,2nr`, `-rn -k2`.
 * Held: `-k2` (joined), `-k 2`, `-k2,2n`, `-k2nr`, `-rn -k2`, `-t,`, `-rn`, `-nu`, `-o FILE`, `-h`/`-rh`.
 * Found (medium — a very common option form sorts nothing; stderr says why, but `$?` of the pipeline is 0;
 * 2 of 2 runs).
 * Suggested fix: sort's option loop (just-bash's, patched by scripts/gen-shell.mjs "sort -k checked (L1)" and
 * `__gnuExtra.sortKeyOption`): split a `-`cluster of flag letters as getopt does — each letter a flag until one that
 * takes an argument (`k`, `t`, `o`, `S`, `T`), which takes the rest of the cluster or the next word.
 *
 * Fixed: sort's arguments are read as GNU getopt reads them before just-bash's parser runs — a cluster ends at a
 * letter that takes an argument (k t o S T), which takes the rest of the cluster or the next word; -S/-T/--parallel
 * are dropped; unknown options are GNU's refusal, status 2 (src/backends/worker-shell/isolate/option-words.ts,
 * scripts/gen-shell.mjs OP_PATCHES; fixer OP, run 28).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "u.csv": "name,age\nbob,25\nal,30\ncy,4\n", "p.txt": "root:x:0\nal:x:1000\nd:x:1\n" } };

it("-nk2, -rnk2 and -t: -nk3 are -n -k2, -r -n -k2 and -n -k3, as GNU sort", async () => {
  const out = await shellCases(tree, [
    "sort -t, -nk2 u.csv; echo rc=$?",
    "sort -t, -rnk2 u.csv | head -1",
    "sort -t: -nk3 p.txt | cut -d: -f1",
  ]);
  expect(out).toEqual([
    // Was: "rc=1\n", "sort: invalid option -- 'nk2'\n".
    ["sort -t, -nk2 u.csv; echo rc=$?", "name,age\ncy,4\nbob,25\nal,30\nrc=0\n", ""],
    // Was: "", "sort: invalid option -- 'rnk2'\n".
    ["sort -t, -rnk2 u.csv | head -1", "al,30\n", ""],
    // Was: "", "sort: invalid option -- 'nk3'\n".
    ["sort -t: -nk3 p.txt | cut -d: -f1", "root\nd\nal\n", ""],
  ]);
});
