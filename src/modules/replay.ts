/**
 * At-most-once host calls in replay runs (`onInterrupt: "replay"`, spec 02
 * §5), shared by the prebuilt modules whose calls change things
 * (`ws:container` exec, `ws:git` clone and writing `cli`).
 *
 * A replay run journals each host call's answer; when the Durable Object
 * restarts, calls whose answers are journaled are answered from the journal,
 * and a call that was in flight is called again with `ctx.resumed` `true`
 * and the same `ctx.callId`. {@link atMostOnce} makes such a call never
 * repeat its side effect: the first attempt runs it under a record id
 * derived from `ctx.callId` ({@link callRecordId}); the resumed call runs
 * `resume` instead, which finds the outcome recorded under that id (a
 * command that went on running outside the object) or rejects
 * {@link lostCallError} (`EEXEC_LOST`). {@link markAtMostOnce} has the
 * call's start journaled before it runs, so an interruption at any moment
 * is seen as one.
 *
 * @module
 */
import { journalStartAtOnce } from "../runtime/unsafe.js";
import type { WorkspaceModuleCallContext } from "./types.js";

const encoder = new TextEncoder();

/** The code of {@link lostCallError}. */
export const LOST_CALL_CODE = "EEXEC_LOST";

/**
 * The id a call's side effect is recorded under: `<prefix>:<callId>`, or,
 * when that is over 256 UTF-8 bytes, `<prefix>:` and the SHA-256 hex of
 * `callId`. Stable across replays (the callId is), so a resumed call finds
 * what its first attempt started, e.g. `ws:container:<callId>` as a runtime
 * run id.
 *
 * @example
 * ```ts
 * await callRecordId("ws:container", "r1:1"); // "ws:container:r1:1"
 * ```
 */
export async function callRecordId(prefix: string, callId: string): Promise<string> {
  const plain = `${prefix}:${callId}`;
  if (encoder.encode(plain).byteLength <= 256) return plain;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(callId)));
  return `${prefix}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** An Error with `message` and `code` `EEXEC_LOST`: a resumed call whose first attempt may have had its effect, whose outcome cannot be found, and which is not run again. */
export function lostCallError(message: string): Error {
  return Object.assign(new Error(message), { code: LOST_CALL_CODE });
}

/** What {@link atMostOnce} does with a call. */
export interface AtMostOnceSteps<T> {
  /** The first attempt: does the work, recording its outcome under `id` where it can. */
  run(id: string): Promise<T>;
  /**
   * A resumed call (`ctx.resumed`): must not do the work again; resolves the
   * outcome recorded under `id`, or rejects (usually {@link lostCallError}).
   */
  resume(id: string): Promise<T>;
}

/**
 * Runs one call at most once across replays: `steps.run(id)` on the first
 * attempt, `steps.resume(id)` when `ctx.resumed` (the call was in flight
 * when its replay run was interrupted), with `id` =
 * `callRecordId(prefix, ctx.callId)`. Outside replay runs `ctx.resumed` is
 * always `false`: the call just runs. Pair with {@link markAtMostOnce} on
 * the host function, or a call interrupted before its start was journaled
 * runs again as a first attempt.
 *
 * @example
 * ```ts
 * const send = markAtMostOnce(async ([to, body], ctx) =>
 *   atMostOnce(ctx, "ws:mail", {
 *     run: (id) => mailer.send(to, body, { idempotencyKey: id }),
 *     resume: async (id) => (await mailer.sent(id)) ?? Promise.reject(lostCallError(`mail ${id} may have been sent; not sent again.`)),
 *   }));
 * ```
 */
export async function atMostOnce<T>(ctx: Pick<WorkspaceModuleCallContext, "callId" | "resumed">, prefix: string, steps: AtMostOnceSteps<T>): Promise<T> {
  const id = await callRecordId(prefix, ctx.callId);
  return ctx.resumed === true ? steps.resume(id) : steps.run(id);
}

/**
 * Marks host function `fn` as one that keeps its calls from repeating
 * ({@link atMostOnce}): in a replay run each call's start — of every call,
 * or with `when` of the calls whose raw arguments make it return `true` —
 * is journaled before `fn` runs, not with the next flush, so a call
 * interrupted at any moment resumes with `ctx.resumed` `true`. Calls
 * `when` leaves out may repeat (read-only ones). Returns `fn`.
 *
 * @throws TypeError when `fn` or `when` is not a function.
 */
export function markAtMostOnce<F extends (...args: never[]) => unknown>(fn: F, when?: (args: readonly unknown[]) => boolean): F {
  return journalStartAtOnce(fn, when);
}
