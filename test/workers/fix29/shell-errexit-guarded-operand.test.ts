/**
 * Issue 20, run 29 (lead): siblings of scout18/shell-set-e-guarded-compound-ends-script — under `set -e`, a function
 * or group run as a non-final `&&`/`||` operand or negated with `!` runs with errexit (and the ERR trap) ignored
 * inside, as bash 5.2 does for an `if` condition; the final operand and a pipeline's left side keep it. Each expected
 * output below is real bash 5.2.15's (run side by side in a temp dir). Fix: the executeStatement patch "errexit
 * ignored in a guarded operand (LD)" in scripts/gen-shell.mjs and errexitIgnored() in isolate/shell-options.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("set -e is ignored inside guarded operands and kept elsewhere, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, [
    "set -e; f() { false; echo in; }; f && echo yes; echo after",
    "set -e; f() { false; echo in; return 3; }; ! f; echo \"st=$?\"; echo after",
    "set -e; { false; echo g; } && echo ok; echo after",
    "set -e; f() { false; echo in; }; f; echo after",
    "set -e; f() { false; echo in; }; true && f; echo after",
    "set -e; trap 'echo ERR' ERR; f() { false; echo in; }; f || echo c; echo after",
    "set -e; f() { false; echo in; }; if f; then echo t; fi; f | cat; echo after",
    "set -e; g() { false; echo g-in; }; f() { g; echo f-in; }; f || echo c; f; echo after",
  ], { collect });
  expect(out).toEqual([
    ["set -e; f() { false; echo in; }; f && echo yes; echo after", "in\nyes\nafter\n", "", 0],
    ["set -e; f() { false; echo in; return 3; }; ! f; echo \"st=$?\"; echo after", "in\nst=0\nafter\n", "", 0],
    ["set -e; { false; echo g; } && echo ok; echo after", "g\nok\nafter\n", "", 0],
    ["set -e; f() { false; echo in; }; f; echo after", "", "", 1],
    ["set -e; f() { false; echo in; }; true && f; echo after", "", "", 1],
    ["set -e; trap 'echo ERR' ERR; f() { false; echo in; }; f || echo c; echo after", "in\nafter\n", "", 0],
    ["set -e; f() { false; echo in; }; if f; then echo t; fi; f | cat; echo after", "in\nt\nafter\n", "", 0],
    ["set -e; g() { false; echo g-in; }; f() { g; echo f-in; }; f || echo c; f; echo after", "g-in\nf-in\n", "", 1],
  ]);
}, 60_000);
