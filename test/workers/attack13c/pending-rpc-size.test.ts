/**
 * Issue 20, thirteenth attack run: `runtime.pending()` over a remote client fails once the waiting calls
 * pass 32 MiB, so no approval can be listed.
 *
 * Tried: replay runs (`onInterrupt: "replay"`) on the durable-run test object (test/workers/durable/agent.ts)
 * whose code calls `askSized(262144)` of `ws:approve` — a host function that waits with
 * `ctx.interrupt(payload)`, the payload at the documented maximum (262,144 characters of JSON). Within one
 * run only one call waits at a time (32 concurrent asks leave 1 waiting — held), and each payload is
 * bounded (held). But the number of waiting runs is not: 136 runs (started in ~3 s) leave 136 waiting calls.
 *
 * Found (medium): docs/runtime.md says "Through a remote client (`getWorkspace(stub)`), `runtime.pending()`
 * and `runtime.respond()` work the same". In the object, `pending()` lists all 136; through
 * `getWorkspace(stub)` it rejects with workerd's bare `Error` (no code, no advice): `Serialized RPC arguments
 * or return values are limited to 32MiB, but the size of this value was: 35663129 bytes.` The person's UI
 * (which is remote: a Worker request) can then list none of the waiting calls — not even the first — and
 * cannot answer any (respond() needs each call's id and callId). Model-written code reaches this with any
 * approval module whose payload carries the model's text (the docs' `ws:mail` example sends `body`).
 * Reproduction:
 *
 *   for (136×) exec(`import { askSized } from "ws:approve"; export default async () => askSized(262144);`,
 *                    { onInterrupt: "replay" })
 *   await (await getWorkspace(stub)).runtime.pending();   // rejects: RPC value 35,663,129 bytes > 32 MiB
 *
 * Suggested fix: page `pending()` (`{ limit, offset }` or a cursor, and a payload-free listing) and have the
 * runtime stub measure its answer as the fs stub does (E2BIG naming the paging option), or bound the total
 * bytes of waiting payloads per Workspace.
 *
 * Fixed: `pending({ offset, limit })` lists one page (oldest first, ties by backend, id, callId), and
 * the runtime stub measures its answer as the fs stub does (src/do/rpc-size.ts): over 30 MiB it rejects
 * `E2BIG` naming `pending({ limit: 32, offset })` (PENDING_RPC_PAGE: 32 calls always cross).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { PENDING_RPC_PAGE } from "../../../src/do/rpc-size.js";
import { WORKSPACE } from "../../../src/do/symbol.js";
import type { WorkspaceRuntime } from "../../../src/runtime/index.js";
import { durable, sleep, start } from "../durable/helpers.js";

const SOURCE = `import { askSized } from "ws:approve";
export default async () => (await askSized(262144)).answerLength;`;
const RUNS = 136;

describe("attack13c: pending() through a remote client with many waiting calls", () => {
  it("rejects E2BIG naming the paging option, and lists every waiting call a page at a time, as in the object", { timeout: 120_000 }, async () => {
    const { fresh } = durable();
    // 8 clients start 17 runs each (136 runs), every one waiting on a 262,144-character payload.
    await Promise.all(
      Array.from({ length: 8 }, async (_, k) => {
        for (let i = 0; i < RUNS / 8; i++) await start(fresh(), SOURCE, { id: `w${k}-${i}`, onInterrupt: "replay" });
      }),
    );
    let local: string[] = [];
    for (let t = 0; t < 100 && local.length < RUNS; t++) {
      local = await runInDurableObject(fresh(), async (instance) =>
        (await (instance as unknown as Record<symbol, { runtime: WorkspaceRuntime }>)[WORKSPACE]!.runtime.pending()).map((c) => c.callId),
      );
      if (local.length < RUNS) await sleep(200);
    }
    expect(local.length).toBe(RUNS);
    using ws = await getWorkspace(fresh());
    const whole = await ws.runtime.pending().then(
      (calls) => ({ listed: calls.length }),
      (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
    );
    expect(whole).toEqual({
      code: "E2BIG",
      message:
        "runtime.pending(): the 136 waiting calls listed are over 31457280 bytes with their payloads, more than crosses RPC (workerd's limit is 32 MiB); list them a page at a time with pending({ limit: 32, offset })",
    });
    const listed: string[] = [];
    let payloadChars = 0;
    for (let offset = 0; ; offset += PENDING_RPC_PAGE) {
      const page = await ws.runtime.pending({ limit: PENDING_RPC_PAGE, offset });
      listed.push(...page.map((c) => c.callId));
      payloadChars += page.reduce((n, c) => n + JSON.stringify(c.payload).length, 0);
      if (page.length < PENDING_RPC_PAGE) break;
    }
    expect({ listed, payloadChars }).toEqual({ listed: local, payloadChars: RUNS * 262_144 });
    // A bigger page fits too while it is under 30 MiB (100 × 262,144 bytes).
    expect((await ws.runtime.pending({ offset: 36, limit: 1000 })).map((c) => c.callId)).toEqual(local.slice(36));
    await expect(ws.runtime.pending({ limit: -1 })).rejects.toThrow("pending({ limit }): limit must be an integer ≥ 0, got -1");
  });
});
