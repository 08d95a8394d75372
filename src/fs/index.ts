/**
 * The virtual filesystem on SQL storage.
 *
 * @module
 */
export { WorkspaceFs, type WorkspaceFsOptions } from "./filesystem.js";
export { CHUNK_SIZE } from "./chunks.js";
export { WorkspaceFsError, isWorkspaceFsError, type WorkspaceFsErrorCode } from "./errors.js";
export type * from "./types.js";
