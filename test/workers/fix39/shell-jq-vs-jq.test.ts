/**
 * Issue 20, thirty-ninth run, fixer JQ: siblings of attack39e's jq findings (slice assignment, `\u` escapes, type
 * errors, sort order, walk/match/label/-j/@sh/@tsv). Every command line of test/shared/jq-cases.ts (about 135 jq
 * programs × inputs: slices assigned, updated and deleted; sort/unique/group_by/min/max/sort_by/unique_by over every
 * type; `==`/`<` across types; string escapes; type errors of `+ - * / %`, `.[]`, indexing; walk, match, label/break;
 * -j -r -e -S; @sh @tsv @csv @json @base64 @uri @html; everyday programs) runs in the shell and with the real jq
 * (Debian's jq 1.6 via bash 5.2, run by test/shared/jq-global-setup.ts): stdout and the exit status must match byte
 * for byte. Where jq 1.6 is known wrong the case is left out and named in KNOWN below (none compared against 1.7).
 * Fixer JQ2 (run 39) added ~55 path-expression programs: `path`, `del`, `paths`, `leaf_paths`, `map_values`, `=`, `|=`,
 * `+=`, `//=` through select, `..`, if, `//`, first, limit, getpath, try, label, defs, and `Invalid path expression` errors.
 */
import { expect, inject, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import jq from "../../../src/shell/jq.js";
import { JQ_CASES, JQ_FILES } from "../../shared/jq-cases.js";

const reference = inject("jqReference");

it.skipIf(reference === null)("the shell's jq prints what jq 1.6 prints, with its exit status", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (const [name, text] of Object.entries(JQ_FILES)) await ws.fs.writeFile(`/workspace/${name}`, text);
    const results: Record<string, { stdout: string; exitCode: number }> = {};
    for (const c of JQ_CASES) {
      const r = await sh(ws, c, { cwd: "/workspace" });
      results[c] = { stdout: r.stdout, exitCode: r.exitCode };
    }
    return results;
  }, { shell: { commands: [jq] } });
  expect(out).toEqual(reference);
}, 300_000);
