/**
 * Issue 20, nineteenth attack run: the JavaScript backend's per-run memo of directories found not to be links
 * (src/backends/worker-javascript/paths.ts `ConfinedResolver`, "At most 1024 entries") — what it holds when the
 * directories have long paths.
 * Tried: T = 8 trees `/workspace/t<i>/<64 directories of 2,000-character names>/f` (each path 128,077 characters,
 * its ancestors' paths ~4.2 MB together: within the filesystem's 256 KiB path and 32 MiB ancestors bounds), then one
 * run (Node has no Worker Loader: a stand-in isolate calling the backend's real bridge, as test/node/attack18a) that
 * `stat`s each tree's `f` twice (16 calls, ~2 MB of requests, well inside maxCapabilityRequestBytes' 8 MiB);
 * `workspace.fs.lstat` wrapped (delegating) to see which directories the second pass checks again — those it skips are
 * held in the memo. Held: every stat is right; nothing is followed through a link.
 * Found (medium — per run, across calls, with no character bound; 3 of 3 runs): the memo keeps every directory
 * prefix as its own string: after the first pass the second checks only the 8 files, so the memo holds 528 prefixes,
 * 33,303,480 characters — from 1 MB of requests. The bound is 1,024 entries, not characters: 8 trees of 128 levels
 * (paths of ~256 KiB, ancestors ~16.5 MB each) fill it with ~132 million characters from 8 stat calls (2 MB of
 * requests), past a Durable Object's 128 MB, and it stays for the rest of the run.
 * Suggested fix: bound the memo in characters as well as entries (e.g. MAX_MEMO_CHARS 1 MiB, counting each key's
 * length, starting over past it), or memoize only directories whose path is short (e.g. ≤ 4,096 characters) — long
 * ones are rare and are checked again.
 * Fixed: the memo is bounded in characters too — `MAX_MEMO_CHARS` (1 Mi, exported from paths.ts, docs/runtime.md),
 * each entry counted by its path's length — and past either bound it forgets its oldest entries (it used to start over
 * at 1,024 entries), so the second pass finds at most 1 Mi characters of prefixes held.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

const T = 8;
const DEPTH = 64;
const NAME_CHARS = 2000;
/** What the memo may hold of directory paths (characters). */
const BOUND = 1_048_576;

const deep = (t: number) => `/workspace/t${t}/` + Array.from({ length: DEPTH }, (_, i) => `${i}`.padEnd(NAME_CHARS, "s")).join("/");
type Bridge = { call(kind: string, target: string, name: string, args: unknown[], meta: object): Promise<{ ok: boolean; value?: { isFile?: boolean } }> };

it(`after stat-ing ${T} files ${DEPTH} directories of ${NAME_CHARS} characters deep, a run's path memo holds at most ${BOUND} characters (today 33,303,480)`, { timeout: 60_000 }, async () => {
  let second = false;
  const checked = new Set<string>();
  const answers: unknown[] = [];
  const loader = {
    load: () => ({
      getEntrypoint: () => ({
        async evaluate(_input: unknown, bridge: Bridge) {
          for (const pass of [1, 2]) {
            second = pass === 2;
            for (let t = 0; t < T; t++) answers.push((await bridge.call("fs", "", "stat", [`${deep(t)}/f`], { seq: 0, tape: [] })).value?.isFile);
          }
          return { code: 0, value: "null" };
        },
        [Symbol.dispose]() {},
      }),
    }),
  };
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new WorkerJavaScriptBackend({ loader: loader as never })] });
  for (let t = 0; t < T; t++) {
    await ws.fs.mkdir(deep(t), { recursive: true });
    await ws.fs.writeFile(`${deep(t)}/f`, "x");
  }
  const fs = ws.fs as { lstat: (path: string) => Promise<unknown> };
  const lstat = fs.lstat.bind(fs);
  fs.lstat = async (path) => {
    if (second) checked.add(path);
    return lstat(path);
  };
  const result = await (await ws.runtime.exec("export default () => null;", { encoding: "utf8" })).result();
  fs.lstat = lstat;
  expect(result.exitCode).toBe(0);
  expect(answers).toEqual(Array.from({ length: 2 * T }, () => true));
  // Directories the second pass did not check again: held in the memo, each its whole path.
  let held = 0;
  for (let t = 0; t < T; t++) {
    let prefix = "";
    for (const segment of deep(t).split("/").filter(Boolean)) {
      prefix += `/${segment}`;
      if (!checked.has(prefix)) held += prefix.length;
    }
  }
  await ws.close();
  expect(held).toBeLessThanOrEqual(BOUND);
});
