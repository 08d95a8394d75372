/**
 * Issue 20, scout after the nineteenth attack run: the JavaScript backend's `node:fs` `readdir` pages
 * (src/backends/worker-javascript/bridge.ts `#readdir`, READDIR_PAGE_ENTRIES 64) are sized from the longest entry seen
 * so far — which is nothing for the first page, so the first page (and any page after short names) is 64 entries of
 * any length, read whole before the response budget is checked.
 * Tried: a backend with `maxCapabilityResponseBytes: 1 MiB`, `/workspace/d` holding K = 70 empty files named with
 * 50,000 characters, one run (Worker Loader stand-in, test/node/runtime/loader-standin.ts, calling the real bridge)
 * calling `readdir("/workspace/d")`; `fs.readdir` wrapped (delegating, test/node/attack19a/name-reads.ts) to count
 * the characters of names read. Held: the answer is right (`E2BIG`, `host call responses exceed
 * maxCapabilityResponseBytes (1048576) for this run`), and a directory of short names is listed whole (fix19a2).
 * Found (low/medium — the bound docs/runtime.md gives, "fails E2BIG as soon as they pass what is left of
 * maxCapabilityResponseBytes … a directory of long names is not read whole to be refused", is off by up to 64 names of
 * a path's most, ~64 x 256 KiB ≈ 16.7 million characters against the default 8 MiB; 3 of 3 runs): the first page asks
 * for min(64, left / 1) = 64 entries: 3,200,121 characters of names are read for a 1 MiB budget (~3x), and with the
 * default budget 64 names of ~256 KiB are read (~2x) before E2BIG.
 * Suggested fix: start with a page of 1 (or 2, as the twin scan) and size the next pages from the longest name seen
 * *and* the longest possible (the path bound) while the budget left is under 64 of those — or ask SQL for names only up
 * to what is left (`substr(name, 1, left)`), so no page reads more than the budget left plus one name.
 * Fixed: every page (the first included) asks for at most (budget left) / (the most an entry can measure: a name of
 * `MAX_PATH_BYTES` less the directory's path, plus the entry's fields) entries, at least 1 — so all pages together read
 * at most the budget left plus one name (4 per page here; 31 a page with the default 8 MiB: 1,024 short names take 34
 * queries, were 17).
 */
import { expect, it } from "vitest";
import { readdirWorkspace } from "../runtime/loader-standin.js";
import { countNameReads } from "../attack19a/name-reads.js";

const K = 70;
const NAME_CHARS = 50_000;
const BUDGET = 1024 * 1024;

it(`readdir of ${K} names of ${NAME_CHARS} characters reads at most the ${BUDGET}-byte response budget (+ one name) before E2BIG`, { timeout: 60_000 }, async () => {
  const { ws, run } = readdirWorkspace("/workspace/d", { maxCapabilityResponseBytes: BUDGET });
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  for (let i = 0; i < K; i++) await ws.fs.writeFile(`/workspace/d/${"n".repeat(NAME_CHARS)}${i}`, "");
  const names = countNameReads(ws.fs);
  let answer: unknown;
  try {
    const ran = await run();
    expect(ran.exitCode).toBe(0);
    answer = ran.answer;
  } finally {
    names.restore();
  }
  await ws.close();
  expect(answer).toMatchObject({ ok: false, error: { code: "E2BIG", message: `host call responses exceed maxCapabilityResponseBytes (${BUDGET}) for this run` } });
  expect(names.chars()).toBeLessThanOrEqual(BUDGET + NAME_CHARS + 10);
});
