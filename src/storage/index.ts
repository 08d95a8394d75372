export type { DurableObjectStorageLike, SqlCursorLike, SqlStorageLike } from "./types.js";
export { nodeSqliteStorage } from "./node-sqlite.js";
export type { NodeSqliteStorage, NodeSqliteStorageOptions, NodeSqliteDatabase } from "./node-sqlite.js";
