import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

describe("thrown values", () => {
  it("a thrown value that cannot be stringified keeps earlier stdout and fails with a safe description (A3)", async () => {
    const out = await inWorkspace(async (ws) => {
      const nullProto = await (await ws.runtime.exec(`export default () => { console.log("before"); throw Object.create(null); }`, { encoding: "utf8" })).result();
      const badToString = await (
        await ws.runtime.exec(`export default () => { console.log("before"); throw { toString() { throw new Error("no"); } }; }`, { encoding: "utf8" })
      ).result();
      const rejection = await (
        await ws.runtime.exec(`export default () => { console.log("before"); Promise.reject(Object.create(null)); return 1; }`, { encoding: "utf8" })
      ).result();
      const pick = (r: { exitCode: number | null; stdout: string; stderr: string }) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
      return { nullProto: pick(nullProto), badToString: pick(badToString), rejection: pick(rejection) };
    });
    expect(out).toEqual({
      nullProto: { exitCode: 1, stdout: "before\n", stderr: "[object with null prototype]\n" },
      badToString: { exitCode: 1, stdout: "before\n", stderr: "Uncaught exception (could not be converted to a string)\n" },
      rejection: { exitCode: 1, stdout: "before\n", stderr: "Unhandled rejection: [object with null prototype]\n" },
    });
  });
});
