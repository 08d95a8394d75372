/**
 * TOOL.md tool directories (spec 03 §9, seed 001, issue 19): the loader,
 * the input-schema mapping and seed sync. The runner (`run*.ts`) runs a
 * loaded tool's entry in the Workspace's backends.
 * @module
 */
export {
  loadToolDirectories,
  BUILTIN_TOOL_NAMES,
  DEFAULT_TOOL_LANGUAGES,
  TOOL_ENTRY_FILES,
  type LoadToolDirectoriesOptions,
  type LoadedToolDirectories,
} from "./load.js";
export {
  syncToolDirectories,
  type SyncToolDirectoriesOptions,
  type SyncToolDirectoriesReport,
  type SyncedToolDirectory,
  type SkippedSeedToolDirectory,
} from "./sync.js";
export {
  toolInputSchema,
  sensitiveInputNames,
  maskSensitiveInputs,
  toolInputRegistry,
  SENSITIVE_MASK,
  type ToolInputMeta,
} from "./schema.js";
export { MAX_TOOL_FILE_BYTES } from "./frontmatter.js";
export {
  runToolDirectory,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_TOOL_OUTPUT_CHARS,
  type RunToolDirectoryOptions,
  type ToolRunWorkspace,
} from "./run.js";
export { directoryToolValue, joinContent, MAX_PENDING_UPDATES, MAX_PENDING_UPDATE_CHARS, PROGRESS_BURST, PROGRESS_INTERVAL_MS } from "../tools/core/directory.js";
export type { DirectoryToolsOptions, DirectoryToolOutput } from "../tools/core/directory.js";
export type {
  ToolDirectory,
  ToolInput,
  ToolInputType,
  ToolInputValue,
  ToolLanguage,
  ToolResult,
  ToolResultContent,
  OnUpdate,
  SkippedToolDirectory,
  ToolDirectorySkipCode,
  ToolDirsReadWorkspace,
  ToolDirsWorkspace,
} from "./types.js";
