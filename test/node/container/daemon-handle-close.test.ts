/**
 * daemonHandle closes the session it was given when it cannot make a handle of it: a daemon whose `info` fails, or whose boot id is
 * refused (EPROTO), leaves no WebSocket open that nothing owns (before: the connector's socket stayed open until the peer closed it).
 */
import { expect, it } from "vitest";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

async function attempt(info: () => Promise<unknown>): Promise<{ outcome: string; closes: number }> {
  let closes = 0;
  const api = { ...emptyDaemon(), info } as unknown as DaemonApi;
  const outcome = await daemonHandle(api, { closed: new Promise<void>(() => {}), close: () => void closes++ }).then(
    (h) => `handle ${h.runtimeId}`,
    (e: { code?: string; message?: string }) => `${e.code ?? "no code"}: ${String(e.message).slice(0, 60)}`,
  );
  return { outcome, closes };
}

it("a refused boot id or a failed info closes the transport once; a good one leaves it to the handle", async () => {
  expect(await attempt(async () => ({ mountPoint: "/workspace", ignore: [], bootId: { x: 1 } }))).toEqual({
    outcome: "EPROTO: EPROTO: the container's daemon announced a boot id that is n",
    closes: 1,
  });
  expect(await attempt(async () => Promise.reject(Object.assign(new Error("ECONNRESET: gone"), { code: "ECONNRESET" })))).toEqual({
    outcome: "ECONNRESET: ECONNRESET: gone",
    closes: 1,
  });
  expect(await attempt(async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }))).toEqual({ outcome: "handle boot-1", closes: 0 });
});
