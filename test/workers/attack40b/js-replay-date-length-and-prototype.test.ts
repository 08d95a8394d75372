/**
 * Issue 20, run 40, attacker b: in a replay run (`onInterrupt: "replay"`) the global `Date` is the replayed clock's
 * `VirtualDate` (isolate/workspace-durable.js `installReplay`, `function VirtualDate(...args)` with
 * `VirtualDate.prototype = RealDate.prototype`), and it differs from Node's / workerd's `Date` where code can see it:
 * `Date.length` is 0 (Node 7: ECMA-262 §21.4.2 "The Date constructor … has a "length" property whose value is 7𝔽"),
 * and `Date.prototype` is a writable property (Node: { writable: false, enumerable: false, configurable: false }), so
 * `Date.prototype = {}` replaces it in a replay run and is ignored in a live one. A run with the default policy
 * (`"fail"`) gives Node's values — so this is a difference between a live and a durable run of the same code.
 * Fix direction: define `length` (7) and a non-writable, non-configurable `prototype` on VirtualDate.
 *
 * Node 22.23.3 on this machine:
 *   node -e 'const d = Object.getOwnPropertyDescriptor(Date, "prototype");
 *            console.log(JSON.stringify([Date.length, d.writable, d.enumerable, d.configurable]))'  →  [7,false,false,false]
 * Today: replay [0,true,false,false]; fail [7,false,false,false].
 * Severity: low.
 * Fixed in run 40 by fixer f40js: VirtualDate gets `length` 7 and a read-only `prototype` (workspace-durable.js installReplay).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = `export default async () => {
  const d = Object.getOwnPropertyDescriptor(Date, "prototype");
  return [Date.length, d.writable, d.enumerable, d.configurable];
}`;

for (const onInterrupt of ["fail", "replay"] as const) {
  it(`Date.length is 7 and Date.prototype is read-only (onInterrupt ${onInterrupt})`, async () => {
    const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result(), {
      backend: { onInterrupt },
    });
    expect({ status: r.status, value: r.value }).toEqual({ status: "completed", value: [7, false, false, false] });
  }, 60_000);
}
