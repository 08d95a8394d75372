import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { defineStorageCases } from "../../shared/fs/index.js";
import { ManualClock, makeContext } from "../../shared/fs/harness.js";
import { populate, snapshotTree } from "../../shared/fs/storage.cases.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs durability and storage (workers)", () => {
  defineStorageCases(workersHarness);

  it("a Workspace in a later runInDurableObject call on the same stub sees every file", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const create = (storage: DurableObjectStorage, now: () => number) => new Workspace({ storage, now });
    const first = await runInDurableObject(stub, async (_instance, state) => {
      const t = makeContext("workers", state.storage, new ManualClock(), (s, now) => create(s as DurableObjectStorage, now));
      await populate(t);
      return snapshotTree(t);
    });
    expect(first.length).toBeGreaterThan(5);
    const second = await runInDurableObject(stub, async (_instance, state) => {
      const t = makeContext("workers", state.storage, new ManualClock(9), (s, now) => create(s as DurableObjectStorage, now));
      return snapshotTree(t);
    });
    expect(second).toEqual(first);
  });
});
