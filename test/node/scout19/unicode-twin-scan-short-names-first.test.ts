/**
 * Issue 20, scout after the nineteenth attack run: the Unicode-twin sibling scan's character bound
 * (src/tools/core/unicode-names.ts `siblingsOf`, UNICODE_SIBLING_SCAN_CHARS 512 Ki) sizes each page from the longest
 * name seen *so far* — two short names sorted first make the next page 1,000 entries, whatever their length.
 * Tried: `/workspace/d` holding two 1-character names (`0`, `1`, sorted first) and K = 100 empty files named with
 * 100,000 characters (`n…n<i>`), then pi's write of `é.txt` and read of the missing `ü.txt` in it; `fs.readdir` wrapped
 * (delegating, test/node/attack19a/name-reads.ts) to count the characters of names read.
 * Held: results are right (written; `File not found`), and without the two short names the write reads 5 names a scan
 * (attack19a unicode-twin-scan-reads-long-names-whole.test.ts).
 * Found (medium — the attack19a bound is bypassed by anyone who can create two short names beside the long ones;
 * 3 of 3 runs): the first page (2 entries) holds `0` and `1`, so `heaviest` is 1 and the second page asks for
 * min(1000, 524,286 / 1) = 1,000 entries: all K long names are read whole — the write reads 20,000,389 characters
 * (two scans: the twin check, then `earlierTwin`), the read 10,000,192 — ~20x UNICODE_SIBLING_SCAN_CHARS; with
 * 1,000 names of ~256 KiB one scan reads ~256 million characters again, as before the fix.
 * Suggested fix: the size of a page must be bounded by the longest name the *next* entries can have, not the longest
 * seen: ask for one entry at a time once the budget left is under a page of the longest possible name (PATH bound), or
 * page with a SQL bound on the characters (`sum(length(name))` window / `length(name) <= 2 * nfdLength` in the query),
 * or read names only up to the twin bound (`substr(name, 1, longest + 1)`).
 * Fixed: the scan asks `workspace.fs.readdir` only for names that can be twins (internal option MAX_NAME_LENGTH,
 * src/fs/options.ts: `AND length(name) <= ?` in src/fs/nodes.ts `list`, ≤ 2x the wanted name's NFD length in code
 * points) and sizes every page from the longest name it can hold (2x that in UTF-16 units), not the longest seen:
 * the long names are never read (readChars and writeChars are now a few characters).
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { UNICODE_SIBLING_SCAN_CHARS } from "../../../src/tools/core/unicode-names.js";
import { makeWorkspace } from "../tools/helpers.js";
import { countNameReads } from "../attack19a/name-reads.js";

const K = 100;
const NAME_CHARS = 100_000;

it(`two short names sorted first do not let one scan read past UNICODE_SIBLING_SCAN_CHARS (${K} names of ${NAME_CHARS})`, { timeout: 60_000 }, async () => {
  const ws = await makeWorkspace();
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  await ws.fs.writeFile("/workspace/d/0", "");
  await ws.fs.writeFile("/workspace/d/1", "");
  for (let i = 0; i < K; i++) await ws.fs.writeFile(`/workspace/d/${"n".repeat(NAME_CHARS)}${i}`, "");
  const pi = createPiTools({ workspace: ws });
  const names = countNameReads(ws.fs);
  const read = await pi.execute({ id: "r", name: "read", arguments: { path: "/workspace/d/\u00fc.txt" } });
  const readChars = names.chars();
  const write = await pi.execute({ id: "w", name: "write", arguments: { path: "/workspace/d/\u00e9.txt", content: "x" } });
  const writeChars = names.chars() - readChars;
  names.restore();
  expect(read).toMatchObject({ isError: true, content: [{ type: "text", text: "File not found: /workspace/d/\u00fc.txt" }] });
  expect(write).toMatchObject({ isError: false, content: [{ type: "text", text: '{"path":"/workspace/d/\u00e9.txt","bytesWritten":1}' }] });
  // One scan for the read, two for the write (the twin check, then earlierTwin): each within the bound (+ one name).
  expect({ readChars, writeChars }).toEqual({
    readChars: expect.toSatisfy((n: number) => n <= UNICODE_SIBLING_SCAN_CHARS + NAME_CHARS + 10),
    writeChars: expect.toSatisfy((n: number) => n <= 2 * (UNICODE_SIBLING_SCAN_CHARS + NAME_CHARS + 10)),
  });
});
