/**
 * Issue 20, twenty-fifth attack run: through a getWorkspace() client the grep tool answers only
 * `E2BIG: the result is over 31457280 bytes …` when one file under a long directory name has a few hundred matches —
 * every search of /workspace fails, and the advice it gives ("bound it with … maxTotalLength") is what the tool does.
 * Tried: a ClientTestAgent object; through `getWorkspace(stub)`: `/workspace/<200,000 × d>/f.txt` holding 300 lines
 * `TODO`, `/workspace/a.txt` holding one; the default core tool set over the client; grep `{ path: "/workspace",
 * query: "TODO" }` (page limit 200, maxBytes 262,144).
 * Held: the same search on the local Workspace returns a page (one match, the result cut — see
 * test/node/attack25a/grep-tool-match-path-not-clipped.test.ts); fs.grep over RPC refuses with E2BIG rather than
 * workerd's bare size error.
 * Found (medium — "no way out": the model cannot grep the tree at all, and paging or narrowing the query does not
 * help, only an `exclude` of a directory it cannot see; 3 of 3 runs): `{ error: "E2BIG: the result is over 31457280
 * bytes, more than crosses RPC (workerd's limit is 32 MiB); page it with { limit, offset }, or bound it with {
 * maxLineLength, maxTotalLength }, grep: /workspace" }`. The tool asks fs.grep for limit + 1 = 201 matches with
 * maxTotalLength = its byte budget, but maxTotalLength counts only the lines' text (src/fs/types.ts "Characters of
 * reported text (`text` of matches and context lines …)"), so the answer carries the 200,000-character path 201 times
 * (~40 MB). docs/tools.md: the tool passes maxTotalLength "so the filesystem never builds more than about one page,
 * even over RPC".
 * Suggested fix: count each match's path in fs.grep's maxTotalLength (src/fs/grep.ts), or have the tool cut a match's
 * path (clipName) before it is measured and ask for fewer matches when paths are long; at the least, on E2BIG retry
 * with a smaller limit instead of failing the call.
 * Fixed: fs.grep's maxTotalLength counts each match's path as well as its text (src/fs/grep.ts), so the answer the
 * tool asks for stays about one page over RPC; the tool shows each match's path cut to 4,096 characters
 * (`pathClipped: true`) and, while an answer that stopped at the bound leaves room in the page, asks again from
 * the first match not yet seen (fetchGrepPage in src/tools/core/grep-page.ts, follow-ups bounded at 4 budgets).
 * Now: 63 matches (a.txt's, then 62 cut-path ones), 259,725 bytes, nextOffset 63; five pages (63, 62, 62, 62, 52) return all 301 once each.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";

it("the grep tool over a getWorkspace() client returns a page for a deep file with many matches", async () => {
  const stub = env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
  using ws = await getWorkspace(stub);
  const dir = `/workspace/${"d".repeat(200_000)}`;
  await ws.fs.mkdir(dir, { recursive: true });
  await ws.fs.writeFile(`${dir}/f.txt`, "TODO\n".repeat(300));
  await ws.fs.writeFile("/workspace/a.txt", "TODO\n");
  const tools = Object.fromEntries(buildCoreTools({ workspace: ws as never }).map((t) => [t.name, t as unknown as { execute(i: unknown): Promise<Record<string, unknown>> }]));
  const full = `${dir}/f.txt`;
  const shown = `${full.slice(0, 4096)}[… ${full.length - 4096} characters cut …]`;
  const pages: Record<string, unknown>[] = [];
  for (let offset: number | undefined = 0; offset !== undefined; ) {
    const grep = await tools.grep!.execute({ path: "/workspace", query: "TODO", offset });
    // Found: { error: "E2BIG: the result is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); page it with
    // { limit, offset }, or bound it with { maxLineLength, maxTotalLength }, grep: /workspace" }.
    expect(grep.error).toBeUndefined();
    expect(new TextEncoder().encode(JSON.stringify(grep)).byteLength).toBeLessThanOrEqual(262_144);
    pages.push(grep);
    offset = grep.nextOffset as number | undefined;
  }
  const first = pages[0]!;
  expect({ count: first.count, nextOffset: first.nextOffset, bytes: new TextEncoder().encode(JSON.stringify(first)).byteLength }).toEqual({
    count: 63,
    nextOffset: 63,
    bytes: 259_725,
  });
  expect(pages.map((p) => p.count)).toEqual([63, 62, 62, 62, 52]);
  expect(pages.flatMap((p) => p.matches as unknown[])).toEqual([
    { path: "/workspace/a.txt", line: 1, text: "TODO" },
    ...Array.from({ length: 300 }, (_, i) => ({ path: shown, line: i + 1, text: "TODO", pathClipped: true })),
  ]);
}, 120_000);
