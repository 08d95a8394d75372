/**
 * Issue 20, twenty-first attack run: edit's not-found hint quotes a file line whole, however long.
 * Tried: the pi tool set's edit on a Workspace over the Durable Object's storage; /workspace/a.js is "header\n", a
 * line of 1,000,000 "x" (a minified bundle, a one-line JSON), "\n" — 1,000,008 bytes, within edit's 2 MiB. oldText
 * "header\nfoo" (10 characters), and oldText "header\n" + 999,999 "x" + "\n".
 * Held: read of the same file refuses the long line (`Line 2 exceeds the 262144-byte read cap …`, 366 characters
 * of result); the closest-line hint compares at most 200 characters of each line (HINT_LIMITS.lineChars).
 * Found (medium — the conversation pays, 100,000× the arguments, past read's own cap; 3 of 3 runs):
 * notFoundHints (src/tools/core/edit-hints.ts) shows `the file's line 2 is ${JSON.stringify(fileLine)}` (and
 * the oldText line, `its line 2 is …`) whole: the 10-character oldText gives an error of 1,000,220 characters and a pi
 * result of 2,000,525 (content and details); the long oldText 2,000,216 / 4,000,517. The model gets a line read would not give
 * it, in full, on a failed edit. The closest-line hint does the same (measured once: `const value = ` + 1,000,000 "y"
 * as the file, a 200-character oldText with one typo → `The closest line in the file is line 1: "const value =
 * yyyy…` whole, 2,000,439 characters of result).
 * Suggested fix: quote lines in hints through one helper that keeps ~200 characters (HINT_LIMITS.lineChars) around
 * the first difference and states the rest's length (`…[999800 more characters]`), for file lines and oldText lines.
 * Fixed: every value a hint quotes (src/tools/core/edit-hints.ts `show`: file lines, oldText lines, a line-number
 * prefix, indentation) is cut to HINT_LIMITS.lineChars (200) characters, starting 40 before the first difference
 * between the two lines compared (never between a character's halves), with what was left out counted on each
 * side: `[999800 characters before] "xxx…"` and `"xxx…"…[999800 more characters]`. The errors here are 445 and 671
 * characters. Siblings (closest line, indentation): test/node/fix21/ta1-edit-hint-long-lines.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("a not-found hint stays short when the file's line is long", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const x200 = JSON.stringify("x".repeat(200));
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const content = "header\n" + "x".repeat(1_000_000) + "\n";
      await ws.fs.writeFile("/workspace/a.js", content);
      const { execute } = createPiTools({ workspace: ws });
      const sizes: { start: string; error: number; result: number }[] = [];
      const errors: string[] = [];
      for (const oldText of ["header\nfoo", "header\n" + "x".repeat(999_999) + "\n"]) {
        const r = await execute({ id: "e", name: "edit", arguments: { path: "/workspace/a.js", edits: [{ oldText, newText: "z" }] } });
        const error = String((r.details as { error?: string }).error);
        sizes.push({ start: error.slice(0, 44), error: error.length, result: JSON.stringify(r).length });
        errors.push(error);
      }
      const unchanged = (await ws.fs.readFile("/workspace/a.js", "utf8")) === content;
      return { sizes, errors, unchanged };
    } finally {
      await ws.close();
    }
  });
  // Found: error/result 1,000,220/2,000,525 for "header\nfoo", 2,000,216/4,000,517 for the long oldText.
  expect(out.unchanged).toBe(true);
  for (const s of out.sizes) {
    expect(s.start).toBe("Could not find the exact text in /workspace/");
    expect(s.error).toBeLessThan(4096);
  }
  const base = "Could not find the exact text in /workspace/a.js. The old text must match exactly including all whitespace and newlines.";
  expect(out.errors).toEqual([
    `${base} oldText's line 1 matches line 1 of the file, but its line 2 is "foo" where the file's line 2 is ${x200}…[999800 more characters].`,
    `${base} oldText's line 1 matches line 1 of the file, but its line 2 is [999799 characters before] ${x200} where the file's line 2 is [999800 characters before] ${x200}.`,
  ]);
  expect(out.errors.map((e) => e.length)).toEqual([445, 671]);
}, 60_000);
