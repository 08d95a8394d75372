/**
 * Issue 20, thirty-seventh attack run: a `sort` key with the general-numeric modifier `g` (`-k2,2g`, `-k4g`,
 * `-t, -k4,4gr`) is accepted and silently sorted as text, where GNU sort 9.1 orders it by value (strtold:
 * floats, exponents). `sort -g` itself is refused loudly (`invalid option -- 'g'`), but the key form is let through by
 * the key-spec check (src/backends/worker-shell/isolate/gnu-extra.ts ORDERING takes `g`, `R`, `i`) while just-bash's
 * key parser has no `g`, so `10` sorts before `9` and `1e3` before `2.5` — `sort -t, -k4,4g data.csv | tail -1`
 * names the wrong maximum, with status 0.
 * Tried: a differential against GNU sort 9.1 (C.UTF-8) over 350 data-processing scripts (sort -k/-t/-n/-h/-V/-s/-u/-r,
 * uniq, cut, tr, paste, join, comm, xargs, sed, awk, head/tail, tee -a, md5sum/sha256sum -c, base64, gzip/tar) and
 * 100,000-line CSVs.
 * Held: `-k2,2n`, `-k2,2h`, `-k2,2V`, `-k2,2M`, `-k…nr`, `-s`, `-u` with keys, `-t`, `-c`, the global-vs-key option
 * rule, 100,000-line multi-key sorts byte-identical to GNU.
 * Found (medium — a wrong order an agent acts on, silently, status 0; 2 of 2 runs): `printf 'a 10\nb 9\nc 1e3\nd 2.5\n
 * e -1\n' | sort -k2,2g` prints `e -1, a 10, c 1e3, d 2.5, b 9` (GNU: `e -1, d 2.5, b 9, a 10, c 1e3`); `-k2,2gr`
 * likewise.
 * Suggested fix: scripts/gen-shell.mjs's sort patch (isolate/sort-keys.ts): give keys a `generalNumeric` ordering
 * (parse the key's leading float as strtold: `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`, inf/nan; lines without
 * one first), also for global `-g`/`--general-numeric-sort`; or refuse `g` (and `R`, `i`) in a key spec loudly.
 * Fixed: sort reads the `g` ordering in a key (after POS1 or POS2) and as `-g`/`--general-numeric-sort`, comparing
 * as GNU's general_numcompare (strtold prefix, non-numbers < NaNs < numbers), in src/backends/worker-shell/isolate/
 * sort-keys.ts (compareGeneral, keyOptions, orderingError) patched in by scripts/gen-shell.mjs (SH37_PATCHES); keys
 * with `R`/`i` and incompatible orderings (`-k2gn`) are refused with status 2 (issue 20, run 37, fixer SH).
 * Siblings: test/workers/fix37/sort-general-numeric.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("sort -k2,2g orders the key by its value, as GNU sort 9.1", async () => {
  const r = await inShellWorkspace((ws) =>
    sh(ws, "printf 'a 10\\nb 9\\nc 1e3\\nd 2.5\\ne -1\\n' > n.txt; sort -k2,2g n.txt; echo ---; sort -k2,2gr n.txt; echo ---; printf 'x,0.5\\ny,10\\nz,9.75\\n' | sort -t, -k2g | tail -1", { cwd: "/workspace" }),
  );
  // Was: "e -1\na 10\nc 1e3\nd 2.5\nb 9\n---\nb 9\nd 2.5\nc 1e3\na 10\ne -1\n---\nz,9.75\n", stderr "", status 0
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["e -1\nd 2.5\nb 9\na 10\nc 1e3\n---\nc 1e3\na 10\nb 9\nd 2.5\ne -1\n---\ny,10\n", "", 0]);
});
