/**
 * `<pkg>/tools/core` (spec 03 §1): `defineExec`, the exec tool with no
 * agent library attached, and its types. Loads no external module but
 * `zod`.
 *
 * @example
 * ```ts
 * import { defineExec } from "agent-computer/tools/core";
 *
 * const exec = defineExec({ workspace });            // every backend of workspace.runtime
 * for await (const snapshot of exec.execute({ command: "ls -la" }, { abortSignal })) {
 *   console.log(snapshot);                           // running snapshots, then the terminal one
 * }
 * ```
 *
 * @module
 */
export { defineExec } from "./core/exec.js";
export type {
  ExecBackendOptions,
  ExecBackends,
  ExecCallContext,
  ExecDefinition,
  ExecInput,
  ExecRuntimeHandle,
  ExecStreamEvent,
  ExecToolOptions,
  ExecToolOutput,
  ExecWorkspaceLike,
} from "./core/exec.js";
