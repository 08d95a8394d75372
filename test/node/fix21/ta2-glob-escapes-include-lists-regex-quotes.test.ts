/**
 * Fixer TA2, issue 20 run 21: siblings of attack21a find-escaped-brace-glob-expands,
 * grep-tool-include-list-joined-into-one-glob and grep-invalid-regex-error-echoes-query.
 * - An escaped `{`, `,` or `}` is literal in every glob that goes through expand(): find's pattern, grep's
 *   include (one glob or a list) and exclude lists.
 * - fs.grep's `include` list: each glob read alone, any of them matching; bounded together; bad types refused.
 * - A long regex is quoted by its first 200 characters and its length in every message (flags kept, no half
 *   surrogate pair), a short one whole.
 */
import { afterEach, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { compileExclude, compileGlob, compileInclude } from "../../../src/fs/glob.js";
import { compileGrepRegex } from "../../../src/fs/grep-regex.js";

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

async function workspace(names: string[]): Promise<Workspace> {
  ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await ws.fs.mkdir("/w", { recursive: true });
  for (const name of names) await ws.fs.writeFile(`/w/${name}`, "hit\n");
  return ws;
}

const messageOf = (f: () => unknown): string => {
  try {
    f();
    return "no error";
  } catch (e) {
    return (e as Error).message;
  }
};

it("escaped braces and commas are literal in a glob, an include list and an exclude list", () => {
  const names = ["{a,b}.txt", "a.txt", "b.txt", "a,b.txt", "c.txt"];
  const matching = (match: (p: string) => boolean) => names.filter(match);
  expect(matching(compileGlob("\\{a,b\\}.txt"))).toEqual(["{a,b}.txt"]);
  expect(matching(compileGlob("{a\\,b,c}.txt"))).toEqual(["a,b.txt", "c.txt"]);
  expect(matching(compileGlob("{a,b}.txt"))).toEqual(["a.txt", "b.txt"]);
  // A trailing backslash stays a literal backslash (no name here has one).
  expect(matching(compileGlob("{a,b}.txt\\"))).toEqual([]);
  expect(matching(compileInclude(["\\{a,b\\}.txt", "a\\,b.txt"]))).toEqual(["{a,b}.txt", "a,b.txt"]);
  expect(matching(compileExclude(["\\{a,b\\}.txt", "{c,a\\,b}.txt"])!.drop)).toEqual(["{a,b}.txt", "a,b.txt", "c.txt"]);
});

it("an include list: each glob alone, any matching, bounded together", () => {
  const names = ["a,b.txt", "b.txt", "x.txt", "y.md", "d1/z.ts"];
  const matching = (include: string | string[] | undefined) => names.filter(compileInclude(include));
  expect(matching(["x.txt", "a,b.txt"])).toEqual(["a,b.txt", "x.txt"]);
  expect(matching(["**/*.ts", "*.{md,txt}"])).toEqual(["a,b.txt", "b.txt", "x.txt", "y.md", "d1/z.ts"]);
  expect(matching([...Array.from({ length: 99 }, (_, i) => `d${i}/*.{md,txt,ts}`), "*.md"])).toEqual(["y.md", "d1/z.ts"]);
  expect(matching([])).toEqual(names);
  expect(matching(["", "y.md"])).toEqual(["y.md"]);
  expect(matching("{x,y}.*")).toEqual(["x.txt", "y.md"]);
  expect(messageOf(() => compileInclude(["a".repeat(3000), "b".repeat(2000)]))).toBe(
    "include globs too long: more than 4096 characters together, {a,b} alternatives expanded",
  );
});

it("fs.grep takes include as a list, and refuses what is neither a glob nor a list of globs", async () => {
  const w = await workspace(["a,b.txt", "b.txt", "x.txt", "y.md"]);
  const paths = async (include: unknown) => (await w.fs.grep("hit", "/w", { include: include as string[] })).map((m) => m.path).sort();
  expect(await paths(["x.txt", "a,b.txt"])).toEqual(["/w/a,b.txt", "/w/x.txt"]);
  expect(await paths(["x.txt", "a\\,b.txt"])).toEqual(["/w/a,b.txt", "/w/x.txt"]);
  expect(await paths("*.md")).toEqual(["/w/y.md"]);
  expect(await paths([])).toEqual(["/w/a,b.txt", "/w/b.txt", "/w/x.txt", "/w/y.md"]);
  await expect(paths([1])).rejects.toThrow(new TypeError("grep: include must be a glob string or an array of glob strings"));
  await expect(paths({})).rejects.toThrow(new TypeError("grep: include must be a glob string or an array of glob strings"));
});

it("a regex is quoted whole up to 200 characters, past them by its start and length, flags kept", () => {
  expect(messageOf(() => compileGrepRegex("(", true))).toBe("Invalid regular expression: /(/i: Unterminated group");
  expect(messageOf(() => compileGrepRegex("a(?=b)", false))).toBe(
    "Invalid regular expression: /a(?=b)/: lookahead (?=…) is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)",
  );
  const long = `${"x".repeat(300)}(`;
  expect(messageOf(() => compileGrepRegex(long, true))).toBe(`Invalid regular expression: /${"x".repeat(200)}…/i (301 characters): Unterminated group`);
  // The cut never splits a surrogate pair: 199 characters then an emoji keep 199.
  const emoji = `${"e".repeat(199)}😀${"f".repeat(100)}(?<=g)`;
  expect(messageOf(() => compileGrepRegex(emoji, false))).toBe(
    `Invalid regular expression: /${"e".repeat(199)}…/ (${emoji.length} characters): lookbehind (?<=…) is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)`,
  );
  // A long lookahead: its source quoted at 200 characters, the construct named in short.
  const message = messageOf(() => compileGrepRegex(`(?=${"h".repeat(10_000)})`, false));
  expect(message.length).toBeLessThan(600);
});
