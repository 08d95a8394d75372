/**
 * Mounts (spec 01 §6): read-only content materialised into the Workspace.
 *
 * @module
 */
export { R2Bucket } from "./r2.js";
export { WorkerBundle } from "./bundle.js";
export { MountRegistry } from "./registry.js";
export { MOUNT_WRITE_RETRIES } from "./write-api.js";
export type * from "./types.js";
