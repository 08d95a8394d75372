/**
 * The JavaScript backend's `node:fs` `rm` resolved its path before looking at it, so `rm("d/.", { recursive: true })`
 * and `rm("d/sub/..", …)` removed `d` — node:fs on Linux refuses a last segment `.` with EINVAL (lead from the twentieth
 * attack run's area b, which found the same in the shell and the provider). Now `rm` answers EINVAL for a last segment
 * `.` or `..` as written, and removes nothing.
 */
import { expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { standInLoader, type StandInAnswer } from "./loader-standin.js";

it("node:fs rm of d/., d/./ and d/sub/.. is EINVAL and removes nothing; rm of d still works", async () => {
  const answers: StandInAnswer[] = [];
  const paths = ["/workspace/d/.", "/workspace/d/./", "/workspace/d/sub/..", "d/.", "/workspace/d"];
  let seq = 0;
  const loader = standInLoader(async (_input, bridge) => {
    for (const path of paths) answers.push((await bridge.call("fs", "", "rm", [path, true, false], { seq: ++seq, tape: [] })) as StandInAnswer);
    return { code: 0, value: "null" };
  });
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new WorkerJavaScriptBackend({ loader: loader as never })] });
  await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
  await ws.fs.writeFile("/workspace/d/f.txt", "keep");
  const result = await (await ws.runtime.exec("export default () => null;", { encoding: "utf8", cwd: "/workspace" })).result();
  expect(result.exitCode).toBe(0);
  expect(answers.map((a) => (a.ok ? "ok" : `${a.error?.code}: ${a.error?.message}`))).toEqual([
    'EINVAL: EINVAL: invalid argument, rm \'/workspace/d\' (a path ending in ".")',
    'EINVAL: EINVAL: invalid argument, rm \'/workspace/d\' (a path ending in ".")',
    'EINVAL: EINVAL: invalid argument, rm \'/workspace/d\' (a path ending in "..")',
    'EINVAL: EINVAL: invalid argument, rm \'/workspace/d\' (a path ending in ".")',
    "ok",
  ]);
  expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual([]);
  await ws.close();
});
