/**
 * Issue 20 seventh attack run, category 4: malformed tool calls through each
 * adapter's real loop (AI SDK generateText over MockLanguageModelV4, pi 0.74
 * and 1.x faux loops, TanStack chat() — test/node/tools/adapter-drivers.ts),
 * shapes runs 2–6 did not send:
 * - `edits` as an array-like object (`{ "0": {…}, length: 1 }`);
 * - 20,000 extra argument keys beside a valid `path`;
 * - a path holding a lone surrogate (`s\uD800.txt`): written, stored under
 *   the canonical U+FFFD name (src/fs/path.ts), the result echoes the path
 *   as given;
 * - paging numbers at their edges: `limit` 2^53+2, `offset` 0 and -0,
 *   `limit` 0, ls `limit` 1001, grep `context` 1e9;
 * - grep `include` of 100 globs of 4,096 `*` (refused: the joined glob is
 *   past the 4,096-character limit, named with its length);
 * - find with a NUL in the pattern (no match, no error);
 * - delete of `/workspace/..`, `//`, `/./` (all the root: EPERM);
 * - write to `/workspace/f.txt/` (a file with a trailing slash), to
 *   `/workspace/.`, and under a file (`/workspace/f.txt/x`).
 * Each call ends as one result the model sees, in bounded time; the loop
 * finishes; nothing but the lone-surrogate file is written; f.txt keeps its
 * bytes; nothing is polluted. All withstood.
 *
 * Also seen, not ours: with 200,000 extra keys pi 1.x's own faux loop takes
 * ~50 s (20,000: ~2.6 s; `execute` itself ~0.1 s; pi 0.74 and the AI SDK
 * under 1 s) — upstream; and a 100,000-deep `write.content` makes
 * generateText reject with RangeError in the AI SDK's own message cloning,
 * the limit docs/tools.md already states for exec.
 */
import { describe, expect, it } from "vitest";
import { drivers } from "../tools/adapter-drivers.js";
import { makeWorkspace } from "../tools/helpers.js";

const ORIGINAL = "alpha\nbeta\n";
const manyKeys: Record<string, unknown> = { path: "/workspace/f.txt" };
for (let i = 0; i < 20_000; i++) manyKeys[`k${i}`] = i;

/** [tool, input, "error" | "ok", exact text (when the tool itself answers — the same in every adapter)]. */
const CASES: [string, Record<string, unknown>, "error" | "ok", string?][] = [
  ["edit", { path: "/workspace/f.txt", edits: { 0: { oldText: "alpha", newText: "z" }, length: 1 } }, "error"],
  ["read", manyKeys, "ok", "alpha\nbeta"],
  ["write", { path: "/workspace/s\uD800.txt", content: "x" }, "ok", '{"path":"/workspace/s\\ud800.txt","bytesWritten":1}'],
  ["read", { path: "/workspace/f.txt", limit: 2 ** 53 + 2 }, "error"],
  ["read", { path: "/workspace/f.txt", offset: 0 }, "error"],
  ["read", { path: "/workspace/f.txt", offset: -0 }, "error"],
  ["read", { path: "/workspace/f.txt", limit: 0 }, "error"],
  ["ls", { path: "/workspace", limit: 1001 }, "error"],
  ["grep", { query: "a", path: "/workspace", context: 1e9 }, "error"],
  ["grep", { query: "a", path: "/workspace", include: Array.from({ length: 100 }, () => "*".repeat(4096)) }, "error"],
  ["find", { path: "/workspace", pattern: "a\u0000b" }, "ok", '{"path":"/workspace","pattern":"a\\u0000b","count":0,"entries":[]}'],
  ["delete", { path: "/workspace/.." }, "error", "EPERM: cannot remove the root directory, rm: /"],
  ["delete", { path: "//" }, "error", "EPERM: cannot remove the root directory, rm: /"],
  ["delete", { path: "/./" }, "error", "EPERM: cannot remove the root directory, rm: /"],
  ["write", { path: "/workspace/f.txt/", content: "x" }, "error"],
  ["write", { path: "/workspace/.", content: "x" }, "error", "EISDIR: is a directory, writeFile: /workspace"],
  ["write", { path: "/workspace/f.txt/x", content: "x" }, "error"],
];

const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, new Promise<"hung">((r) => setTimeout(() => r("hung"), ms))]);

describe("attack7: malformed tool calls through each adapter's loop", () => {
  for (const driver of drivers()) {
    it(`${driver.name}: each is one bounded result; only the lone-surrogate file is written`, { timeout: 60_000 }, async () => {
      const workspace = await makeWorkspace();
      await workspace.fs.writeFile("/workspace/f.txt", ORIGINAL);
      const tools = driver.build({ workspace });
      const failures: string[] = [];
      for (const [tool, input, want, text] of CASES) {
        const label = `${tool} ${JSON.stringify(input).slice(0, 60)}`;
        const seen = await within(20_000, driver.call(tools, tool, input).catch((e: Error) => ({ isError: true, text: `THREW ${e.message}`, threw: true })));
        if (seen === "hung") failures.push(`${label}: no result in 20 s`);
        else if ("threw" in seen) failures.push(`${label}: the loop threw ${seen.text}`);
        else if ((want === "error") !== seen.isError) failures.push(`${label}: expected ${want}, got ${seen.text.slice(0, 200)}`);
        else if (text !== undefined && seen.text !== text) failures.push(`${label}: text ${JSON.stringify(seen.text.slice(0, 200))}`);
        else if (seen.text.length === 0 || seen.text.length > 10_000) failures.push(`${label}: result of ${seen.text.length} characters`);
      }
      expect(failures).toEqual([]);
      expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe(ORIGINAL);
      expect(await workspace.fs.ls("/workspace")).toEqual(["/workspace/f.txt", "/workspace/s\uFFFD.txt"]);
      expect(await workspace.fs.readFile("/workspace/s\uD800.txt", "utf8")).toBe("x");
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "0")).toBe(false);
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "length")).toBe(false);
    });
  }
});
