/**
 * Issue 20, nineteenth attack run: the runtime's long-output files (docs/runtime.md: a stream over the limits is
 * saved to `/.computer/output/<backend>.<id>.<stream>.log`, the newest `keep` (50) logs are kept) — what pruning that
 * directory costs when something else lives in it.
 * Tried: a Workspace whose `/.computer/output` holds K = 100 empty files named with 100,000 characters each (what a
 * shell command, the unrooted write tool or a container sync can put there: names have no limit of their own, only the
 * 256 KiB path bound), then one command of a module backend (test/node/runtime/script-backend.ts) whose stdout passes
 * `maxBytes: 100`, so its log is saved and the directory pruned; `workspace.fs.readdir` is wrapped (delegating) to count
 * what the runtime reads. Held: the log is saved (`status: "saved"`), the planted files are left alone ("other files
 * are never touched"), the command's result is right.
 * Found (medium — every long-output command of every backend pays it, for as long as the entries stay; 3 of 3 runs):
 * `pruneOutputDir` (src/runtime/output.ts) calls `fs.readdir(dir)` with no `limit` — every entry of the directory, its
 * name whole, is loaded to pick the `.stdout.log`/`.stderr.log` files: one command read 101 entries and 10,000,208
 * characters of names (≈20 MB as JS strings, plus the rows' copies). The planted entries are never pruned (not logs),
 * so the cost comes back with every truncated command: 1,000 such names of 200,000 characters make each one read
 * ~200 million characters — past a Durable Object's 128 MB — and many short names the same (one dirent object each).
 * Suggested fix: page the directory (`readdir(dir, { limit, offset })`, e.g. 1,000 entries a page) keeping only
 * log names, and skip names longer than an output log's can be (`outputPath` names: backend id + encoded exec id of at
 * most 256 bytes); or select the logs in SQL (suffix and mtime order, LIMIT) instead of listing the directory.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { countNameReads } from "./name-reads.js";

/** Entries planted in the output directory, and the characters of each name. */
const K = 100;
const NAME_CHARS = 100_000;
/** What one prune may read of names (characters): a page, not the directory. */
const BOUND = 1_048_576;

it(`a truncated command's prune reads at most ${BOUND} characters of names from an output dir holding ${K} names of ${NAME_CHARS} (today 10,000,208)`, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend({ id: "sh" })] });
  await ws.fs.mkdir("/.computer/output", { recursive: true });
  for (let i = 0; i < K; i++) await ws.fs.writeFile(`/.computer/output/${"n".repeat(NAME_CHARS)}${i}`, "");
  const names = countNameReads(ws.fs);
  const result = await (await ws.runtime.exec("repeat stdout 40 row ", { id: "rows", encoding: "utf8", output: { maxBytes: 100 } })).result();
  expect(result.truncated?.stdout).toMatchObject({ status: "saved", path: "/.computer/output/sh.rows.stdout.log", totalLines: 40 });
  names.restore();
  expect((await ws.fs.readdir("/.computer/output", { limit: 1000 })).length).toBe(K + 1);
  expect(names.chars()).toBeLessThanOrEqual(BOUND);
});

it("keep-N stays exact when the logs span several pages of the listing (1,500 logs, keep 3)", async () => {
  let t = 1000;
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend({ id: "sh" })], output: { keep: 3 }, now: () => (t += 10) });
  await ws.fs.mkdir("/.computer/output", { recursive: true });
  await ws.fs.writeFile("/.computer/output/notes.txt", "keep me");
  for (let i = 0; i < 1500; i++) await ws.fs.writeFile(`/.computer/output/sh.old${i}.stdout.log`, "");
  const result = await (await ws.runtime.exec("repeat stdout 40 row ", { id: "rows", encoding: "utf8", output: { maxBytes: 100 } })).result();
  expect(result.truncated?.stdout).toMatchObject({ status: "saved", path: "/.computer/output/sh.rows.stdout.log" });
  const names = (await ws.fs.readdir("/.computer/output")).map((e) => e.name);
  expect(names).toEqual(["notes.txt", "sh.old1498.stdout.log", "sh.old1499.stdout.log", "sh.rows.stdout.log"]);
});
