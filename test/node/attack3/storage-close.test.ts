/**
 * Issue 20 third attack run, category 5 on Node: the database closed under a
 * streamed write and under a rename/rm storm (the nearest Node has to a
 * Durable Object abort). The write fails; a Workspace reopened on the same
 * file finds the old content, storage sound, the write's staged chunks
 * unreferenced and leased, and works.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";
import { expectFilesReadWhole, writeTwentyTrees } from "./fs-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "attack3-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attack3: the database closed mid-operation (Node)", () => {
  it("closed under a streamed write: the write fails, the reopened store has the old file and sound storage", async () => {
    const file = join(dir, "write.sqlite");
    const storage = nodeSqliteStorage(file);
    const ws = new Workspace({ storage });
    await ws.fs.writeFile("/f", "OLD");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let sent = 0;
    let twoSent!: () => void;
    const sentTwo = new Promise<void>((r) => (twoSent = r));
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent === 2) {
          twoSent();
          await gate;
          c.enqueue(new Uint8Array(10).fill(9));
          c.close();
          return;
        }
        sent++;
        c.enqueue(new Uint8Array(524_288).fill(sent));
      },
    });
    const writing = ws.fs.writeFile("/f", stream).then(() => "written", (e: Error) => `rejected: ${e.message}`);
    await sentTwo;
    storage.close();
    release();
    expect(await writing).toMatch(/^rejected: /);
    const reopened = nodeSqliteStorage(file);
    const again = new Workspace({ storage: reopened });
    expect(await again.fs.readFile("/f", "utf8")).toBe("OLD");
    expect(integrityProblems(reopened.sql)).toEqual([]);
    expect(unleasedOrphans(reopened.sql)).toBe(0);
    await again.fs.writeFile("/g", new Uint8Array(524_288).fill(1)); // the same content as a staged chunk
    expect(integrityProblems(reopened.sql)).toEqual([]);
    expect((await again.fs.stat("/g")).size).toBe(524_288);
    reopened.close();
  });

  it("closed during a storm of renames, removals and writes: the reopened store is sound", async () => {
    const file = join(dir, "storm.sqlite");
    const storage = nodeSqliteStorage(file);
    const ws = new Workspace({ storage });
    await writeTwentyTrees(ws);
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      ops.push(ws.fs.rename(`/t${i}`, `/u${i}`).catch(() => undefined));
      ops.push(ws.fs.writeFile(`/u${i}/s/g`, new Uint8Array(700_000).fill(i)).catch(() => undefined));
      ops.push(ws.fs.rm(`/u${(i + 3) % 20}`, { recursive: true, force: true }).catch(() => undefined));
      if (i === 10) ops.push(Promise.resolve().then(() => storage.close()));
    }
    await Promise.all(ops);
    const reopened = nodeSqliteStorage(file);
    const again = new Workspace({ storage: reopened });
    expect(integrityProblems(reopened.sql)).toEqual([]);
    await expectFilesReadWhole(again);
    await again.fs.writeFile("/after", "works");
    expect(await again.fs.readFile("/after", "utf8")).toBe("works");
    reopened.close();
  });
});
