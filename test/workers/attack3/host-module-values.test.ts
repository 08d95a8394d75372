/**
 * Issue 20 third attack run, category 1: values crossing between the sandbox
 * and host modules (`ws:*`). Hostile arguments from the sandbox (100,000
 * deep, Dates, Maps, a cycle the isolate cannot send) and hostile values
 * from a host function (throwing getters, throwing Proxy traps, cycles,
 * 100,000 deep, BigInt, functions, class instances, 5 MB strings) and
 * hostile rejections (null-prototype objects, throwing toString/name
 * getters, non-Errors) are each one catchable error in the sandbox; the run
 * and later calls go on.
 *
 * Found here: the host's bridge call, documented never to throw, threw
 * while describing a rejection whose fields or string conversion throw —
 * the sandbox saw `TypeError: Cannot convert object to primitive value` for
 * `throw Object.create(null)` and `Error: name boom` for a throwing `name`
 * getter, errors about the bridge's own failure. It now describes such a
 * value as far as it can be read.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const deep = () => {
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = [v];
  return v;
};
class Point {
  x = 1;
}

const host = {
  "ws:evil": {
    echo: (args: readonly unknown[]) => (Array.isArray(args[0]) ? "array" : typeof args[0]),
    throwingGetter: () => ({ get boom() { throw new Error("getter boom"); } }),
    trap: () => new Proxy({}, { ownKeys() { throw new Error("trap boom"); }, get() { throw new Error("trap boom"); } }),
    cycle: () => {
      const o: Record<string, unknown> = {};
      o.self = o;
      return o;
    },
    deep,
    bigint: () => ({ n: 10n }),
    fn: () => ({ f: () => 1 }),
    instance: () => new Point(),
    huge: () => "x".repeat(5_000_000),
    nan: () => ({ n: NaN }),
    rejectNullProto: async () => {
      throw Object.create(null);
    },
    rejectToString: async () => {
      throw { toString() { throw new Error("toString boom"); }, get name() { throw new Error("name boom"); }, get message() { throw new Error("message boom"); } };
    },
    rejectString: async () => {
      throw "plain string";
    },
    rejectUndefined: async () => {
      throw undefined;
    },
    ok: () => "still fine",
  },
};

describe("attack3: hostile values between the sandbox and host modules", () => {
  it("each hostile value or rejection is one catchable error; the run and later calls go on", async () => {
    const r = await inWorkspace(
      async (ws) =>
        (
          await ws.runtime.exec(
            `import * as evil from "ws:evil";
             const attempt = async (fn) => { try { const v = await fn(); return "value " + JSON.stringify(v).slice(0, 40); } catch (e) { return "error " + (e && e.name) + ": " + String(e && e.message).slice(0, 120); } };
             export default async () => {
               let d = 1; for (let i = 0; i < 100000; i++) d = [d];
               const cyc = {}; cyc.self = cyc;
               const out = {};
               out.argDeep = await attempt(() => evil.echo(d));
               out.argDate = await attempt(() => evil.echo(new Date(0)));
               out.argMap = await attempt(() => evil.echo(new Map([[1, 2]])));
               out.argCycle = await attempt(() => evil.echo(cyc));
               for (const name of ["throwingGetter", "trap", "cycle", "deep", "bigint", "fn", "instance", "huge", "nan", "rejectNullProto", "rejectToString", "rejectString", "rejectUndefined"]) {
                 out[name] = await attempt(() => evil[name]());
               }
               out.ok = await attempt(() => evil.ok());
               return out;
             };`,
            { encoding: "utf8" },
          )
        ).result(),
      { backend: { modules: host as never } },
    );
    expect(r.exitCode).toBe(0);
    const v = r.value as Record<string, string>;
    for (const [k, text] of Object.entries(v)) {
      if (k === "ok" || k === "nan") continue;
      expect(text, k).toMatch(/^error /);
    }
    expect(v.ok).toBe('value "still fine"');
    // a non-finite number is not JSON: refused like the other non-plain values
    expect(v.nan).toMatch(/^error .*non-finite number/);
    expect(v.argDate).toMatch(/holds a Date/);
    expect(v.huge).toMatch(/over maxCapabilityBytes/);
    expect(v.throwingGetter).toMatch(/getter boom/);
    expect(v.rejectString).toBe("error Error: plain string");
    expect(v.rejectUndefined).toBe("error Error: undefined");
    expect(v.rejectNullProto).toBe("error Error: a host function threw a value that cannot be converted to a string");
    expect(v.rejectToString).toBe("error Error: a host function threw a value that cannot be converted to a string");
  });
});
