/**
 * Issue 20, scout after the nineteenth attack run: `pruneOutputDir`'s character bound (src/runtime/output.ts,
 * OUTPUT_PRUNE_SCAN_CHARS 1 Mi) sizes each page of the output directory's listing from the longest name seen *so far*
 * — four short names sorted first make the next page 1,000 entries, whatever their length.
 * Tried: `/.computer/output` holding four 1-character files (`0`…`3`, sorted first) and K = 100 empty files named with
 * 100,000 characters, then one command of a module backend (test/node/runtime/script-backend.ts) whose stdout passes
 * `maxBytes: 100` (its log is saved, the directory pruned); `fs.readdir` wrapped (delegating,
 * test/node/attack19a/name-reads.ts) to count what the prune reads.
 * Held: the log is saved, the planted files stay; without the short names the prune stops near the bound
 * (attack19a output-prune-reads-output-dir-whole.test.ts).
 * Found (medium — every truncated command of every backend pays it while the entries stay; 3 of 3 runs): the first
 * page (PRUNE_FIRST_PAGE 4) holds `0`…`3`, `heaviest` is 1, the second asks for min(1000, 9,996, 1,048,572) = 1,000
 * entries: all K names are read whole, 10,000,212 characters (~10x OUTPUT_PRUNE_SCAN_CHARS); 1,000 names of ~256 KiB
 * bring back the ~256 million characters per command the fix meant to stop.
 * Suggested fix: bound a page by the longest name an entry can have, not the longest seen (one entry at a time once
 * the budget left is under PAGE x the path bound), or select the logs in SQL (suffix, mtime order, LIMIT) — an output
 * log's name is at most the backend id + 256-byte encoded exec id, so names longer than that need not be read whole
 * (`substr(name, 1, n)` / `length(name) <= n` in the query).
 * Fixed: the prune lists only names of at most OUTPUT_PRUNE_NAME_CHARS (4096) characters (internal readdir option
 * MAX_NAME_LENGTH, filtered in SQL in src/fs/nodes.ts `list`) and sizes each page from the longest name it can hold
 * (2 x 4096 code units, 128 entries a page), not the longest seen: the 100,000-character names are never read.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { OUTPUT_PRUNE_SCAN_CHARS } from "../../../src/runtime/output.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { countNameReads } from "../attack19a/name-reads.js";

const K = 100;
const NAME_CHARS = 100_000;

it(`four short names sorted first do not let a prune read past OUTPUT_PRUNE_SCAN_CHARS (${K} names of ${NAME_CHARS})`, { timeout: 60_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend({ id: "sh" })] });
  await ws.fs.mkdir("/.computer/output", { recursive: true });
  for (const short of ["0", "1", "2", "3"]) await ws.fs.writeFile(`/.computer/output/${short}`, "");
  for (let i = 0; i < K; i++) await ws.fs.writeFile(`/.computer/output/${"n".repeat(NAME_CHARS)}${i}`, "");
  const names = countNameReads(ws.fs);
  const result = await (await ws.runtime.exec("repeat stdout 40 row ", { id: "rows", encoding: "utf8", output: { maxBytes: 100 } })).result();
  names.restore();
  expect(result.truncated?.stdout).toMatchObject({ status: "saved", path: "/.computer/output/sh.rows.stdout.log", totalLines: 40 });
  expect((await ws.fs.readdir("/.computer/output", { limit: 1000 })).length).toBe(4 + K + 1);
  expect(names.chars()).toBeLessThanOrEqual(OUTPUT_PRUNE_SCAN_CHARS + NAME_CHARS + 10);
});
