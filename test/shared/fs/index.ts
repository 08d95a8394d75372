/**
 * `workspace.fs` conformance cases (spec 01 §1–§4, seed 003), written once and
 * registered by both suites: `test/node/fs/*.test.ts` (node:sqlite) and
 * `test/workers/fs/*.test.ts` (Durable Object SQLite in workerd).
 */
import type { FsHarness } from "./harness.js";
import { defineGrepBoundCases } from "./grep-bounds.cases.js";
import { definePathCases } from "./paths.cases.js";
import { defineReadWriteCases } from "./readwrite.cases.js";
import { defineSearchCases } from "./search.cases.js";
import { defineTreeCases } from "./tree.cases.js";

export type { FsHarness, FsTestContext } from "./harness.js";
export { defineModelCases, MODEL_SEED } from "./model.cases.js";
export { defineStreamCases } from "./streams.cases.js";
export { defineStorageCases } from "./storage.cases.js";

/** Registers the per-method conformance tables (§2, §3, §3.6). */
export function defineFsConformance(harness: FsHarness): void {
  definePathCases(harness);
  defineReadWriteCases(harness);
  defineTreeCases(harness);
  defineSearchCases(harness);
  defineGrepBoundCases(harness);
}
