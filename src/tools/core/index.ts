/**
 * The tool layer's library-neutral core: one definition per tool, the
 * store seam, locks, and the tool set builder. Imports only `zod` (and
 * `diff`, for edit's patch).
 *
 * @module
 */
export * from "./types.js";
export * from "./store.js";
export { withPathLock } from "./locks.js";
export * from "./truncate.js";
export * from "./paging.js";
export { readDefinition, readInputSchema, readModelOutput, READ_DEFAULTS, READ_FACTS } from "./read.js";
export type { ReadDefinition, ReadToolOptions, ReadInput, ReadResult, ReadTextResult, ReadMediaResult } from "./read.js";
export { listDefinition, listInputSchema, LS_FACTS } from "./ls.js";
export type { ListToolOptions, ListInput, ListResult, ListEntry } from "./ls.js";
export { findDefinition, findInputSchema, DEFAULT_SEARCH_PATH, FIND_FACTS } from "./find.js";
export type { FindToolOptions, FindInput, FindResult, FindEntry } from "./find.js";
export { grepDefinition, grepInputSchema, MAX_GREP_CONTEXT, GREP_FACTS } from "./grep.js";
export type { GrepToolOptions, GrepInput, GrepResult } from "./grep.js";
export { GREP_LINE_WIDTH, GREP_MAX_BYTES } from "./grep-page.js";
export type { GrepResultMatch, GrepResultContextLine } from "./grep-page.js";
export { writeDefinition, writeInputSchema, writeOutputSchema, WRITE_DEFAULTS, WRITE_FACTS } from "./write.js";
export type { WriteToolOptions, WriteInput, WriteResult } from "./write.js";
export { DIFF_LINE_WIDTH, editDefinition, editInputSchema, editOutputSchema, EDIT_DEFAULTS, EDIT_FACTS } from "./edit.js";
export type { EditToolOptions, EditInput, EditResult, EditReplacement } from "./edit.js";
export { deleteDefinition, deleteInputSchema, deleteOutputSchema, DELETE_FACTS } from "./delete.js";
export type { DeleteToolOptions, DeleteInput, DeleteResult } from "./delete.js";
export { buildCoreTools } from "./toolset.js";
export { ReadLedger, ledgerOf, ensureLedger, FRESHNESS_HASH_MAX_BYTES, READ_LEDGER_DEFAULT_MAX_PATHS } from "./freshness.js";
export type { ReadLedgerOptions, FileFingerprint, FreshnessVerdict } from "./freshness.js";
export { findEquivalentSibling, withSiblingHint, siblingHint, UNICODE_SIBLING_SCAN_LIMIT } from "./unicode-names.js";
export type { EquivalentSibling, ReaddirLike } from "./unicode-names.js";
export type { CreateToolsOptions, ExecBackends, ExecBackendOptions } from "./toolset.js";
export { toJSONSchema, nullDroppableKeys, dropNulls, invalidArgumentsMessage, INVALID_ARGUMENTS_MAX_CHARS, INVALID_ARGUMENTS_MAX_ISSUES } from "./schema.js";
export type { JSONSchemaObject } from "./schema.js";
export { execDefinition, defineExec, formatSize, EXEC_DEFAULTS, EXEC_FACTS } from "./exec.js";
export type { ExecToolOptions, ExecInput, ExecToolOutput, ExecDefinition, ExecCallContext, ExecWorkspaceLike, ExecRuntimeHandle, ExecStreamEvent } from "./exec.js";
export { publishDefinition, publishInputSchema, publishOutputSchema, DEFAULT_PUBLISH_EXPIRES_AFTER_MS, MAX_PUBLISH_EXPIRES_AFTER_MS, PUBLISH_FACTS } from "./publish.js";
export type { PublishToolOptions, PublishInput, PublishResult, PublishSuccess, PublishFailure, PublishAssetsLike, PublishShareOptions, PublishWorkspaceLike } from "./publish.js";
export { directoryToolDefinition, directoryToolValue, joinContent } from "./directory.js";
export type { DirectoryToolsOptions, DirectoryToolOutput } from "./directory.js";
