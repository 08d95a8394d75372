/**
 * Issue 20, nineteenth attack run: `node:fs` `readdir` of the JavaScript backend (bridge.ts `#fs_` "readdir") — the
 * documented bounds are `maxDirectoryEntries` (1024 entries, more fail `E2BIG`) and `maxCapabilityResponseBytes` (8 MiB
 * of responses per run, docs/runtime.md) — against a directory of long names.
 * Tried: `/workspace/many` holding K = 200 empty files, each name 100,000 characters (names have no bound of their own
 * but the 256 KiB path; attack3 writes a 200,000-character name from a run), then a run (Node has no Worker Loader: a
 * stand-in isolate calling the backend's real bridge, as test/node/attack18a) calling `readdir("/workspace/many")`
 * once; `workspace.fs.readdir` wrapped (delegating, test/node/attack19a/name-reads.ts) to count the characters of
 * names the host reads.
 * Held: the call fails `E2BIG` (`host call responses exceed maxCapabilityResponseBytes (8388608) for this run`), so
 * nothing past the budget reaches the isolate.
 * Found (medium — one call, 8 MiB documented, ~20 MB held, 3 of 3 runs): the host lists up to
 * `maxDirectoryEntries + 1` entries with their names whole (`fs.readdir(p, { limit: 1025 })`), builds the response,
 * and only then measures it against the run's response budget: the one call read 20,000,490 characters of names (≈40 MB as JS
 * strings, plus the entry objects and the copy it builds) to answer E2BIG. With 1,024 names of 250,000 characters (each path inside 256 KiB) one `readdir` makes the host hold ~256 million characters — past a Durable
 * Object's 128 MB — whatever the run's budget says.
 * Suggested fix: page the listing (e.g. `readdir(p, { limit: 64, offset })`) and stop as soon as the names so far pass
 * what the run may still receive (`maxCapabilityResponseBytes - responseBytes`, or `maxCapabilityBytes` per call),
 * failing `E2BIG` then; or select `sum(length(name))` in SQL first.
 * Fixed: bridge.ts reads the listing page by page (`READDIR_PAGE_ENTRIES`, 64; fewer once the longest entry so far says
 * a full page would pass what the run may still receive), measures each entry as the response budget does, and fails
 * `E2BIG` (same message) as soon as they pass `maxCapabilityResponseBytes` less the run's responses so far; a listing of
 * more than one page starts over when the store changed between pages (`READDIR_ATTEMPTS`, 8, then `EIO`).
 */
import { expect, it } from "vitest";
import { readdirWorkspace } from "../runtime/loader-standin.js";
import { countNameReads } from "./name-reads.js";

const K = 200;
const NAME_CHARS = 100_000;
/** maxCapabilityResponseBytes by default (docs/runtime.md). */
const RESPONSE_BUDGET = 8 * 1024 * 1024;

it(`one readdir of ${K} names of ${NAME_CHARS} characters reads at most the 8 MiB response budget from SQL, then E2BIG (today 20,000,490)`, { timeout: 60_000 }, async () => {
  const { ws, run } = readdirWorkspace("/workspace/many");
  await ws.fs.mkdir("/workspace/many", { recursive: true });
  for (let i = 0; i < K; i++) await ws.fs.writeFile(`/workspace/many/${"n".repeat(NAME_CHARS)}${i}`, "");
  const names = countNameReads(ws.fs);
  let answer: unknown;
  try {
    const ran = await run();
    expect(ran.exitCode).toBe(0);
    answer = ran.answer;
  } finally {
    names.restore();
  }
  expect(answer).toMatchObject({ ok: false, error: { code: "E2BIG", message: "host call responses exceed maxCapabilityResponseBytes (8388608) for this run" } });
  await ws.close();
  expect(names.chars()).toBeLessThanOrEqual(RESPONSE_BUDGET + NAME_CHARS);
});
