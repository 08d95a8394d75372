/**
 * Issue 20, run 40, fixer f40tl (found while fixing attack40d's union messages): `closestBranches`
 * (src/tools/core/schema.ts) scored a union branch with `Math.max(0, ...lengths)`, one argument per issue of the
 * branch. A schema with an unbounded array in a union (a tool directory's own zod schema, say
 * `z.union([z.string(), z.array(z.string())])`; the built-in tools cap theirs at 100) given 140,000 numbers raised
 * an issue per element, and `boundedIssues` (AI SDK, TanStack) threw `RangeError: Maximum call stack size exceeded`
 * instead of returning its bounded list; pi's `invalidArgumentsMessage` now expands unions too. Expected: the first
 * 10 issues and the count of the rest (checked before the fix: the RangeError, from `branchScore`).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { boundedIssues, invalidArgumentsMessage } from "../../../src/tools/core/schema.js";

describe("a union branch with 140,000 issues", () => {
  it("boundedIssues and invalidArgumentsMessage stay bounded (no RangeError)", () => {
    const schema = z.object({ names: z.union([z.string(), z.array(z.string())]) });
    const error = schema.safeParse({ names: Array.from({ length: 140_000 }, () => 1) }).error!;
    const issues = boundedIssues(error.issues);
    expect(issues.length).toBe(11);
    expect(issues[0]).toEqual({ code: "invalid_type", path: ["names", 0], message: "Invalid input: expected string, received number" });
    expect(issues[10]).toEqual({ message: "… and 139990 more issues" });
    const text = invalidArgumentsMessage("t", error);
    expect(text.startsWith("Invalid arguments for t: names.0: Invalid input: expected string, received number; names.1: ")).toBe(true);
    expect(text.endsWith("; … and 139990 more issues")).toBe(true);
  }, 30_000);
});
