/**
 * `<pkg>/tools`: the file store, the individual AI SDK tool factories, and
 * the option and store types. `createAITools` lives in `<pkg>/tools/ai-sdk`,
 * `createPiTools` in `<pkg>/tools/pi-ai`, `createTanStackTools` in
 * `<pkg>/tools/tanstack-ai`.
 *
 * @module
 */
export { WorkspaceFileStore } from "./core/store.js";
export {
  createReadTool,
  createWriteTool,
  createEditTool,
  createListTool,
  createFindTool,
  createGrepTool,
  createDeleteTool,
  createExecTool,
  createPublishTool,
} from "./ai-sdk-tools.js";
export type { FileStat, FileStore, MutableFileStore, WorkspaceLike } from "./core/store.js";
export type { ReadToolOptions } from "./core/read.js";
export type { LineTruncation } from "./core/truncate.js";
export type { WriteToolOptions } from "./core/write.js";
export type { EditToolOptions } from "./core/edit.js";
export type { DeleteToolOptions } from "./core/delete.js";
export type { ListToolOptions } from "./core/ls.js";
export type { FindToolOptions } from "./core/find.js";
export type { GrepToolOptions } from "./core/grep.js";
export type { ExecBackends, ExecBackendOptions, CreateToolsOptions } from "./core/toolset.js";
export type { ExecToolOptions, ExecToolOutput, ExecRuntimeHandle, ExecStreamEvent } from "./core/exec.js";
export type { PublishToolOptions } from "./core/publish.js";
