/**
 * Issue 20, run 40, fixer f40js: sibling of attack40b/js-replay-timer-handles-lack-unref — what the Timeout /
 * Immediate handles of a replay run do beyond ref/unref/hasRef, checked against the same code with the default
 * policy (workerd's own handles): `clearTimeout` / `clearInterval` take the handle or its number (`+t`), `close()`
 * clears, `refresh()` re-arms a pending timer so it fires once, `clearImmediate` takes the handle, and a non-function
 * callback still throws at the call.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = `export default async () => {
  const log = [];
  const a = setTimeout(() => log.push("a"), 5); clearTimeout(+a);
  const b = setTimeout(() => log.push("b"), 5); b.close();
  const c = setInterval(() => log.push("c"), 5); clearInterval(c);
  const r = setTimeout(() => log.push("r"), 20); r.refresh();
  const im = setImmediate(() => log.push("im")); clearImmediate(im);
  const kept = setTimeout(() => log.push("k"), 1);
  let threw = "no";
  try { setTimeout(5, 1); } catch (e) { threw = e.name; }
  await new Promise((res) => setTimeout(res, 80));
  return [log, typeof +r, String(kept) === String(+kept), threw];
}`;

for (const onInterrupt of ["fail", "replay"] as const) {
  it(`timer handles clear, close and refresh (onInterrupt ${onInterrupt})`, async () => {
    const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result(), {
      backend: { onInterrupt },
    });
    expect({ status: r.status, value: r.value, stderr: r.stderr }).toEqual({
      status: "completed",
      value: [["k", "r"], "number", true, "TypeError"],
      stderr: "",
    });
  }, 60_000);
}
