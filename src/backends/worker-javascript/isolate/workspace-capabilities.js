// @ts-check
/**
 * Module `workspace-capabilities.js` of every run's Dynamic Worker: the
 * capability channel that `node:fs` and the `ws:*` host-module stubs call
 * the host through (spec 02 §3.4, §3.6). Host calls are allowed only while
 * the default export runs; one made at module scope fails the run.
 *
 * Runs inside the Dynamic Worker, never in the host: this folder mirrors the
 * isolate's module tree (a file's path under isolate/ is its module name),
 * and isolate-source.generated.ts carries the text.
 */
/** @import { BridgeCallKind, BridgeError, IsolateBridge } from "../protocol.js" */

/** @type {IsolateBridge | null} */
let bridge = null;
/** Replay runs: the numbered, journaled call path of workspace-durable.js. */
/** @type {((kind: BridgeCallKind, target: string, name: string, args: unknown[]) => Promise<import("../protocol.js").BridgeResult>) | null} */
let replayCall = null;
/** @type {{ active: boolean, violation: Error | null }} */
const state = { active: false, violation: null };

/**
 * Installs the host's bridge; the runner calls it first thing in `evaluate`.
 * @param {IsolateBridge} b
 * @param {(kind: BridgeCallKind, target: string, name: string, args: unknown[]) => Promise<import("../protocol.js").BridgeResult>} [replay] in replay runs, the call path that numbers and journals calls.
 */
export function __install(b, replay) { bridge = b; replayCall = replay || null; }

/**
 * Opens (`true`, while the default export runs) or closes the channel.
 * @param {boolean} on
 */
export function __activate(on) { state.active = on; }

/**
 * The first call made while the channel was closed (at module scope), else `null`.
 * @returns {Error | null}
 */
export function __violation() { return state.violation; }

/**
 * The host's failure as an Error of the same class, message, `code` and `path`.
 * @param {BridgeError} e
 * @returns {Error & { code?: string, path?: string }}
 */
function rebuild(e) {
  const Ctor = e && e.name === "TypeError" ? TypeError : e && e.name === "RangeError" ? RangeError : Error;
  /** @type {Error & { code?: string, path?: string }} */
  const err = new Ctor(e && e.message ? e.message : String(e));
  if (e && typeof e.code === "string") err.code = e.code;
  if (e && typeof e.path === "string") err.path = e.path;
  return err;
}

/**
 * One host call. Resolves the host's value, typed `T` by the caller.
 *
 * @template T
 * @param {BridgeCallKind} kind
 * @param {string} target `""` for fs, the `ws:…` name for a host module.
 * @param {string} name the method or export called.
 * @param {unknown[]} args JSON-compatible data (and bytes).
 * @returns {Promise<T>}
 * @throws Error when the channel is closed (module scope), naming the call;
 *   the host's error rebuilt (see {@link rebuild}) when the call failed.
 */
export async function call(kind, target, name, args) {
  if (!state.active) {
    const what = kind === "fs" ? "fs." + name + "()" : target + " " + name + "()";
    const err = new Error(what + " was called at module scope (top level). File and host calls only work inside the default export: put them in export default async function (input) { ... }.");
    if (!state.violation) state.violation = err;
    throw err;
  }
  const r = replayCall ? await replayCall(kind, target, name, args) : await /** @type {IsolateBridge} */ (bridge).call(kind, target, name, args);
  if (!r.ok) throw rebuild(r.error);
  return /** @type {T} */ (r.value);
}
