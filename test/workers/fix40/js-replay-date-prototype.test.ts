/**
 * Issue 20, run 40, fixer f40js: sibling of attack40b/js-replay-date-length-and-prototype — in a replay run
 * `Date.prototype = {}` leaves Date's prototype as it was (sloppy mode: ignored; here in a module, strict: a
 * TypeError, as in Node 22: `node --input-type=module -e 'try { Date.prototype = {} } catch (e) { console.log(e.name) }'`
 * → TypeError), and dates made after it still are Dates whose constructor is the global Date.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = `export default async () => {
  const proto = Date.prototype;
  let threw = "no";
  try { Date.prototype = {}; } catch (e) { threw = e.name; }
  const d = new Date(0);
  return [threw, Date.prototype === proto, d instanceof Date, d.constructor === Date, d.toISOString(), typeof Date()];
}`;

for (const onInterrupt of ["fail", "replay"] as const) {
  it(`Date.prototype cannot be replaced (onInterrupt ${onInterrupt})`, async () => {
    const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result(), {
      backend: { onInterrupt },
    });
    expect({ status: r.status, value: r.value }).toEqual({
      status: "completed",
      value: ["TypeError", true, true, true, "1970-01-01T00:00:00.000Z", "string"],
    });
  }, 60_000);
}
