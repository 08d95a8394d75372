/**
 * Sibling of test/node/attack37f/grep-regex-dot-skips-carriage-return.test.ts (issue 20, run 37, fixer F1).
 *
 * grep's `regex: true` reads `.` as GNU grep 3.8 (`-E` and `-P`), ripgrep and RE2 do — any character of the line —
 * not as JavaScript does without the `s` flag (which stops at CR, U+2028 and U+2029). grep hands each line to the
 * regex without its LF but with everything else, so a CRLF line is `…\r` and a progress bar's lone CR stays
 * mid-line. The neighbourhood checked here, each against GNU grep run on the same bytes (LC_ALL=C.UTF-8):
 * `.` over CR at a line's end and mid-line, U+2028, U+2029, NEL, VT, FF, tab, é; `^`/`$` next to a CR (`foo$`
 * does not match `foo\r`, `^Downloading 100%` does not match after a lone CR: neither does GNU's); `[^…]`; with
 * ignoreCase; patterns that run on V8 and ones that run on RE2 (a repeated group, two overlapping `.*`, and a line
 * past V8_LINE_LIMIT that moves a V8 pattern's test to RE2); context lines; and the reported text, CR kept.
 * Both GNU modes that can read a pattern are run and must agree with each other; `\s`, `\w` and astral
 * characters are left out (JavaScript's `\s` is not GNU's, and `.` is one UTF-16 unit — both documented).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileGrepRegex, V8_LINE_LIMIT } from "../../../src/fs/grep-regex.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const LONG = `L${"x".repeat(150)}\r${"y".repeat(150)}END`;

const LINES = [
  'import a from "a";\r',
  "// TODO: fix\r",
  "last\r",
  "Downloading 10%\rDownloading 100% done",
  "a\rb",
  "a\u2028b",
  "a\u2029b",
  "a\u0085b",
  "a\u000bb",
  "a\u000cb",
  "a\tb",
  "aéb",
  "A\rB",
  "",
  "\r",
  "foo\r",
  "x\r\r",
  "Café\r",
  LONG,
  "plain",
];
const TEXT = LINES.join("\n") + "\n";

const dir = mkdtempSync(join(tmpdir(), "fix37-f1-"));
writeFileSync(join(dir, "a.txt"), TEXT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Hit = { line: number; text: string };

/** GNU grep's matching lines (`grep -n <mode> [-i] -- pattern a.txt`), status 1 read as none. */
function gnu(mode: "-E" | "-P", pattern: string, ignoreCase: boolean, extra: string[] = []): Hit[] {
  let out: string;
  try {
    out = execFileSync("grep", ["-n", mode, ...(ignoreCase ? ["-i"] : []), ...extra, "--", pattern, "a.txt"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, LC_ALL: "C.UTF-8" },
    });
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
  return out
    .split("\n")
    .slice(0, -1)
    .filter((l) => l !== "--")
    .map((l) => {
      const [, n, sep, text] = /^(\d+)([:-])([\s\S]*)$/.exec(l)!;
      return { line: Number(n), text: sep === ":" ? text! : `-${text}` };
    });
}

async function tool(query: string, ignoreCase: boolean, context = 0) {
  const { workspace } = await setup({ "/workspace/a.txt": TEXT });
  const result = (await grepDefinition({ workspace, maxLineLength: 10_000 }).execute({ path: "/workspace/a.txt", query, regex: true, ignoreCase, context, limit: 100 })) as {
    matches?: { line: number; text: string; context?: { line: number; text: string; isMatch: boolean }[] }[];
    error?: string;
  };
  if (result.error !== undefined) throw new Error(result.error);
  return result.matches!;
}

/** [pattern, ignoreCase, GNU modes that read it as JavaScript does]. */
const CASES: [string, boolean, ("-E" | "-P")[]][] = [
  [".", false, ["-E", "-P"]],
  ["^.*$", false, ["-E", "-P"]],
  ["^.+$", false, ["-E", "-P"]],
  ["^.$", false, ["-E", "-P"]],
  ["^..$", false, ["-E", "-P"]],
  ["^a.b$", false, ["-E", "-P"]],
  ["a.b", false, ["-E", "-P"]],
  [".$", false, ["-E", "-P"]],
  ["^import .+$", false, ["-E", "-P"]],
  ["TODO.*$", false, ["-E", "-P"]],
  ["^Downloading.*done", false, ["-E", "-P"]],
  ["^Downloading 100%", false, ["-E", "-P"]],
  ["0%.D", false, ["-E", "-P"]],
  ["done$", false, ["-E", "-P"]],
  ["foo$", false, ["-E", "-P"]],
  ["foo.$", false, ["-E", "-P"]],
  ["^x..$", false, ["-E", "-P"]],
  ["^x.{2}$", false, ["-E", "-P"]],
  ["\\r$", false, ["-P"]],
  ["foo\\r?$", false, ["-P"]],
  ["[^x]$", false, ["-E", "-P"]],
  ["a[^z]b", false, ["-E", "-P"]],
  ["^a.B$", true, ["-E", "-P"]],
  ["^CAF..$", true, ["-E", "-P"]],
  ["^DOWNLOADING.*DONE", true, ["-E", "-P"]],
  ["^(?:a|.)+$", false, ["-P"]],
  ["(?:.b)+$", false, ["-P"]],
  ["^.*.*b$", false, ["-E", "-P"]],
  ["^L.*END$", false, ["-E", "-P"]],
  ["x.y", false, ["-E", "-P"]],
  ["^.{1,40}$", false, ["-E", "-P"]],
];

describe("grep regex `.` and the line terminators, against GNU grep 3.8", () => {
  it.each(CASES)("%s (ignoreCase %s)", async (pattern, ignoreCase, modes) => {
    const answers = modes.map((mode) => gnu(mode, pattern, ignoreCase));
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    const got = (await tool(pattern, ignoreCase)).map(({ line, text }) => ({ line, text }));
    expect(got).toEqual(answers[0]);
  });

  it("the cases run on both engines, and a long line moves a V8 pattern to RE2", () => {
    const engines = new Set(CASES.map(([pattern, ignoreCase]) => compileGrepRegex(pattern, ignoreCase).analysis.engine));
    expect([...engines].sort()).toEqual(["re2", "v8"]);
    expect(compileGrepRegex("^L.*END$", false).analysis).toEqual({ engine: "v8", quantified: true });
    expect(LONG.length).toBeGreaterThan(V8_LINE_LIMIT);
    expect(compileGrepRegex("^(?:a|.)+$", false).analysis.engine).toBe("re2");
    expect(compileGrepRegex("^.*.*b$", false).analysis.engine).toBe("re2");
  });

  it("context lines around matches of `^a.b$` are GNU's `grep -n -C1`", async () => {
    const expected = gnu("-E", "^a.b$", false, ["-C1"]);
    const seen = new Map<number, string>();
    for (const match of await tool("^a.b$", false, 1)) {
      for (const c of match.context!) seen.set(c.line, c.isMatch ? c.text : `-${c.text}`);
    }
    expect([...seen].sort((x, y) => x[0] - y[0]).map(([line, text]) => ({ line, text }))).toEqual(expected);
  });

  it("workspace.fs.grep itself: `^.*$` on CRLF text keeps each line's CR, as GNU prints it", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": TEXT });
    const got = await workspace.fs.grep("^.*$", "/workspace/a.txt", { regex: true });
    expect(got.map(({ line, text }) => ({ line, text }))).toEqual(gnu("-E", "^.*$", false));
    expect(got).toHaveLength(LINES.length);
  });
});
