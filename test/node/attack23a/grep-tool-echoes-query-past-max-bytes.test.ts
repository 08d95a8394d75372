/**
 * Issue 20, twenty-third attack run: the grep tool's result echoes a literal `query` whole, past its own `maxBytes`.
 * Tried: the grep tool (buildCoreTools, default maxBytes 262,144) with hostile query sizes: a 1,000,000-character
 * literal query (no match), the same with `regex: true`, and the siblings find (`pattern`), ls/find/grep (`path`),
 * `include`/`exclude` lists of 100 long globs.
 * Held: a regex query over 200 characters is quoted by its start and length in the error (attack21a); find's pattern
 * and include/exclude globs over 4,096 characters are refused with a short message; a path over 262,144 bytes is
 * ENAMETOOLONG quoted by its start, in every tool.
 * Found (low–medium — the model's context pays twice for what it sent; 3 of 3 runs): a literal query is searched
 * (fs.grep has no length bound for it) and the result is `{ path, query, count: 0, matches: [] }` with `query` whole:
 * 1,000,164 bytes of JSON for a tool whose description and docs/tools.md promise "A result holds at most 256KB"
 * (`maxBytes`: "Cap on the result's JSON (UTF-8), context included"). matchBudget subtracts the echoed query from
 * the matches' budget, so the matches shrink to one, but nothing bounds the echo itself.
 * Suggested fix: refuse a literal query past a documented bound (e.g. 4,096 characters, as find's globs) with an
 * error quoting its start and length, or echo the query cut as grep's regex errors quote it (200 characters, `…`,
 * length) so the result stays within maxBytes.
 * Fixed: the result echoes `query` as ls/find show a long path: past 4,096 characters (LISTING_NAME_WIDTH) its
 * first 4,096 then `[… N characters cut …]` (echoedText, src/tools/core/paging.ts); the whole query is still searched
 * (long literals stay searchable, attack3) and the matches' budget counts the echo as shown. Not refused as find
 * refuses a glob past 4,096: a literal costs nothing to compile, only its echo was unbounded. The echoed `path` of
 * grep, find and ls is cut the same way, so a 250,000-character path of control characters (500 KB of JSON) stays
 * within maxBytes too (test/node/fix23/tools-echo-bounds.test.ts).
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup } from "../tools/helpers.js";

const MAX_BYTES = 262_144;
const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

it("a 1,000,000-character literal query gives a result within maxBytes (262,144 bytes of JSON)", async () => {
  const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
  const grep = buildCoreTools({ workspace }).find((t) => t.name === "grep")!;
  const query = "x".repeat(1_000_000);
  const regex = (await grep.execute({ path: "/workspace", query, regex: true } as never, {} as never)) as { error?: string };
  // Held: the regex form is an error quoting 200 characters.
  expect(regex.error).toMatch(/^Invalid regular expression: \/x{200}…\/ \(1000000 characters\): too large for grep's linear-time engine/);
  expect(bytesOf(regex)).toBeLessThan(1024);
  const literal = (await grep.execute({ path: "/workspace", query } as never, {} as never)) as Record<string, unknown>;
  // Found: { path: "/workspace", query: <1,000,000 characters>, count: 0, matches: [] } — 1,000,164 bytes.
  expect(literal).toEqual({ path: "/workspace", query: `${"x".repeat(4096)}[… 995904 characters cut …]`, count: 0, matches: [] });
  expect(bytesOf(literal)).toBeLessThanOrEqual(MAX_BYTES);
}, 60_000);
