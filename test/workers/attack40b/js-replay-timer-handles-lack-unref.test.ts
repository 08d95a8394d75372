/**
 * Issue 20, run 40, attacker b: in a replay run (`onInterrupt: "replay"`) the global `setTimeout`, `setInterval` and
 * `setImmediate` return plain numbers, so Node's handle methods are missing: `setTimeout(fn, ms).unref()` — the
 * common idiom for a watchdog timer — throws `TypeError: t.unref is not a function` and fails the run, as do
 * `ref()`, `hasRef()` and `refresh()`. The same code in a run with the default policy (`"fail"`) gets workerd's
 * Timeout / Immediate objects, which have them, as Node's do. So code that works live breaks only once a run is made
 * durable. docs/runtime.md ("What a replay run gets back") says the timers "replay identically" and documents no
 * change of their return value.
 * Cause: isolate/workspace-durable.js `installReplay` — the recorded timers "get numbers in creation order" and
 * return that number as the handle (the module comment at the top); no object with `unref`/`ref`/`hasRef`/`refresh`
 * (a no-op for unref/ref here: pending timers are not waited for anyway) wraps it.
 *
 * Reproduction (the default export of a run, backend option onInterrupt "replay"):
 *   const t = setTimeout(() => {}, 10_000), i = setInterval(() => {}, 10_000), im = setImmediate(() => {});
 *   return [typeof t, typeof i, typeof im, t.unref() === t, t.hasRef(), t.ref() === t, t.hasRef(),
 *           t.refresh() === t, i.unref() === i, typeof im.unref, typeof im.ref];   (timers cleared after)
 * Today (replay): status failed, exit 1, stderr "t.unref is not a function" (probe: typeof t is "number",
 *   t.unref undefined); with onInterrupt "fail" the run completes with Node's value.
 * Node 22.23.3 (`node /tmp/t.mjs` with the same function, this machine):
 *   ["object","object","object",true,false,true,true,true,true,"function","function"]
 * Severity: medium (a run that works live fails once durable; an agent's durable run crashes on a Node idiom).
 * Fixed in run 40 by fixer f40js: replay timers return Timeout / Immediate handles (workspace-durable.js installReplay) with ref/unref/hasRef/refresh/close and the number as primitive.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = `export default async () => {
  const t = setTimeout(() => {}, 10_000), i = setInterval(() => {}, 10_000), im = setImmediate(() => {});
  const r = [typeof t, typeof i, typeof im, t.unref() === t, t.hasRef(), t.ref() === t, t.hasRef(), t.refresh() === t, i.unref() === i, typeof im.unref, typeof im.ref];
  clearTimeout(t); clearInterval(i); clearImmediate(im);
  return r;
}`;
const NODE = ["object", "object", "object", true, false, true, true, true, true, "function", "function"];

for (const onInterrupt of ["fail", "replay"] as const) {
  it(`timer handles have Node's unref/ref/hasRef/refresh (onInterrupt ${onInterrupt})`, async () => {
    const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result(), {
      backend: { onInterrupt },
    });
    expect({ status: r.status, value: r.value, stderr: r.stderr }).toEqual({ status: "completed", value: NODE, stderr: "" });
  }, 60_000);
}
