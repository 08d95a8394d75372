/**
 * Issue 20, run 40, attacker b: `console.log("%o", "hi")` (and `%O`) in a JavaScript run prints the string bare,
 * `hi`; Node's util.format prints `%o`/`%O` through util.inspect, which quotes a string: `'hi'`. The runner's `line`
 * (isolate/workspace-runtime-runner.js, `conv.o` / `conv.O` = `show`) returns a string argument as it is. The
 * documented difference (docs/porting.md Runtime: "`%o`/`%O` and objects under `%s` print as JSON like every object")
 * covers objects; even read as "as JSON" a string would be `"hi"`, never the bare text — so `%o` of a string is
 * neither Node's nor the documented output, and a logged value that is a string cannot be told from a number
 * (`console.log("%o %o", "5", 5)` prints `5 5`; Node `'5' 5`).
 *
 * Node 22.23.3 on this machine:
 *   node -e 'console.log("%o|%O", "hi", "x"); console.log("%o %o", "5", 5)'  →  "'hi'|'x'\n'5' 5\n"
 * Today: "hi|x\n5 5\n". Test written in run 40; the fix39 sibling (test/workers/fix39/js-console-format.test.ts) has
 * no `%o`/`%O` row with a string argument.
 * Severity: low.
 * Fixed in run 40 by fixer f40js: `%o`/`%O` print through the runner's `inspect`, which quotes a string as Node's util.inspect.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("%o and %O quote a string argument as Node's util.inspect does", async () => {
  const r = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(`export default async () => { console.log("%o|%O", "hi", "x"); console.log("%o %o", "5", 5); return 0; }`, {
        encoding: "utf8",
        timeoutMs: 10_000,
      })
    ).result(),
  );
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: "completed", stdout: "'hi'|'x'\n'5' 5\n" });
}, 60_000);
