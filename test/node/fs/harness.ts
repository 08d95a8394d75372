/**
 * Node runner for the shared fs cases: a fresh `node:sqlite` in-memory store
 * per case, `new Workspace({ storage: nodeSqliteStorage(), now })`.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { ManualClock, makeContext, type FsHarness } from "../../shared/fs/harness.js";

let gc: (() => void) | undefined;
function liveMemory(): number {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export const nodeHarness: FsHarness = {
  suite: "node",
  model: { runs: 25, steps: 400 },
  bigStreamBytes: 64 * 1024 * 1024,
  async run(body) {
    const storage = nodeSqliteStorage(":memory:");
    const clock = new ManualClock();
    const t = makeContext("node", storage, clock, (s, now) => new Workspace({ storage: s, now }), liveMemory);
    try {
      await body(t);
    } finally {
      await t.workspace.close();
      storage.close();
    }
  },
};
