/**
 * Issue 20, eighteenth attack run: `workspace.runtime.pending({ offset, limit })`, the documented way to list the
 * calls waiting for an answer "a page at a time" (docs/runtime.md: "A page of 32 calls (PENDING_RPC_PAGE) always
 * crosses, whatever the payloads"), and what one page costs the object that lists it.
 * Tried: a Workspace over a nodeSqliteStorage file whose JavaScript backend (`onInterrupt: "replay"`, a host module
 * `ws:approve` whose `ask(payload)` is `ctx.interrupt(payload)`, as test/workers/durable/agent.ts) runs N = 96 runs;
 * each run's isolate (Node has no Worker Loader: a stand-in calling the real bridge, as
 * test/node/runtime/run-ownership.test.ts) asks once with a payload of 250,000 characters (within the 262,144
 * characters of JSON a payload may have) and waits. Then `pending({ limit: 1 })`, counting the characters its queries
 * read from storage (in probes also heap + array buffers sampled with attack6 `peak`). Held: every run waits (96
 * waiting calls listed); the page has the oldest call, payload whole; `respond()` reads only its own run's waits.
 * Found (medium — paging bounds what crosses RPC, not what the object holds; 3 of 3 runs): each page reads EVERY
 * waiting call of every module backend with its payload (`durable.waiting()`: one SELECT with no LIMIT, each payload
 * `JSON.parse`d), sorts them all, then slices — a page of 1 call reads 24,000,470 characters (all 96 payloads) and
 * parses each; in probes the page grew memory by 14.8 MB with 48 calls waiting and 48.1 MB with 96 (when the sampler
 * caught it), linear in the calls waiting. Nothing bounds how many runs may wait (a waiting run holds no Worker; calls
 * in flight when the first one waits may wait too), so an agent that leaves ~500 runs waiting makes every `pending()`
 * page of the approval UI hold ~250 MB (strings read + parsed copies): past the 128 MB of a Durable Object.
 * Suggested fix: page in SQL — order by (since, backend, id, seq) with LIMIT/OFFSET per backend (or a keyset cursor)
 * and read payloads only for the calls of the page (merge the backends' pages by `since`); and/or bound the calls
 * that may wait per backend (e.g. MAX_WAITING_CALLS, refusing `ctx.interrupt` past it with a code).
 * Fixed: `pending()` asks each module backend for the calls that may be on the page without payloads
 * (`handle.pending({ first: offset + limit, payloads: false })`: in SQL, the calls whose `since` is at most the
 * (offset + limit)-th oldest, ties included), sorts and slices as before, then reads only the page's payloads
 * (`handle.pending({ callIds })`, one row each). Same order, same pages.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import type { WorkspaceModuleCallContext } from "../../../src/modules/tools.js";
import { openWorkspace, storageFile } from "../runtime/temp-storage.js";
import { standInLoader } from "../runtime/loader-standin.js";

const RUNS = 96;
const PAYLOAD = 250_000;

/** A Worker Loader stand-in: each run asks `ws:approve` `ask` once (call 1 of a replay run) with its payload and waits. */
const loader = standInLoader(async (input: { tag: string }, bridge) => {
  const payload = input.tag + "x".repeat(PAYLOAD - input.tag.length);
  await bridge.call("host", "ws:approve", "ask", [payload], { seq: 1, tape: [] });
  return new Promise(() => {});
});

it("a pending() page holds only its own calls, not every waiting call's payload", { timeout: 60_000 }, async () => {
  const modules = { "ws:approve": { ask: (args: readonly unknown[], ctx: WorkspaceModuleCallContext) => ctx.interrupt(args[0] as string) } };
  const { ws, storage } = openWorkspace(storageFile(), (s) => new Workspace({ storage: s, backends: [new WorkerJavaScriptBackend({ loader: loader as never, onInterrupt: "replay", modules: modules as never })] }));
  await ws.fs.mkdir("/workspace", { recursive: true });
  for (let i = 0; i < RUNS; i++) await ws.runtime.exec("export default () => null;", { id: `r${i}`, input: { tag: `r${i}:` }, encoding: "utf8" });
  const end = Date.now() + 30_000;
  while ((await ws.runtime.pending()).length < RUNS && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect((await ws.runtime.pending()).length).toBe(RUNS);
  // Characters the page reads from storage (every string value of every row its queries return).
  let read = 0;
  const exec = storage.sql.exec.bind(storage.sql);
  const sql = storage.sql as { exec: typeof exec };
  sql.exec = ((query: string, ...bindings: unknown[]) => {
    const cursor = exec(query, ...(bindings as never[]));
    const toArray = cursor.toArray.bind(cursor);
    cursor.toArray = () => {
      const rows = toArray();
      for (const row of rows) for (const v of Object.values(row as object)) if (typeof v === "string") read += v.length;
      return rows;
    };
    return cursor;
  }) as typeof exec;
  let page: Awaited<ReturnType<typeof ws.runtime.pending>>;
  try {
    page = await ws.runtime.pending({ limit: 1 });
  } finally {
    sql.exec = exec;
  }
  expect(page.map((c) => [c.callId, (c.payload as string).length])).toEqual([["r0:1", PAYLOAD]]);
  // Found: 24,000,470 characters read (all 96 payloads) for a page of one call.
  expect(read).toBeLessThan(2 * PAYLOAD);
});
