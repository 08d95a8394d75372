/**
 * Issue 20, scout after the nineteenth attack run: `recordSpanError` (src/observer.ts) now calls
 * `span.setAttribute("error.name", errorNameOf(error))` unconditionally — `errorNameOf` is `undefined` for a thrown
 * non-Error (and an Error whose `name` cannot be read), so a custom observer's span now receives
 * `setAttribute("error.name", undefined)`, which the library never passed before (e710bcb: only for `Error` instances).
 * Tried: `withSpan` (what every traced operation runs under) with a custom observer recording each `setAttribute`
 * call, the operation rejecting with the string `"plain failure"`; then a strict observer whose `setAttribute` throws on
 * a value that is not a string/number/boolean (as a tracing SDK's validation may). Held: the rejection reaches the
 * caller unchanged; for an `Error` both attributes are recorded as before.
 * Found (low — custom observers only; the ready-made OpenTelemetry and Cloudflare observers drop undefined): docs/
 * observability.md says "Attributes whose value would be `undefined` are left out", but the recording observer gets
 * `[["error.name", undefined], ["error.message", "plain failure"]]`; and with the strict observer the throw on
 * `error.name` skips `error.message` too (both are in one try in recordSpanError) — the failure's message is no
 * longer recorded at all, where before it was.
 * Fixed: recordSpanError sets error.name only when errorNameOf gives one (as before the change).
 * Suggested fix: `const name = errorNameOf(error); if (name !== undefined) span.setAttribute("error.name", name);`
 * (or a try per attribute), as before the change.
 */
import { expect, it } from "vitest";
import type { WorkspaceObserver } from "../../../src/index.js";
import { withSpan } from "../../../src/observer.js";

it("a thrown non-Error sets only error.message on the span, also with an observer that refuses undefined values", async () => {
  const calls: [string, unknown][] = [];
  const recording: WorkspaceObserver = { span: (_n, _a, run) => run({ setAttribute: (k, v) => void calls.push([k, v]) }) };
  await expect(withSpan(recording, "workspace.test", {}, async () => Promise.reject("plain failure"))).rejects.toBe("plain failure");

  const strict: [string, unknown][] = [];
  const strictObserver: WorkspaceObserver = {
    span: (_n, _a, run) =>
      run({
        setAttribute: (k, v) => {
          if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw new TypeError(`attribute ${k}: invalid value`);
          strict.push([k, v]);
        },
      }),
  };
  await expect(withSpan(strictObserver, "workspace.test", {}, async () => Promise.reject("plain failure"))).rejects.toBe("plain failure");
  expect({ calls, strict }).toStrictEqual({ calls: [["error.message", "plain failure"]], strict: [["error.message", "plain failure"]] });
});
