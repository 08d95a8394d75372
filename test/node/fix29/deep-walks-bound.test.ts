/**
 * Issue 20, run 29, fixer DP: the shell's walks go MAX_WALK_DEPTH directories down (just-bash's maxTraversalDepth,
 * src/backends/worker-shell/isolate/deep-walks.ts) — as deep as a Workspace path can lie, so the bound is never met on a
 * tree the Workspace holds; past it a walk fails loudly (just-bash's limit error, status 126), never returns part.
 */
import { expect, it } from "vitest";
import { MAX_WALK_DEPTH, depthExceeded } from "../../../src/backends/worker-shell/isolate/deep-walks.js";
import { canonicalPath } from "../../../src/fs/path.js";

it("MAX_WALK_DEPTH is the deepest path the Workspace holds", () => {
  expect(MAX_WALK_DEPTH).toBe(5793);
  const path = (depth: number) => "/" + Array.from({ length: depth }, () => "a").join("/");
  expect(canonicalPath(path(MAX_WALK_DEPTH), "mkdir")).toBe(path(MAX_WALK_DEPTH));
  expect(() => canonicalPath(path(MAX_WALK_DEPTH + 1), "mkdir")).toThrow(/ENAMETOOLONG/);
});

it("a walk past it fails with just-bash's limit error, worded as du's", () => {
  class LimitError extends Error {
    readonly kind: string;
    constructor(message: string, kind: string) {
      super(message);
      this.kind = kind;
    }
  }
  const e = depthExceeded("grep", MAX_WALK_DEPTH, LimitError);
  expect(e).toBeInstanceOf(LimitError);
  expect([e.message, (e as LimitError).kind]).toEqual(["grep: filesystem traversal depth limit exceeded (5793)", "recursion"]);
});
