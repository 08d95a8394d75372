/**
 * Mounts suite (issue 6): what a read-only mount costs.
 *
 * - Materialising a 1,000-file WorkerBundle through `ready()` beside writing
 *   the same 1,000 files with `workspace.fs.writeFile` (the floor: a mount
 *   writes through the filesystem, plus parent `mkdir`s and its record).
 * - 1,000 small writes OUTSIDE a read-only mount while one is recorded,
 *   beside the same writes with no mount recorded: the guard is a lexical
 *   check against the recorded roots, so the ratio should stay near 1.
 *
 * @module
 */
import { mountGuardFor } from "../../src/fs/mount-guard.js";
import { WorkerBundle } from "../../src/index.js";
import { defineSuite, ratioAtMost, type BenchRow } from "../harness.js";

const FILES = 1000;
const DIRS = 10;
const BYTES = 1024;
const RUNS = 7;

export default defineSuite({
  name: "mounts",
  async run(ctx) {
    const rows: BenchRow[] = [];
    const payload = (rep: number, i: number) => {
      const bytes = new Uint8Array(BYTES);
      bytes.fill(i & 0xff);
      new DataView(bytes.buffer).setUint32(0, rep * 100_000 + i); // distinct content per file and run
      return bytes;
    };
    const rel = (i: number) => `d${i % DIRS}/f${String(i).padStart(4, "0")}.txt`;

    ctx.log("materialise a 1,000-file bundle vs 1,000 writeFile calls, alternating");
    const plain = ctx.newWorkspace();
    const materialise = await ctx.compare(
      async (rep) => {
        const files: Record<string, Uint8Array> = {};
        for (let i = 0; i < FILES; i++) files[rel(i)] = payload(rep, i);
        const ws = ctx.newWorkspace({ mounts: { [`/mount-${rep}`]: WorkerBundle({ files, version: `v${rep}` }) } });
        await ws.ready();
        await ctx.storage.sync();
      },
      async (rep) => {
        for (let d = 0; d < DIRS; d++) await plain.fs.mkdir(`/plain-${rep}/d${d}`, { recursive: true });
        for (let i = 0; i < FILES; i++) await plain.fs.writeFile(`/plain-${rep}/${rel(i)}`, payload(50 + rep, i));
        await ctx.storage.sync();
      },
      { runs: RUNS },
    );
    rows.push({
      label: "materialise 1,000-file bundle",
      unit: "ms",
      ours: materialise.ours,
      baseline: materialise.raw,
      target: ratioAtMost(1.5),
      note: "ready() of a WorkerBundle tree (10 dirs × 100 × 1 KiB, declared version) vs mkdir + 1,000 fs.writeFile of the same bytes",
    });

    ctx.log("1,000 small writes with and without a read-only mount recorded, alternating");
    const ws = ctx.newWorkspace();
    await ws.fs.mkdir("/ro", { recursive: true });
    const guard = mountGuardFor(ws.db);
    const record = (on: boolean) => {
      if (on) ctx.sql.exec(`INSERT OR REPLACE INTO __ws_mounts (root, kind, mode, complete, version) VALUES ('/ro', 'bench', 'read-only', 1, NULL)`);
      else ctx.sql.exec(`DELETE FROM __ws_mounts WHERE root = '/ro'`);
      guard.reload();
    };
    const writes = await ctx.compare(
      async (rep) => {
        for (let i = 0; i < FILES; i++) await ws.fs.writeFile(`/guarded-${rep}/f${i}`, payload(200 + rep, i));
        await ctx.storage.sync();
      },
      async (rep) => {
        for (let i = 0; i < FILES; i++) await ws.fs.writeFile(`/open-${rep}/f${i}`, payload(300 + rep, i));
        await ctx.storage.sync();
      },
      {
        runs: RUNS,
        setup: {
          ours: async (rep) => {
            record(true);
            await ws.fs.mkdir(`/guarded-${rep}`);
          },
          raw: async (rep) => {
            record(false);
            await ws.fs.mkdir(`/open-${rep}`);
          },
        },
      },
    );
    record(false);
    rows.push({
      label: "1,000 writes beside a read-only mount",
      unit: "ms",
      ours: writes.ours,
      baseline: writes.raw,
      target: ratioAtMost(1.25),
      note: "1 KiB writeFile calls outside /ro while /ro is a recorded read-only mount, vs the same writes with no mount recorded",
    });
    return rows;
  },
});
