/**
 * Issue 20, thirty-ninth attack run: `console.log` / `console.error` in a JavaScript run ignore Node's format
 * specifiers: `console.log("Processed %d files in %s", 5, "src")` prints `Processed %d files in %s 5 src` (Node 22:
 * `Processed 5 files in src`), `console.error("failed: %s", "disk")` prints `failed: %s disk` on stderr (Node:
 * `failed: disk`), and `%i %f %j %o %%` are printed as written with the arguments appended. The runner's console
 * (isolate/workspace-runtime-runner.js `show` / `line`) joins each argument's text with spaces and never reads the
 * first argument as a format string. docs/porting.md (Runtime) says "Console output is formatted like Node's" and the
 * runner's comment "Like Node's console"; only objects-as-JSON is listed as a difference.
 *
 * Node 22.23.3 on this machine:
 *   node -e 'console.log("Processed %d files in %s", 5, "src"); console.log("%o|%j|%i|%f|%%|%s", 1, 2, "3.7", "1.5", "x");
 *            console.error("failed: %s", "disk"); console.log("100%")'
 * → stdout "Processed 5 files in src\n1|2|3|1.5|%|x\n100%\n", stderr "failed: disk\n".
 *
 * Tried / Held: see js-node-timers-throw-swallowed.test.ts (same angle b); console of errors, Maps, BigInt, throwing
 * getters and proxies held (never fails a run).
 * Found (medium — a run's stdout/stderr, the text an agent reads back as the tool result, is wrong for the most common
 * printf-style logging idiom, silently; 2 of 2 runs): stdout "Processed %d files in %s 5 src\n%o|%j|%i|%f|%%|%s 1 2
 * 3.7 1.5 x\n100%\n", stderr "failed: %s disk\n".
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js `line`: when the first argument is
 * a string, substitute Node's `util.format` specifiers first (`%s` String / inspect, `%d` Number, `%i` parseInt,
 * `%f` parseFloat, `%j` JSON.stringify, `%o`/`%O` the object text `show` gives, `%c` consumed, `%%` → `%`; an
 * unmatched specifier stays as written), then join the remaining arguments with spaces as today.
 * Fixed: the runner's `line` applies Node's util.format specifiers when a string first argument has more arguments
 *   after it (isolate/workspace-runtime-runner.js) (issue 20, run 39, lead). Siblings:
 *   test/workers/fix39/js-console-format.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("console.log and console.error apply Node's format specifiers", async () => {
  const out = await inWorkspace(async (ws) => {
    const r = await (
      await ws.runtime.exec(
        `export default async () => {
           console.log("Processed %d files in %s", 5, "src");
           console.log("%o|%j|%i|%f|%%|%s", 1, 2, "3.7", "1.5", "x");
           console.error("failed: %s", "disk");
           console.log("100%");
           return 1;
         }`,
        { encoding: "utf8", timeoutMs: 10_000 },
      )
    ).result();
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ status: "completed", stdout: "Processed 5 files in src\n1|2|3|1.5|%|x\n100%\n", stderr: "failed: disk\n" });
}, 60_000);
