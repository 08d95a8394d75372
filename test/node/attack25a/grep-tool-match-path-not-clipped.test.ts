/**
 * Issue 20, twenty-fifth attack run: the grep tool shows each match's `path` whole — a file under a 200,000-character
 * directory name gives one match per page (50 matches take 50 calls) and a result 4.6 times maxBytes, where find
 * clips the same path to 4,096 characters.
 * Tried: `/workspace/<label>/<name>/f.txt` holding 50 lines `TODO`, `<name>` 200,000 × `d` (plain) or 200,000 ×
 * U+0001 (six bytes of JSON each); the default tool set's grep `{ path: "/workspace/<label>", query: "TODO" }` and
 * find `{ path: "/workspace/<label>", pattern: "**\/f.txt" }` (maxBytes 262,144 both).
 * Held: find's entry is cut to its first 4,096 characters + `[… 195,927 characters cut …]` with `clipped: true`
 * (4,471 / 24,874 bytes of JSON); grep's result path and query are echoed cut (echoedText).
 * Found (medium — a search in a deep or long-named tree costs one tool call per match, each carrying the whole path,
 * and the result passes its own documented cap; 3 of 3 runs): grep answers `count: 1, nextOffset: 1`, note `Result
 * cut at 262144 bytes after 1 match`, 200,229 bytes (plain) and 1,200,225 bytes (U+0001) of JSON, the match's path
 * 200,021+ characters. grepPage/showMatch (src/tools/core/grep-page.ts) copy `m.path` as it is, and a lone first match
 * is always shown however big. (Over RPC the same answer is worse: fs.grep's maxTotalLength counts only line text, so
 * a page of 201 matches carries the path 201 times.) docs/tools.md: grep's maxBytes is the "Cap on the result's JSON
 * (UTF-8), context included … at least one match is returned"; ls/find cut a path past 4,096 characters.
 * Suggested fix: show a match's path through clipName (as find's entries: first 4,096 characters, the marker,
 * `clipped: true` on the match), and count the path in fs.grep's maxTotalLength (or report each file's path once).
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup } from "../tools/helpers.js";

type Tool = { execute(input: unknown): Promise<Record<string, unknown>> };
const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

it.fails("grep shows a long match path cut as find does, so a page holds many matches within maxBytes", async () => {
  const { workspace } = await setup();
  const tools = Object.fromEntries(buildCoreTools({ workspace }).map((t) => [t.name, t as unknown as Tool]));
  const out: Record<string, unknown> = {};
  for (const [label, name] of [["plain", "d".repeat(200_000)], ["ctl", "\u0001".repeat(200_000)]] as const) {
    const dir = `/workspace/${label}/${name}`;
    await workspace.fs.mkdir(dir, { recursive: true });
    await workspace.fs.writeFile(`${dir}/f.txt`, "TODO\n".repeat(50));
    const find = await tools.find!.execute({ path: `/workspace/${label}`, pattern: "**/f.txt" });
    const entry = (find.entries as { path: string; clipped?: boolean }[])[0]!;
    // Held: find clips the path (`[… 195927 characters cut …]` for plain).
    const full = `${dir}/f.txt`;
    expect(entry).toEqual({ path: `${full.slice(0, 4096)}[… ${full.length - 4096} characters cut …]`, type: "file", clipped: true });
    const grep = await tools.grep!.execute({ path: `/workspace/${label}`, query: "TODO" });
    const first = (grep.matches as { path: string }[])[0]!;
    out[label] = { manyPerPage: (grep.count as number) >= 5, withinMaxBytes: bytesOf(grep) <= 262_144, pathCut: first.path.length <= 4096 + 40 };
  }
  // Found: plain { manyPerPage: false (count 1, nextOffset 1), withinMaxBytes: true (200,229 bytes), pathCut: false },
  //        ctl   { manyPerPage: false (count 1, nextOffset 1), withinMaxBytes: false (1,200,225 bytes), pathCut: false }.
  // (Cut paths: all 50 plain matches fit in a page; about ten of the U+0001 ones, 24 KB of JSON each.)
  const whole = { manyPerPage: true, withinMaxBytes: true, pathCut: true };
  expect(out).toEqual({ plain: whole, ctl: whole });
});
