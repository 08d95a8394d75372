/**
 * Issue 20, run 40, attacker b: `process.nextTick(notAFunction)` in a JavaScript run does not throw at the call:
 * the runner's shim (isolate/workspace-runtime-runner.js, `proc.nextTick: (fn, ...args) => queueMicrotask(() =>
 * fn(...args))`) queues it, and the microtask then throws `TypeError: fn is not a function` (naming the shim's own
 * parameter and a stack in workspace-runtime-runner.js), which ends the run with exit 1 — the code's `try`/`catch`
 * around the call never sees it. Node checks the callback first and throws synchronously, a catchable TypeError
 * with code `ERR_INVALID_ARG_TYPE` (`The "callback" argument must be of type function. Received type number (5)`);
 * the global `queueMicrotask(5)` in the same run already throws at the call as Node's does.
 *
 * Node 22.23.3 on this machine:
 *   node -e 'try { process.nextTick(5) } catch (e) { console.log(e.name, e.code, e.message) }'
 *   → "TypeError ERR_INVALID_ARG_TYPE The "callback" argument must be of type function. Received type number (5)"
 * Today: status failed, exit 1, stderr "TypeError: fn is not a function\n    at workspace-runtime-runner.js:…",
 * no value.
 * Severity: low (a misleading error naming the runner's internals; a caught mistake fails the run).
 * Fixed in run 40 by fixer f40js: `process.nextTick` checks its callback at the call (ERR_INVALID_ARG_TYPE, Node's message).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("process.nextTick with a non-function throws ERR_INVALID_ARG_TYPE at the call", async () => {
  const r = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(
        `export default async () => {
           try { process.nextTick(5); return "no throw"; } catch (e) { return [e.name, e.code, e.message]; }
         }`,
        { encoding: "utf8", timeoutMs: 10_000 },
      )
    ).result(),
  );
  expect({ status: r.status, exitCode: r.exitCode, value: r.value, stderr: r.stderr }).toEqual({
    status: "completed",
    exitCode: 0,
    value: ["TypeError", "ERR_INVALID_ARG_TYPE", 'The "callback" argument must be of type function. Received type number (5)'],
    stderr: "",
  });
}, 60_000);
