/**
 * Issue 20, run 40, fixer f40tl — siblings of test/node/attack40d/tools-glob-list-over-limit-error-misleads.test.ts
 * and pi-union-issue-says-only-invalid-input.test.ts, on src/tools/core/schema.ts directly: the union branch chosen
 * for the message (deepest path, then the branch the value's type matches, then fewest issues) and pi's
 * `invalidArgumentsMessage` expanding it within the same bounds as `boundedIssues`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { boundedIssues, INVALID_ARGUMENTS_MAX_ISSUES, invalidArgumentsMessage } from "../../../src/tools/core/schema.js";

const globList = z.union([z.string(), z.array(z.string()).max(100)]);
const schema = z.object({ include: globList.optional() });
const error = (value: unknown) => schema.safeParse(value).error!;

describe("union issues: the branch the value's type selects, in both messages", () => {
  it("101 strings: the array branch's Too big (boundedIssues and invalidArgumentsMessage)", () => {
    const e = error({ include: Array.from({ length: 101 }, (_, i) => `g${i}`) });
    expect(boundedIssues(e.issues)).toEqual([{ code: "too_big", path: ["include"], message: "Too big: expected array to have <=100 items" }]);
    expect(invalidArgumentsMessage("grep", e)).toBe("Invalid arguments for grep: include: Too big: expected array to have <=100 items");
  });

  it("101 items, one a number: the length (zod checks it before the items), not the number nor `expected string`", () => {
    const e = error({ include: ["a", 5, ...Array.from({ length: 100 }, () => "b")] });
    expect(invalidArgumentsMessage("grep", e)).toBe("Invalid arguments for grep: include: Too big: expected array to have <=100 items");
  });

  it("no branch takes the value's type: the first branch, as before (an object for string | string[])", () => {
    expect(invalidArgumentsMessage("grep", error({ include: { glob: "*.ts" } }))).toBe(
      "Invalid arguments for grep: include: Invalid input: expected string, received object",
    );
    expect(invalidArgumentsMessage("grep", error({ include: true }))).toBe("Invalid arguments for grep: include: Invalid input: expected string, received boolean");
  });

  it("a union expanded into many issues is bounded: the first ones listed, the rest counted", () => {
    const e = error({ include: Array.from({ length: 25 }, (_, i) => i) });
    const text = invalidArgumentsMessage("grep", e);
    const listed = Array.from({ length: INVALID_ARGUMENTS_MAX_ISSUES }, (_, i) => `include.${i}: Invalid input: expected string, received number`);
    expect(text).toBe(`Invalid arguments for grep: ${listed.join("; ")}; … and ${25 - INVALID_ARGUMENTS_MAX_ISSUES} more issues`);
  });

  it("issues outside unions are unchanged", () => {
    const e = z.object({ a: z.string(), b: z.number() }).safeParse({ a: 1, b: "x" }).error!;
    expect(invalidArgumentsMessage("t", e)).toBe(
      "Invalid arguments for t: a: Invalid input: expected string, received number; b: Invalid input: expected number, received string",
    );
  });
});
