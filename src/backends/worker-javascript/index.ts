/**
 * `WorkerJavaScriptBackend` (spec 02 §3): runs one ES module per run in a
 * fresh Dynamic Worker from the Worker Loader binding, against the
 * Workspace's durable files.
 *
 * ```ts
 * import { Workspace } from "agent-computer";
 * import { WorkerJavaScriptBackend } from "agent-computer/backends/worker-javascript";
 *
 * workspace = new Workspace({
 *   storage: this.ctx.storage,
 *   backends: [new WorkerJavaScriptBackend({ loader: this.env.LOADER })],
 * });
 * ```
 *
 * @module
 */
export { WorkerJavaScriptBackend } from "./backend.js";
export type { WorkerJavaScriptBackendOptions, WorkerJavaScriptEgress, WorkerLoaderLike } from "./options.js";
export type { WorkspaceEgressPolicy } from "../worker-shell/types.js";
export { MAX_TAPE_ENTRIES } from "./durable.js";
export { GRAPH_REWRITE_FACTOR, MAX_GRAPH_LOOKUPS } from "./graph.js";
