import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

// The isolate checks a run's result, but code in the run can replace what it
// checks with; the host checks the bytes it received again (spec 02 §3.3).
describe("host-side checks of a run's result", () => {
  it("refuses a result over maxResultBytes even when the run replaced TextEncoder.prototype.encode", async () => {
    const out = await inWorkspace(
      async (ws) => {
        const h = await ws.runtime.exec(
          `export default () => {
            const real = TextEncoder.prototype.encode;
            TextEncoder.prototype.encode = function (s) { return String(s).length > 4096 ? new Uint8Array(2) : real.call(this, s); };
            return "x".repeat(8 * 1024 * 1024);
          }`,
          { id: "big", encoding: "utf8" },
        );
        const r = await h.result();
        const again = await (await ws.runtime.getExec("big", { encoding: "utf8" })).result();
        return { r: { status: r.status, exitCode: r.exitCode, stderr: r.stderr, value: r.value }, again: { status: again.status, value: again.value } };
      },
      { backend: { maxResultBytes: 1024 } },
    );
    expect(out.r).toEqual({
      status: "failed",
      exitCode: 1,
      stderr: `The default export returned ${8 * 1024 * 1024 + 2} bytes of JSON, over maxResultBytes (1024 bytes).\n`,
      value: undefined,
    });
    expect(out.again).toEqual({ status: "failed", value: undefined });
  });

  it("fails a run whose result the host cannot parse as JSON (the run replaced JSON.stringify)", async () => {
    const out = await inWorkspace(async (ws) => {
      const h = await ws.runtime.exec(
        `export default () => { JSON.stringify = () => "{not json"; return { a: 1 }; }`,
        { id: "bad", encoding: "utf8" },
      );
      const r = await h.result();
      const again = await (await ws.runtime.getExec("bad", { encoding: "utf8" })).result();
      return { r: { status: r.status, exitCode: r.exitCode, stderr: r.stderr, value: r.value }, again: { status: again.status, exitCode: again.exitCode } };
    });
    expect(out.r).toEqual({
      status: "failed",
      exitCode: 1,
      stderr: "The default export returned a value the host could not read as JSON.\n",
      value: undefined,
    });
    expect(out.again).toEqual({ status: "failed", exitCode: 1 });
  });
});
