/**
 * Issue 20, run 40, attacker c: chunk leases are dated with the Workspace's `now` — the option docs/filesystem.md
 * describes as the "Clock in ms used for every `mtime`" — and compared by every other Workspace's sweep against ITS
 * `now`. Two Workspaces on one SQLite file (two handles in one process, or two processes: "Several connections may
 * share one file") whose `now` differ therefore disagree on whether a lease is live. A Workspace given a fixed or
 * logical mtime clock (the project's own Durable Object test agents use `now: () => 1_700_000_000_000`) writes leases
 * that "ended" years ago for a Workspace on the real clock: the latter's next sweep — after any write that
 * releases content — reclaims the LIVE writer's staged chunks and the live reader's leased chunks within
 * milliseconds. The writer's commit then fails `EIO` ("a staged chunk is missing from the store"), the reader's next
 * pull `EIO` — where the docs promise that "no sweep by another Workspace, process or isolate takes them" (Storage
 * model and limits). (The other way round, a clock ahead of real time keeps a crashed writer's chunks for as long as
 * it is ahead.)
 *
 * Reproduction: file w.db; A = new Workspace({ storage: nodeSqliteStorage(file), now: () => 1_700_000_000_000 });
 * B = new Workspace({ storage: nodeSqliteStorage(file) }). A streams a 3 × 512 KiB write to /f and stops after two
 * chunks are staged; B writes /g then removes it (its sweep); A's stream ends.
 * Today: A's writeFile rejects EIO "a staged chunk is missing from the store; the file was not changed" 0 ms of real
 * time after it staged; /f keeps its old content. Likewise A's open 3-chunk read stream fails EIO after B
 * overwrites /f.
 * Expected: both as with equal clocks (test/node/fs/staged-leases.test.ts, read-leases.test.ts): the write lands
 * (the 3 chunks), the stream reads its snapshot. A lease is a matter of elapsed real time between processes, not
 * of the mtime a Workspace stamps.
 * Cause: src/fs/chunks.ts `ChunkStore` gets the Workspace's `now` as its `clock` (stage/renew/openRead/sweep), so
 * `until` and the sweep's `now` come from per-Workspace clocks; src/fs/write.ts even decides renewals with
 * `Date.now()` while dating them with that clock. Leases need one clock all connections share (`Date.now()`), with
 * the test hook kept separate from the mtime clock.
 * Severity: low–medium (needs a custom `now`; a live write or read fails EIO, nothing is corrupted).
 * Fixed in run 40 by fixer f40fs: ChunkStore dates stage/renew/openRead/sweep with Date.now(), never the Workspace's `now`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type NodeSqliteStorage } from "../../../src/index.js";
import { CHUNK_SIZE } from "../../../src/fs/chunks.js";

const FIXED = 1_700_000_000_000; // test/workers/client/agent.ts's clock

function piece(i: number): Uint8Array {
  const bytes = new Uint8Array(CHUNK_SIZE);
  for (let k = 0; k < bytes.length; k += 4096) bytes[k] = (k / 4096 + i * 7) & 0xff;
  bytes[0] = i + 1;
  return bytes;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function pair(): { a: Workspace; b: Workspace; sa: NodeSqliteStorage } {
  const dir = mkdtempSync(join(tmpdir(), "attack40c-clock-"));
  const file = join(dir, "w.db");
  const sa = nodeSqliteStorage(file);
  const sb = nodeSqliteStorage(file);
  const a = new Workspace({ storage: sa, now: () => FIXED });
  const b = new Workspace({ storage: sb });
  cleanups.push(async () => {
    await a.close();
    await b.close();
    sa.close();
    sb.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { a, b, sa };
}

it("a live stream write of a Workspace with a fixed mtime clock keeps its staged chunks from another Workspace's sweep", async () => {
  const { a, b } = pair();
  await a.fs.writeFile("/f", "OLD");
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const staged = new Promise<void>((r) => (reached = r));
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (i === 2) {
          reached();
          await gate;
        }
        if (i === 3) return controller.close();
        controller.enqueue(piece(i++));
      },
    },
    { highWaterMark: 0 },
  );
  const writing = a.fs.writeFile("/f", stream).then(
    () => "written",
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );
  await staged;
  // Another Workspace on the file, on the real clock: a write that releases content, so it sweeps.
  await b.fs.writeFile("/g", "x");
  await b.fs.rm("/g");
  release();
  // Was: "EIO: EIO: a staged chunk is missing from the store; the file was not changed, writeFile: /f"
  expect(await writing).toBe("written");
  const s = await b.fs.stat("/f");
  expect(s.size).toBe(3 * CHUNK_SIZE);
});

it("a live read stream of a Workspace with a fixed mtime clock keeps its snapshot when another Workspace overwrites the file", async () => {
  const { a, b } = pair();
  const data = new Uint8Array(3 * CHUNK_SIZE);
  for (let k = 0; k < 3; k++) data.set(piece(k), k * CHUNK_SIZE);
  await a.fs.writeFile("/f", data);
  const reader = (await a.fs.readFile("/f")).getReader();
  const first = await reader.read();
  // Another Workspace on the file, on the real clock, replaces the file (and sweeps what it released).
  await b.fs.writeFile("/f", "new");
  let got = first.value!.byteLength;
  let failure = "";
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      got += next.value.byteLength;
    }
  } catch (e) {
    failure = `${(e as { code?: string }).code}: ${(e as Error).message}`;
  }
  // Was: "EIO: … is missing …" after the first chunk.
  expect(failure).toBe("");
  expect(got).toBe(3 * CHUNK_SIZE);
});
