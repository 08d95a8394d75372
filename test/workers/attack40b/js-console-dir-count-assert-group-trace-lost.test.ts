/**
 * Issue 20, run 40, attacker b: `console.dir`, `console.count` / `countReset`, `console.assert`, `console.trace` and
 * `console.group` / `groupEnd` in a JavaScript run print nothing to the run's stdout/stderr — their text goes to
 * workerd's own log and is lost to the caller — and `console.group` does not indent what `console.log` prints after
 * it. The runner (isolate/workspace-runtime-runner.js, the `for (const k of ["log", "info", "debug"])` /
 * `["warn", "error"]` loops after `line`) replaces only log/info/debug/warn/error; every other console method is
 * workerd's. docs/runtime.md ("Inside the isolate") and docs/porting.md (Runtime, "Console output is formatted like
 * Node's") document no such loss; the only console method documented as going to workerd's log is `console.time` /
 * `timeEnd` (a replay-run note, fixer RC, run 33). A failed `console.assert` is the common one: its message vanishes.
 *
 * Reproduction (one run):
 *   console.dir(5); console.count(); console.count("k"); console.count(); console.countReset(); console.count();
 *   console.group("G"); console.log("in"); console.error("ein"); console.groupEnd(); console.log("out");
 *   console.assert(false, "boom %s", "x"); console.assert(true, "no"); console.assert(0);
 *   console.trace("t %d", 1);
 * Today: stdout "in\nout\n", stderr "" (status completed).
 * Node 22.23.3 (`node -e '<the same lines>'`, this machine): stdout
 *   "5\ndefault: 1\nk: 1\ndefault: 2\ndefault: 1\nG\n  in\nout\n", stderr "  ein\nAssertion failed: boom x\n
 *   Assertion failed\nTrace: t 1\n    at …" (the trace's frames follow; only its first line is asserted).
 * Severity: medium — output silently lost (an agent's failed assertions and dumps never reach the tool result).
 * Fixed in run 40 by fixer f40js: the runner defines dir/dirxml/count/countReset/group/groupCollapsed/groupEnd/assert/trace/table as Node 22's (group indents both streams).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("console.dir/count/countReset/assert/trace/group print to the run's stdout and stderr as in Node", async () => {
  const r = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(
        `export default async () => {
           console.dir(5); console.count(); console.count("k"); console.count(); console.countReset(); console.count();
           console.group("G"); console.log("in"); console.error("ein"); console.groupEnd(); console.log("out");
           console.assert(false, "boom %s", "x"); console.assert(true, "no"); console.assert(0);
           console.trace("t %d", 1);
           return 0;
         }`,
        { encoding: "utf8", timeoutMs: 10_000 },
      )
    ).result(),
  );
  expect(r.status).toBe("completed");
  expect(r.stdout).toBe("5\ndefault: 1\nk: 1\ndefault: 2\ndefault: 1\nG\n  in\nout\n");
  expect(String(r.stderr).split("\n").slice(0, 4)).toEqual(["  ein", "Assertion failed: boom x", "Assertion failed", "Trace: t 1"]);
}, 60_000);
