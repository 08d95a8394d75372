/**
 * Issue 20, run 40, attacker d (a40d).
 * Fixed in run 40 by fixer f40tl: invalidArgumentsMessage expands unions through closestBranches, as boundedIssues
 * does (src/tools/core/schema.ts).
 *
 * Reproduction: a grep call with a malformed union field — `include: ["*.ts", 5]`, `include: 5`,
 * `exclude: { glob: "*.ts" }` (`globList()`: `z.union([z.string(), z.array(z.string()).max(100)])`) — through pi's real
 * agent loop (0.74 and 1.x, faux provider; test/node/tools/adapter-drivers.ts), next to the AI SDK and TanStack.
 * Today: pi's tool result is `Invalid arguments for grep: include: Invalid input` for all three — zod's bare union
 * message: nothing says that `include` takes a string or an array of strings, nor which element is wrong.
 * The AI SDK and TanStack results for the same calls name it (`include.1` / `Invalid input: expected string, received
 * number`) since scout20's fix (test/node/scout20/ai-sdk-union-issue-unhelpful.test.ts: `boundedIssues` replaces an
 * `invalid_union` by its closest branch) — but that fix went into `boundedIssues`, which pi does not use: pi's
 * message comes from `invalidArgumentsMessage` (src/tools/core/schema.ts), which maps `error.issues` as they are.
 * Reference: spec 03 §2.1 "All three build the same tools, with the same names, descriptions, schemas, limits and
 * executors"; the AI SDK's output for the same call (run here through generateText) is the reference wording.
 * Note for the fixer: test/node/attack11/define-exec-hostile.test.ts pins `input.n: Invalid input` for defineExec's
 * BigInt input (the same function); expanding unions there changes that line too.
 */
import { describe, expect, it } from "vitest";
import { drivers } from "../tools/adapter-drivers.js";
import { setup } from "../tools/helpers.js";

const cases = [
  { input: { query: "x", include: ["*.ts", 5] }, want: "include.1: Invalid input: expected string, received number" },
  { input: { query: "x", include: 5 }, want: "include: Invalid input: expected string, received number" },
  { input: { query: "x", exclude: { glob: "*.ts" } }, want: "exclude: Invalid input: expected string, received object" },
];

describe("pi: a malformed union field is named as the AI SDK and TanStack name it", () => {
  for (const driver of drivers().filter((d) => d.name.startsWith("pi"))) {
    it(driver.name, async () => {
      const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
      const tools = driver.build({ workspace });
      for (const { input, want } of cases) {
        const seen = await driver.call(tools, "grep", input);
        expect(seen).toEqual({ isError: true, text: `Invalid arguments for grep: ${want}` });
      }
    });
  }
});
