import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

describe("exec id", () => {
  it("concurrent exec calls with one id: one runs, the others reject EEXEC_BUSY (B2)", async () => {
    const out = await inWorkspace(async (ws) => {
      const settled = await Promise.allSettled([1, 2, 3].map(() => ws.runtime.exec("export default 1", { id: "same" })));
      const fulfilled = settled.filter((s) => s.status === "fulfilled");
      const rejected = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as { code?: string; message: string }] : []));
      const value = fulfilled.length === 1 ? (await fulfilled[0].value.result()).value : undefined;
      return { fulfilled: fulfilled.length, rejected: rejected.map((e) => ({ code: e.code, message: e.message })), value };
    });
    expect(out.fulfilled).toBe(1);
    expect(out.rejected).toEqual([
      { code: "EEXEC_BUSY", message: 'execution "same" is already starting or running' },
      { code: "EEXEC_BUSY", message: 'execution "same" is already starting or running' },
    ]);
    expect(out.value).toBe(1);
  });
});
