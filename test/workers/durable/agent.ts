/**
 * The Durable Object of the durable-run tests (issue 16, spec 02 §5): a
 * Workspace owned through `withWorkspace` with three JavaScript backends that
 * reach the network directly (`egress: { mode: "direct" }`, so a run can
 * `fetch` the loopback server of test/shared/http-global-setup.ts):
 *
 * - `"worker-javascript"` (the default): `onWait` records each wait in
 *   `t_waits`;
 * - `"throwing-wait"`: `onWait` records the wait, then throws
 *   `onWait failed on purpose`;
 * - `"replaying"`: like the default, with `onInterrupt: "replay"` as the
 *   backend's policy (the exec tool passes no policy).
 *
 * All have the host modules
 * - `ws:approve` — `ask(payload)` (waits for an answer through
 *   `ctx.interrupt`, then sends it once per `ctx.callId`), `askTwice(payload)`
 *   (calls `ctx.interrupt` a second time after the answer) and
 *   `askSized(chars)` (a payload whose JSON is `chars` characters long);
 * - `ws:side` — `bump(key)` (a side-effect counter), `hold(tag, firstMs,
 *   laterMs)` (sleeps `firstMs` on its first invocation for `tag`, `laterMs`
 *   on later ones, so a restart catches it in flight) and `holdUnsafe` (the
 *   same, wrapped with `unsafeToRepeat`).
 *
 * Every host invocation is recorded with its `ctx.callId` in `t_calls`. The
 * tables are this test object's own (no `__ws_` prefix). The backend options
 * read `t_config` when the object is constructed, so a test can change the
 * compatibility date (`compatibilityDate`) or `maxStdioBytes` across a
 * restart.
 */
import { DurableObject } from "cloudflare:workers";
import {
  unsafeToRepeat,
  withWorkspace,
  type WorkspaceModuleCallContext,
  type WorkspaceRuntimePendingCall,
  type WorkspaceRuntimeValue,
} from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";
import { WORKSPACE } from "../../../src/do/symbol.js";

/** One row of `t_calls`: a host-function invocation. */
export type CallRow = {
  n: number;
  fn: string;
  callId: string;
  tag: string | null;
  startedAt: number;
  endedAt: number | null;
};

/** One row of `t_waits`: an `onWait` invocation. */
export type WaitRow = {
  backend: string;
  id: string;
  callId: string;
  payload: string;
  since: number;
  /** The backend whose onWait was called. */
  receiver: string;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

class DurableBase extends DurableObject<Cloudflare.Env> {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS t_config (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS t_sent (call_id TEXT PRIMARY KEY, body TEXT NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS t_calls (n INTEGER PRIMARY KEY AUTOINCREMENT, fn TEXT NOT NULL, call_id TEXT NOT NULL, tag TEXT, started_at INTEGER NOT NULL, ended_at INTEGER)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS t_counters (key TEXT PRIMARY KEY, n INTEGER NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS t_waits (n INTEGER PRIMARY KEY AUTOINCREMENT, receiver TEXT NOT NULL, backend TEXT NOT NULL, id TEXT NOT NULL, call_id TEXT NOT NULL, payload TEXT NOT NULL, since INTEGER NOT NULL)",
    );
  }
  get sql(): SqlStorage {
    return this.ctx.storage.sql;
  }
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get loader(): WorkerLoader {
    return this.env.LOADER;
  }
  /** A `t_config` value, or undefined. */
  config(key: string): string | undefined {
    const row = [...this.sql.exec<{ value: string }>("SELECT value FROM t_config WHERE key = ?", key)][0];
    return row?.value;
  }

  #startCall(fn: string, ctx: WorkspaceModuleCallContext, tag: string | null): number {
    const row = [
      ...this.sql.exec<{ n: number }>("INSERT INTO t_calls (fn, call_id, tag, started_at) VALUES (?, ?, ?, ?) RETURNING n", fn, ctx.callId, tag, Date.now()),
    ][0]!;
    return row.n;
  }
  #endCall(n: number): void {
    this.sql.exec("UPDATE t_calls SET ended_at = ? WHERE n = ?", Date.now(), n);
  }

  /** The host modules (the same for every backend). */
  modules(): WorkerJavaScriptBackendOptions["modules"] {
    const sql = () => this.sql;
    const start = (fn: string, ctx: WorkspaceModuleCallContext, tag: string | null = null) => this.#startCall(fn, ctx, tag);
    const end = (n: number) => this.#endCall(n);
    const arg0 = (args: readonly unknown[]) => (args[0] ?? null) as WorkspaceRuntimeValue;
    const hold = async (fn: string, args: readonly unknown[], ctx: WorkspaceModuleCallContext) => {
      const [tag, firstMs, laterMs] = args as [string, number, number];
      const before = [...sql().exec<{ c: number }>("SELECT count(*) AS c FROM t_calls WHERE fn = ? AND tag = ?", fn, tag)][0]!.c;
      const n = start(fn, ctx, tag);
      await sleep(before === 0 ? firstMs : laterMs, ctx.signal);
      end(n);
      return { tag, invocation: before + 1 };
    };
    return {
      "ws:approve": {
        async ask(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          const n = start("ask", ctx);
          const answer = await ctx.interrupt(arg0(args));
          sql().exec("INSERT OR IGNORE INTO t_sent (call_id, body) VALUES (?, ?)", ctx.callId, JSON.stringify({ payload: args[0] ?? null, answer }));
          end(n);
          return answer;
        },
        async askTwice(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          const n = start("askTwice", ctx);
          const answer = await ctx.interrupt(arg0(args));
          let second: unknown;
          try {
            second = { value: await ctx.interrupt({ again: arg0(args) }) };
          } catch (error) {
            second = { name: (error as Error).name, message: (error as Error).message };
          }
          end(n);
          return { answer, second };
        },
        async askSized(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          const n = start("askSized", ctx);
          // a string payload of `chars` JSON characters: the two quotes count
          const payload = "p".repeat((args[0] as number) - 2);
          try {
            const answer = await ctx.interrupt(payload);
            return { answerLength: JSON.stringify(answer).length };
          } catch (error) {
            return { name: (error as Error).name, message: (error as Error).message };
          } finally {
            end(n);
          }
        },
      },
      "ws:side": {
        bump(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          const key = String(args[0]);
          const n = start("bump", ctx, key);
          const row = [
            ...sql().exec<{ n: number }>(
              "INSERT INTO t_counters (key, n) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1 RETURNING n",
              key,
            ),
          ][0]!;
          end(n);
          return row.n;
        },
        hold(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          return hold("hold", args, ctx);
        },
        holdUnsafe: unsafeToRepeat(function holdUnsafe(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
          return hold("holdUnsafe", args, ctx);
        }),
      },
    };
  }

  /** An `onWait` that records the call under `receiver` (and then throws when `fail`). */
  onWait(receiver: string, fail: boolean): (call: WorkspaceRuntimePendingCall) => void {
    return (call) => {
      this.sql.exec(
        "INSERT INTO t_waits (receiver, backend, id, call_id, payload, since) VALUES (?, ?, ?, ?, ?, ?)",
        receiver,
        call.backend,
        call.id,
        call.callId,
        JSON.stringify(call.payload),
        call.since,
      );
      if (fail) throw new Error("onWait failed on purpose");
    };
  }

  backendOptions(id: string, fail: boolean, onInterrupt?: "replay"): WorkerJavaScriptBackendOptions {
    const compatibilityDate = this.config("compatibilityDate");
    const maxStdioBytes = this.config("maxStdioBytes");
    return {
      id,
      ...(onInterrupt ? { onInterrupt } : {}),
      loader: this.loader,
      egress: { mode: "direct" },
      modules: this.modules(),
      ...(compatibilityDate ? { compatibilityDate } : {}),
      ...(maxStdioBytes ? { maxStdioBytes: Number(maxStdioBytes) } : {}),
      onWait: this.onWait(id, fail),
    };
  }
}

