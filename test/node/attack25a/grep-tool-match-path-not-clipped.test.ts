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
 * Fixed: showMatch (src/tools/core/grep-page.ts) shows a match's path through clipName — its first 4,096
 * characters, then `[… N characters cut …]`, and `pathClipped: true` on the match (not `clipped`, which keeps
 * meaning the line's text was cut), with a note saying so; fs.grep's maxTotalLength now counts each match's path
 * as well as its text (src/fs/grep.ts), and the tool (fetchGrepPage) asks again from the first match not yet seen
 * while an answer stopped at that bound leaves room in the page (follow-ups bounded at 4 budgets). Plain: all 50
 * matches in one page of 209,393 bytes; U+0001: 10 matches (246,264 bytes), nextOffset 10, and five pages return
 * the 50 matches once each.
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup } from "../tools/helpers.js";

type Tool = { execute(input: unknown): Promise<Record<string, unknown>> };
const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

const NOTE_PATHS =
  'Paths longer than 4096 characters were cut to their first 4096, "[… N characters cut …]" marking what was left out (pathClipped: true); such a path cannot be passed back as shown — match it with a find glob or use exec.';

it("grep shows a long match path cut as find does, so a page holds many matches within maxBytes", async () => {
  const { workspace } = await setup();
  const tools = Object.fromEntries(buildCoreTools({ workspace }).map((t) => [t.name, t as unknown as Tool]));
  for (const [label, name] of [["plain", "d".repeat(200_000)], ["ctl", "\u0001".repeat(200_000)]] as const) {
    const dir = `/workspace/${label}/${name}`;
    await workspace.fs.mkdir(dir, { recursive: true });
    await workspace.fs.writeFile(`${dir}/f.txt`, "TODO\n".repeat(50));
    const find = await tools.find!.execute({ path: `/workspace/${label}`, pattern: "**/f.txt" });
    const entry = (find.entries as { path: string; clipped?: boolean }[])[0]!;
    // Held: find clips the path (`[… 195927 characters cut …]` for plain).
    const full = `${dir}/f.txt`;
    const shownPath = `${full.slice(0, 4096)}[… ${full.length - 4096} characters cut …]`;
    expect(entry).toEqual({ path: shownPath, type: "file", clipped: true });
    const pages: Record<string, unknown>[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const grep = await tools.grep!.execute({ path: `/workspace/${label}`, query: "TODO", offset });
      expect(bytesOf(grep)).toBeLessThanOrEqual(262_144);
      pages.push(grep);
      offset = grep.nextOffset as number | undefined;
    }
    const all = pages.flatMap((p) => p.matches as unknown[]);
    expect(all).toEqual(Array.from({ length: 50 }, (_, i) => ({ path: shownPath, line: i + 1, text: "TODO", pathClipped: true })));
    const first = pages[0]!;
    if (label === "plain") {
      // All 50 in one page: 209,393 bytes of JSON.
      expect({ pages: pages.length, count: first.count, bytes: bytesOf(first), note: first.note }).toEqual({ pages: 1, count: 50, bytes: 209_393, note: NOTE_PATHS });
    } else {
      // Six bytes of JSON a character: 10 matches (24,581 bytes each) a page, five pages.
      expect({ pages: pages.length, count: first.count, nextOffset: first.nextOffset, bytes: bytesOf(first), note: first.note }).toEqual({
        pages: 5,
        count: 10,
        nextOffset: 10,
        bytes: 246_264,
        note: `Result cut at 262144 bytes after 10 matches; call again with offset = 10 for the rest. ${NOTE_PATHS}`,
      });
    }
  }
});
