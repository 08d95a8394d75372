/**
 * Issue 20, run 40, attacker d (a40d).
 * Fixed in run 40 by fixer f40tl: closestBranches prefers, at equal depth, the branch the value's type matches; pi
 * expands unions too (src/tools/core/schema.ts).
 *
 * Reproduction: a find (or grep) call whose `exclude` (grep: `include`) is a list of 101 well-formed glob strings —
 * one more than MAX_GLOBS (src/tools/core/find.ts: `globList()` is `z.union([z.string(), z.array(z.string()).max(100)])`)
 * — through each library's real loop (AI SDK generateText over MockLanguageModelV4, pi 0.74 and 1.x agent loops over
 * the faux provider, TanStack chat(); test/node/tools/adapter-drivers.ts).
 * Today: the call is refused (right), but the error result never says why:
 *   - AI SDK and TanStack: `exclude: Invalid input: expected string, received array` — telling the model to send ONE
 *     string, when an array is fine and only its length (≤ 100) is wrong. `closestBranches` (src/tools/core/schema.ts)
 *     picks the union branch "deepest path, then fewest issues": both branches have one issue at the union's own path,
 *     so the tie goes to the first branch (`z.string()`), and the array branch's `Too big: expected array to have
 *     <=100 items` is dropped.
 *   - pi: `Invalid arguments for find: exclude: Invalid input` — zod's bare union message; `invalidArgumentsMessage`
 *     does not expand unions at all.
 * A model that follows the AI SDK/TanStack advice collapses its list into one string (losing globs) or retries the
 * same array forever; nothing tells it to split the call or narrow the list.
 * Reference: the schema's own reason for the refusal, zod 4: `z.array(z.string()).max(100).safeParse(a101)` →
 * `Too big: expected array to have <=100 items` (node -e, zod from node_modules). The union's array branch is the one
 * the value's type (an array) selects; its issue is the one the model can act on. Existing tests pin only that 101 globs
 * are refused (test/node/tools/search-bounds.test.ts) and the union expansion for an element of the wrong type
 * (scout20 ai-sdk-union-issue-unhelpful, attack20a) — not this tie.
 * Likely fix: in `closestBranches`, prefer the branch whose issue is not an `invalid_type` at the union's own path
 * (the branch the value's type matches), and expand unions in `invalidArgumentsMessage` (pi) the same way.
 */
import { describe, expect, it } from "vitest";
import { drivers } from "../tools/adapter-drivers.js";
import { setup } from "../tools/helpers.js";

const globs = Array.from({ length: 101 }, (_, i) => `gen${i}/**`);

describe("101 glob strings: the error result names the 100-glob limit, not a wrong type", () => {
  for (const driver of drivers()) {
    it(`${driver.name}: find exclude and grep include`, async () => {
      const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
      const tools = driver.build({ workspace });
      for (const [name, input] of [
        ["find", { pattern: "**", exclude: globs }],
        ["grep", { query: "one", include: globs }],
      ] as const) {
        const seen = await driver.call(tools, name, input);
        expect(seen.isError).toBe(true);
        expect(seen.text).not.toContain("expected string, received array");
        expect(seen.text).toContain("<=100");
      }
    });
  }
});