/** A Durable Object with a Workspace, three JavaScript backends and the recording host modules above. */
export class DurableAgent extends withWorkspace(DurableBase, (self) => ({
  storage: self.storage,
  backends: [
    new WorkerJavaScriptBackend(self.backendOptions("worker-javascript", false)),
    new WorkerJavaScriptBackend(self.backendOptions("throwing-wait", true)),
    new WorkerJavaScriptBackend(self.backendOptions("replaying", false, "replay")),
  ],
})) {
  /** `t_sent`: the side effects of `ask`, one per callId. */
  sentRows(): { callId: string; body: string }[] {
    return [...this.sql.exec<{ callId: string; body: string }>("SELECT call_id AS callId, body FROM t_sent ORDER BY rowid")];
  }
  /** `t_calls`: every host invocation, in order. */
  callRows(): CallRow[] {
    return [
      ...this.sql.exec<CallRow>(
        "SELECT n, fn, call_id AS callId, tag, started_at AS startedAt, ended_at AS endedAt FROM t_calls ORDER BY n",
      ),
    ];
  }
  /** `t_waits`: every onWait invocation, in order. */
  waits(): WaitRow[] {
    return [
      ...this.sql.exec<WaitRow>(
        "SELECT receiver, backend, id, call_id AS callId, payload, since FROM t_waits ORDER BY n",
      ),
    ];
  }
  /** `t_counters`: key → count. */
  counters(): Record<string, number> {
    return Object.fromEntries([...this.sql.exec<{ key: string; n: number }>("SELECT key, n FROM t_counters ORDER BY key")].map((r) => [r.key, r.n]));
  }
  /** `workspace.runtime.recover()` (resumes interrupted runs, spec 02 §5). */
  async recover(): Promise<void> {
    await this[WORKSPACE].runtime.recover();
  }
  /** `workspace.ready({ all: true })` (connects every backend, which resumes interrupted runs). */
  async readyAll(): Promise<void> {
    await this[WORKSPACE].ready({ all: true });
  }
  /** Sets the object's alarm `ms` from now; the alarm calls `runtime.recover()` and records `alarm` in `t_counters`. */
  async recoverFromAlarmIn(ms: number): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + ms);
  }
  override async alarm(): Promise<void> {
    await this[WORKSPACE].runtime.recover();
    this.sql.exec("INSERT INTO t_counters (key, n) VALUES ('alarm', 1) ON CONFLICT (key) DO UPDATE SET n = n + 1");
  }
  /** Sets a `t_config` value; the backends read it when the object is next constructed. */
  setConfig(key: string, value: string): void {
    this.sql.exec("INSERT INTO t_config (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}
