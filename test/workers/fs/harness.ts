/**
 * workerd runner for the shared fs cases: each case runs inside
 * `runInDurableObject` on a new Durable Object, over its real SQLite storage.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace } from "../../../src/index.js";
import { ManualClock, makeContext, type FsHarness } from "../../shared/fs/harness.js";

export const workersHarness: FsHarness = {
  suite: "workers",
  model: { runs: 25, steps: 400 },
  bigStreamBytes: 64 * 1024 * 1024,
  async run(body) {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const clock = new ManualClock();
      const t = makeContext("workers", state.storage, clock, (s, now) => new Workspace({ storage: s, now }));
      try {
        await body(t);
      } finally {
        await t.workspace.close();
      }
    });
  },
};
