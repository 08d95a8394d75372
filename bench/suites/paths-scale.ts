/**
 * Path scale series (issue 13): `find` first page and `stat` at 1k, 10k and
 * 100k files, in ms and in rows read, beside the raw path-keyed floor (one row
 * per file keyed by its full path) in the same Durable Object and run. A first
 * page should read O(limit + depth) rows and a stat O(1), whatever the size
 * of the tree.
 *
 * Tree of n files: `/s<n>/a{…}/b{0-9}/c{0-9}/f{0-9}.{ts,md}` (10 files per
 * directory, every file at depth 5, half `.ts`).
 *
 * @module
 */
import { defineSuite, type BenchContext, type BenchRow } from "../harness.js";

const SIZES = [1_000, 10_000, 100_000];
const PAGE = 200;
const STATS = 500;
const RUNS = 5;

function path(root: string, i: number): string {
  return `${root}/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/c${Math.floor(i / 10) % 10}/f${i % 10}.${i % 2 === 0 ? "ts" : "md"}`;
}

async function series(ctx: BenchContext, n: number): Promise<BenchRow[]> {
  const { sql, storage } = ctx;
  const ws = ctx.newWorkspace();
  const root = `/s${n}`;
  ctx.log(`building ${n.toLocaleString("en-US")} files`);
  for (let i = 0; i < n; i++) {
    const p = path(root, i);
    if (i % 10 === 0) await ws.fs.mkdir(p.slice(0, p.lastIndexOf("/")), { recursive: true });
    await ws.fs.writeFile(p, `${n}:${i}`);
    sql.exec("INSERT INTO raw_scale (path, kind, size, mtime, data) VALUES (?, 1, ?, 0, ?)", p, String(i).length, `${n}:${i}`);
  }
  await storage.sync();
  const statPaths = Array.from({ length: STATS }, (_, k) => path(root, Math.floor((k * n) / STATS / 10) * 10 + (k % 10)));

  const findOurs = async () => {
    const before = ws.db.rowsRead;
    const found = await ws.fs.find(root, "**/*.ts", { limit: PAGE });
    if (found.length !== PAGE) throw new Error(`find returned ${found.length}`);
    return ws.db.rowsRead - before;
  };
  const findRaw = () => {
    const cursor = sql.exec("SELECT path, kind FROM raw_scale WHERE path > ? AND path < ? AND path GLOB ? ORDER BY path LIMIT ?", `${root}/`, `${root}0`, `${root}/*.ts`, PAGE);
    if (cursor.toArray().length !== PAGE) throw new Error("raw find short");
    return cursor.rowsRead;
  };
  const statOurs = async () => {
    const before = ws.db.rowsRead;
    for (const p of statPaths) if (!(await ws.fs.stat(p)).isFile) throw new Error(`stat ${p}`);
    return ws.db.rowsRead - before;
  };
  const statRaw = () => {
    let read = 0;
    for (const p of statPaths) {
      const cursor = sql.exec("SELECT kind, size, mtime FROM raw_scale WHERE path = ?", p);
      cursor.one();
      read += cursor.rowsRead;
    }
    return read;
  };
  const findRows = await findOurs();
  const findRawRows = findRaw();
  const statRows = await statOurs();
  const statRawRows = statRaw();
  const find = await ctx.compare(findOurs, findRaw, { runs: RUNS, repeat: { ours: 30, raw: 60 } });
  const stat = await ctx.compare(statOurs, statRaw, { runs: RUNS });
  const k = n >= 1000 ? `${n / 1000}k` : String(n);
  return [
    { label: `${k} files: find first page`, unit: "ms", ours: find.ours, baseline: find.raw },
    { label: `${k} files: find first page, rows read`, unit: "rows", ours: findRows, baseline: findRawRows },
    { label: `${k} files: stat ×${STATS}`, unit: "ms", ours: stat.ours, baseline: stat.raw },
    { label: `${k} files: stat ×${STATS}, rows read`, unit: "rows", ours: statRows, baseline: statRawRows },
  ];
}

export default defineSuite({
  name: "paths-scale",
  async run(ctx) {
    ctx.sql.exec("CREATE TABLE raw_scale (path TEXT PRIMARY KEY, kind INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, data BLOB NOT NULL)");
    const rows: BenchRow[] = [];
    for (const n of SIZES) rows.push(...(await series(ctx, n)));
    rows[0] = {
      ...rows[0],
      note: `find(root, "**/*.ts", { limit: ${PAGE} }) vs SELECT … WHERE path in the subtree AND path GLOB … ORDER BY path LIMIT ${PAGE}; ${STATS} stat() calls spread over the tree vs SELECT … WHERE path = ?; ms per find call / for all ${STATS} stats, median of ${RUNS}; rows = workspace.db.rowsRead delta vs cursor.rowsRead; trees of 10 files per directory, depth 5`,
    };
    ctx.sql.exec("DROP TABLE raw_scale");
    return rows;
  },
});
