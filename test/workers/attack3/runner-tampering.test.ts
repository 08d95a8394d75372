/**
 * Issue 20 third attack run, category 1: code that replaces what the runner
 * itself uses after the default export returns — setTimeout (the runner
 * waits one macrotask, and output is sent after one), the process object and
 * its exitCode, Array/String methods the console and error paths use,
 * Object.keys the result check uses. Whatever the code breaks, it breaks
 * only its own run: the run settles in bounded time with a recorded status,
 * the host's checks hold, and the next run works.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const CASES: Record<string, string> = {
  setTimeoutNoop: `export default () => { globalThis.setTimeout = () => 0; console.log("x"); return 1; }`,
  setTimeoutThrows: `export default () => { globalThis.setTimeout = () => { throw new Error("no timers"); }; return 1; }`,
  processReplaced: `export default () => { globalThis.process = { exitCode: { valueOf() { throw new Error("valueOf boom"); } } }; return 1; }`,
  exitCodeGetter: `export default () => { Object.defineProperty(process, "exitCode", { get() { throw new Error("getter boom"); } }); return 1; }`,
  arrayMethods: `export default () => { Array.prototype.map = function () { return ["forged"]; }; Array.prototype.join = function () { return "forged"; }; console.log("a", "b"); return [1, 2]; }`,
  stringSplit: `export default () => { String.prototype.split = function () { throw new Error("split boom"); }; throw new Error("original"); }`,
  objectKeys: `export default () => { Object.keys = () => ["__proto__"]; return { a: 1 }; }`,
  definePropertyThrows: `export default () => { Object.defineProperty = () => { throw new Error("dp boom"); }; return { a: 1 }; }`,
  uint8Replaced: `export default () => { globalThis.Uint8Array = function () { throw new Error("u8 boom"); }; console.log("out"); return 1; }`,
};

describe("attack3: code that breaks the runner's own tools", () => {
  it("every run settles in bounded time with a status; the host's checks hold; the next run works", async () => {
    const r = await inWorkspace(async (ws) => {
      const out: Record<string, unknown> = {};
      for (const [name, source] of Object.entries(CASES)) {
        const started = Date.now();
        const result = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 3000 })).result().catch((e: Error) => ({ rejected: e.message }));
        out[name] = { ...(result as object), ms: Date.now() - started };
      }
      out.next = (await (await ws.runtime.exec(`export default () => "next"`)).result()).value;
      return out;
    });
    for (const name of Object.keys(CASES)) {
      const o = r[name] as { status?: string; exitCode?: number; value?: unknown; ms: number };
      expect(o.status, `${name}: ${JSON.stringify(o)}`).toMatch(/^(completed|failed)$/);
      expect(o.ms, name).toBeLessThan(6000);
      if (o.status === "completed") expect(o.exitCode).toBe(0);
    }
    // a run that takes the global timer away no longer takes the runner's: the runner keeps the
    // real setTimeout from before the code ran (it used to end with workerd's hung-code error)
    expect(r.setTimeoutNoop).toMatchObject({ status: "completed", exitCode: 0, stdout: "x\n", value: 1 });
    expect(r.exitCodeGetter).toMatchObject({ status: "failed", exitCode: 1, stderr: "getter boom\n" });
    expect(r.stringSplit).toMatchObject({ status: "failed", exitCode: 1, stderr: "split boom\n" });
    // a forged result is the code's own value (it could return it outright); a "__proto__" key in it
    // stays an own key on the host and changes no prototype
    const forged = (r.objectKeys as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(forged)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(forged, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("a");
    expect(r.next).toBe("next");
  });
});
