// TEMPORARY: the VFS is being written (issue #2). Do not edit; it will be replaced shortly.
import type { Database } from "../storage/database.js";
export class WorkspaceFs {
  constructor(_db: Database, _options: { now: () => number }) {}
}
