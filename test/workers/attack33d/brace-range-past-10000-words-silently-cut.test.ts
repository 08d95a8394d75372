/**
 * Issue 20, thirty-third attack run: a brace expansion of more than 10,000 words is silently cut to its first
 * 10,000, status 0 and nothing on stderr, where bash 5.2.15 expands it whole: `for i in {1..20000}` stops at 10000,
 * `printf '%s\n' {1..12000} > ids.txt` writes 10,000 lines, `echo {a,b}{1..6000}` gives 10,000 words. docs/runtime.md
 * lists "brace ranges of at most 10,000 words" among the limits, but every sibling limit there (commands, loop
 * iterations, `$(…)` nesting, script size) stops the script with a message and status 126; this one drops data and
 * says nothing, so the agent acts on a partial list it cannot tell from the whole.
 * Tried: a differential run against bash 5.2.15 of `{1..N}` for N = 10,000…50,000 in `for`, `echo | wc -w`,
 * `printf | tail -1`, `touch f{1..N}`, and of the product `{a,b}{1..6000}`; `seq`, `$(seq N)` and `mapfile`.
 * Held: `seq 1 50000`, `$(seq 100000)` word splitting, `mapfile -t L < <(seq 100000)` and loops over them give every
 * item; `{1..10000}` is whole.
 * Found (medium — a wrong result an agent acts on: a generated list, a loop over IDs or a batch of files is short by
 * everything past 10,000 with status 0 and no warning; 3 of 3 runs): `{1..10001}` → 10000 words, `{1..50000}` →
 * last 10000, `{a,b}{1..6000}` → 10000 words, `for i in {1..20000}` → `$i` 10000.
 * Suggested fix: src/backends/worker-shell/worker.ts `executionLimits`: just-bash's brace expander stops adding words at
 * its maxResults (10,000; `maxBraceExpansionResults`) and returns what it has. Make going past the bound an error
 * (status 126, `brace expansion: too many words (>N), increase executionLimits.maxBraceExpansionResults`) as the
 * command/loop limits are — a patch of the bundle's expander or a check after it — and/or raise it to 100,000;
 * never cut silently.
 * Fixed: the shell's brace expansion makes up to 100,000 words (src/backends/worker-shell/worker.ts
 * `BRACE_EXPANSION_WORDS`, given as `maxBraceExpansionResults`) and one more stops the script with `bash: brace
 * expansion result limit exceeded (100000)`, status 126; scripts/gen-shell.mjs `// SD33` makes just-bash's range
 * expander throw at the limit instead of stopping at its constant 10,000, and sizes the expansion's work budget to the
 * limit (issue 20, run 33, fixer SD). Siblings: test/workers/fix33/shell-dev-stdin-brace.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a brace expansion past 10,000 words is expanded whole (or refused), never silently cut, as bash 5.2.15", async () => {
  const results = await shellCases(
    {},
    [
      "echo {1..10001} | wc -w",
      "printf '%s\\n' {1..50000} | tail -n 1",
      "echo {a,b}{1..6000} | wc -w",
      "for i in {1..20000}; do :; done; echo $i",
    ],
    { collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode] },
  );
  // Was: 10000 / 10000 / 10000 / 10000, each with status 0 and an empty stderr.
  expect(results).toEqual([
    ["echo {1..10001} | wc -w", "10001\n", "", 0],
    ["printf '%s\\n' {1..50000} | tail -n 1", "50000\n", "", 0],
    ["echo {a,b}{1..6000} | wc -w", "12000\n", "", 0],
    ["for i in {1..20000}; do :; done; echo $i", "20000\n", "", 0],
  ]);
});
