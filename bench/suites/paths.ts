/**
 * Path suite (issue 13): the calls an agent makes most — path resolution
 * (`stat`), `find` (first page and full walk) — and the tree operations a path
 * index could slow down (`rename` of a directory, `rm -r`, a full `grep`),
 * each beside its raw floor: the same work on a table that keeps each file as
 * one row keyed by its full path (`raw_paths`), in the same Durable Object and
 * run. Stat is one primary-key lookup there, find one ordered range scan with
 * `GLOB`, rename one `UPDATE` of the moved rows' paths, rm -r one range
 * `DELETE`.
 *
 * Then one row a user feels directly: an agent turn of 14 AI SDK tool calls
 * (ls, find, grep, read, edit, write, delete) over the same tree.
 *
 * Tree: `/workspace/a{0-9}/b{0-9}/c{0-4}/f{00-09}.{ts,md}` — 5,000 files of
 * about 2 KB (≈ 10 MB) in 550 directories, every file at depth 5; half are
 * `.ts`. Plus 500 files at depth 3 and 500 at depth 12 for the depth series.
 *
 * @module
 */
import { createAITools } from "../../src/tools/ai-sdk.js";
import { defineSuite, medianOf, ratioAtMost, type BenchContext, type BenchRow } from "../harness.js";

const RUNS = 7;
const ROOT = "/workspace";
const FILES = 5000;
const STATS = 500;

/** Path of file `i` of the tree (depth 5). */
function treePath(root: string, i: number): string {
  const a = Math.floor(i / 500);
  const b = Math.floor(i / 50) % 10;
  const c = Math.floor(i / 10) % 5;
  const f = i % 10;
  return `${root}/a${a}/b${b}/c${c}/f${String(f).padStart(2, "0")}.${f % 2 === 0 ? "ts" : "md"}`;
}

/** About 2 KB of distinct text for file `i` (`tag` keeps copies distinct: content is deduplicated by hash). */
function content(i: number, tag: string): string {
  const lines: string[] = [`// file ${i} ${tag}`];
  let x = (i + 1) * 2654435761;
  while (lines.length < 40) {
    x = (x * 1103515245 + 12345) >>> 0;
    lines.push(`export const v${lines.length} = ${x.toString(16)}; // alpha beta gamma ${i}`);
  }
  if (i % 97 === 0) lines.push("// needle");
  return lines.join("\n") + "\n";
}

export default defineSuite({
  name: "paths",
  async run(ctx) {
    const { sql, storage } = ctx;
    const ws = ctx.newWorkspace();
    const encoder = new TextEncoder();
    sql.exec("CREATE TABLE raw_paths (path TEXT PRIMARY KEY, kind INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, data BLOB NOT NULL)");
    const rawInsert = (path: string, text: string) => {
      const bytes = encoder.encode(text);
      sql.exec("INSERT INTO raw_paths (path, kind, size, mtime, data) VALUES (?, 1, ?, ?, ?)", path, bytes.byteLength, Date.now(), bytes);
    };

    ctx.log(`building the ${FILES.toLocaleString("en-US")}-file tree`);
    let bytes = 0;
    const buildStart = performance.now();
    for (let i = 0; i < FILES; i++) {
      const path = treePath(ROOT, i);
      if (i % 10 === 0) await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      const text = content(i, "t");
      bytes += text.length;
      await ws.fs.writeFile(path, text);
      rawInsert(path, text);
    }
    const buildMs = performance.now() - buildStart;
    // Depth series: 500 files at depth 3 and 500 at depth 12.
    const shallow = (i: number) => `/s3/x/f${String(i).padStart(3, "0")}`;
    const deepDir = "/s12/" + Array.from({ length: 10 }, (_, k) => `x${k}`).join("/");
    const deep = (i: number) => `${deepDir}/f${String(i).padStart(3, "0")}`;
    await ws.fs.mkdir("/s3/x", { recursive: true });
    await ws.fs.mkdir(deepDir, { recursive: true });
    for (let i = 0; i < STATS; i++) {
      await ws.fs.writeFile(shallow(i), `s${i}`);
      await ws.fs.writeFile(deep(i), `d${i}`);
      rawInsert(shallow(i), `s${i}`);
      rawInsert(deep(i), `d${i}`);
    }
    await storage.sync();
    const rows: BenchRow[] = [];

    // ── stat ────────────────────────────────────────────────────────────
    const statPaths = (pathOf: (i: number) => string) => Array.from({ length: STATS }, (_, k) => pathOf(k));
    const spread = statPaths((k) => treePath(ROOT, (k * 10 + (k % 10)) % FILES)); // 500 files over all 500 directories
    const statOf = async (paths: string[]) => {
      const before = ws.db.rowsRead;
      for (const path of paths) if (!(await ws.fs.stat(path)).isFile) throw new Error(`stat ${path}`);
      return ws.db.rowsRead - before;
    };
    const rawStatOf = (paths: string[]) => {
      let read = 0;
      for (const path of paths) {
        const cursor = sql.exec<{ size: number }>("SELECT kind, size, mtime FROM raw_paths WHERE path = ?", path);
        if (cursor.one().size <= 0) throw new Error(`raw stat ${path}`);
        read += cursor.rowsRead;
      }
      return read;
    };
    ctx.log("stat: 500 files at depth 5, 3 and 12");
    const statRows = await statOf(spread);
    const rawStatRows = rawStatOf(spread);
    const STAT_RUNS = 11;
    const stat5 = await ctx.compare(() => statOf(spread), () => rawStatOf(spread), { runs: STAT_RUNS, repeat: 4 });
    const shallowPaths = statPaths(shallow);
    const deepPaths = statPaths(deep);
    const stat3 = await ctx.compare(() => statOf(shallowPaths), () => rawStatOf(shallowPaths), { runs: STAT_RUNS, repeat: 4 });
    const stat12 = await ctx.compare(() => statOf(deepPaths), () => rawStatOf(deepPaths), { runs: STAT_RUNS, repeat: 4 });
    const readSmall = await ctx.compare(
      async () => {
        for (const path of spread) if ((await ws.fs.readFile(path, "utf8")).length < 100) throw new Error("short read");
      },
      () => {
        for (const path of spread) if (sql.exec<{ data: ArrayBuffer }>("SELECT data FROM raw_paths WHERE path = ?", path).one().data.byteLength < 100) throw new Error("short raw read");
      },
      { runs: RUNS },
    );
    rows.push(
      {
        label: "stat 500 files, depth 5",
        unit: "ms",
        ours: stat5.ours,
        baseline: stat5.raw,
        target: ratioAtMost(1.5),
        note: `500 stat() calls, one per directory of the ${FILES.toLocaleString("en-US")}-file tree (/workspace/aN/bN/cN/fNN.ts); raw = SELECT kind, size, mtime … WHERE path = ? (primary key); time for all 500 (each timing repeats them 4 times), alternating, median of ${STAT_RUNS}; rows read for the 500: ours ${statRows}, raw ${rawStatRows}`,
      },
      { label: "stat 500 files, depth 3", unit: "ms", ours: stat3.ours, baseline: stat3.raw, target: ratioAtMost(1.5) },
      { label: "stat 500 files, depth 12", unit: "ms", ours: stat12.ours, baseline: stat12.raw, target: ratioAtMost(1.5) },
      {
        label: "  depth 12 / depth 3",
        unit: "ms",
        ours: stat12.ours,
        baseline: stat3.ours,
        target: ratioAtMost(1.2),
        note: "ours at depth 12 over ours at depth 3: flat in depth within ±20 %",
      },
      { label: "readFile 500 small files (utf8)", unit: "ms", ours: readSmall.ours, baseline: readSmall.raw, note: "the same 500 files read whole as strings; raw = SELECT data … WHERE path = ?" },
    );

    // ── find ────────────────────────────────────────────────────────────
    const PAGE = 200;
    const rawFind = (limit?: number) => {
      const cursor = sql.exec<{ path: string; kind: number }>(
        `SELECT path, kind FROM raw_paths WHERE path > ? AND path < ? AND path GLOB ? ORDER BY path${limit ? " LIMIT " + limit : ""}`,
        `${ROOT}/`,
        `${ROOT}0`,
        `${ROOT}/*.ts`,
      );
      const found = cursor.toArray();
      return { count: found.length, rowsRead: cursor.rowsRead };
    };
    const findOurs = async (limit?: number) => {
      const before = ws.db.rowsRead;
      const beforeStatements = ws.db.statements;
      const found = await ws.fs.find(ROOT, "**/*.ts", limit ? { limit } : undefined);
      return { count: found.length, rowsRead: ws.db.rowsRead - before, statements: ws.db.statements - beforeStatements };
    };
    ctx.log("find **/*.ts: first page and full walk");
    const firstOurs = await findOurs(PAGE);
    const firstRaw = rawFind(PAGE);
    const fullOurs = await findOurs();
    const fullRaw = rawFind();
    if (firstOurs.count !== PAGE || firstRaw.count !== PAGE) throw new Error(`first page: ${firstOurs.count} / ${firstRaw.count}`);
    if (fullOurs.count !== FILES / 2 || fullRaw.count !== FILES / 2) throw new Error(`full walk: ${fullOurs.count} / ${fullRaw.count}`);
    const first = await ctx.compare(() => findOurs(PAGE), () => rawFind(PAGE), { runs: RUNS, repeat: { ours: 30, raw: 60 } });
    const full = await ctx.compare(() => findOurs(), () => rawFind(), { runs: RUNS });
    rows.push(
      {
        label: "find **/*.ts, limit 200",
        unit: "ms",
        ours: first.ours,
        baseline: first.raw,
        target: ratioAtMost(3),
        note: `find("${ROOT}", "**/*.ts", { limit: ${PAGE} }) vs SELECT path, kind … WHERE path in the subtree AND path GLOB '${ROOT}/*.ts' ORDER BY path LIMIT ${PAGE}; time per call, median of ${RUNS}; rows read ours ${firstOurs.rowsRead} (${firstOurs.statements} statements), raw ${firstRaw.rowsRead}`,
      },
      { label: "find first page: rows read", unit: "rows", ours: firstOurs.rowsRead, baseline: firstRaw.rowsRead },
      {
        label: "find **/*.ts, full walk",
        unit: "ms",
        ours: full.ours,
        baseline: full.raw,
        target: ratioAtMost(3),
        note: `every match (${FILES / 2}); rows read ours ${fullOurs.rowsRead} (${fullOurs.statements} statements), raw ${fullRaw.rowsRead}`,
      },
    );

    // ── grep (no regression) ────────────────────────────────────────────
    ctx.log("grep literal, full");
    const grep = await ctx.compare(
      async () => {
        if ((await ws.fs.grep("no-such-needle", ROOT)).length !== 0) throw new Error("grep matched");
      },
      () => {
        let total = 0;
        for (const row of sql.exec<{ data: ArrayBuffer }>("SELECT data FROM raw_paths WHERE path > ? AND path < ? ORDER BY path", `${ROOT}/`, `${ROOT}0`)) total += row.data.byteLength;
        if (total !== bytes) throw new Error(`raw grep read ${total} of ${bytes}`);
      },
      { runs: 5 },
    );
    rows.push({
      label: `grep literal, full (${(bytes / 1024 / 1024).toFixed(1)} MiB)`,
      unit: "ms",
      ours: grep.ours,
      baseline: grep.raw,
      note: "a literal that occurs nowhere, every line of every file scanned; raw = SELECT of the same bytes in path order; median of 5",
    });

    // ── agent turn ──────────────────────────────────────────────────────
    ctx.log("agent turn: 14 AI SDK tool calls");
    const tools = createAITools({ workspace: ws });
    type Exec = (input: unknown, options: { toolCallId: string; messages: unknown[] }) => Promise<unknown>;
    let call = 0;
    const run = async (name: string, input: unknown) => {
      const output = await (tools[name]!.execute as unknown as Exec)(input, { toolCallId: `c${call++}`, messages: [] });
      if (output && typeof output === "object" && "error" in output) throw new Error(`${name}: ${(output as { error: string }).error}`);
      return output;
    };
    const turn = async (t: number) => {
      const mine = `${ROOT}/a${t % 10}/b${(t + 3) % 10}/c${t % 5}`;
      const edited = treePath(ROOT, (t * 37) % FILES);
      const current = await ws.fs.readFile(edited, "utf8");
      const firstLine = current.slice(0, current.indexOf("\n"));
      await run("ls", { path: `${ROOT}/a${t % 10}` });
      await run("find", { path: ROOT, pattern: "**/*.ts" });
      await run("find", { path: `${ROOT}/a${(t + 1) % 10}`, pattern: "**/f0*.md" });
      await run("grep", { path: ROOT, query: "needle" });
      await run("read", { path: treePath(ROOT, (t * 13) % FILES) });
      await run("read", { path: treePath(ROOT, (t * 17 + 5) % FILES) });
      await run("read", { path: edited });
      await run("edit", { path: edited, edits: [{ oldText: firstLine, newText: `${firstLine} e${t}` }] });
      await run("grep", { path: `${ROOT}/a${(t + 2) % 10}`, query: "alpha beta gamma", limit: 20 });
      await run("write", { path: `${mine}/new-${t}.ts`, content: content(100_000 + t, "new") });
      await run("write", { path: `${mine}/gen-${t}/index.ts`, content: content(200_000 + t, "gen") });
      await run("read", { path: `${mine}/new-${t}.ts` });
      await run("delete", { path: `${mine}/new-${t}.ts` });
      await run("delete", { path: `${mine}/gen-${t}`, recursive: true });
    };
    await turn(0); // warm-up (compiles schemas, fills caches)
    const turns: number[] = [];
    for (let t = 1; t <= RUNS; t++) turns.push(await ctx.time(() => turn(t)));
    rows.push({
      label: "agent turn, 14 AI SDK tool calls",
      unit: "ms",
      ours: medianOf(turns),
      note: `createAITools({ workspace }) tools' execute(): ls, find ×2, grep ×2, read ×4, edit, write ×2, delete ×2 over the ${FILES.toLocaleString("en-US")}-file tree; ms per turn, median of ${RUNS} (range ${Math.min(...turns).toFixed(1)}–${Math.max(...turns).toFixed(1)})`,
    });

    // ── rename of the 5,000-file directory ─────────────────────────────
    ctx.log("rename of the 5,000-file directory");
    const moved = "/moved";
    const rename = await ctx.compare(
      async (i) => {
        const [from, to] = i % 2 === 0 ? [ROOT, moved] : [moved, ROOT];
        await ws.fs.rename(from, to);
        await storage.sync();
      },
      async (i) => {
        const [from, to] = i % 2 === 0 ? [ROOT, moved] : [moved, ROOT];
        sql.exec("UPDATE raw_paths SET path = ? || substr(path, ?) WHERE path > ? AND path < ?", to, from.length + 1, `${from}/`, `${from}0`);
        await storage.sync();
      },
      { runs: RUNS + 1 }, // an even count: both end where they started
    );
    if (!(await ws.fs.stat(treePath(ROOT, 1234))).isFile) throw new Error("rename did not come back");
    if (sql.exec<{ n: number }>("SELECT count(*) AS n FROM raw_paths WHERE path > ? AND path < ?", `${ROOT}/`, `${ROOT}0`).one().n !== FILES) throw new Error("raw rename lost rows");
    rows.push({
      label: "rename a directory of 5,000 files",
      unit: "ms",
      ours: rename.ours,
      baseline: rename.raw,
      target: ratioAtMost(0.5),
      note: `rename("${ROOT}", "${moved}") and back (550 directories, 5,000 files) vs UPDATE raw_paths SET path = new || substr(path, …) over the ${FILES.toLocaleString("en-US")} rows; each until storage.sync(); alternating, median of ${RUNS + 1}`,
    });

    // ── rm -r of 5,000 files ────────────────────────────────────────────
    ctx.log("rm -r of a 5,000-file copy (3 runs, rebuilt in between)");
    const RM_RUNS = 3;
    const rmTimes: number[] = [];
    const rawRmTimes: number[] = [];
    for (let r = 0; r < RM_RUNS; r++) {
      for (let i = 0; i < FILES; i++) {
        const path = treePath("/rm", i);
        if (i % 10 === 0) await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        const text = `${r}:${i}:${content(i, "rm").slice(0, 400)}`;
        await ws.fs.writeFile(path, text);
        rawInsert(path, text);
      }
      await storage.sync();
      rmTimes.push(
        await ctx.time(async () => {
          await ws.fs.rm("/rm", { recursive: true });
          await storage.sync();
        }),
      );
      rawRmTimes.push(
        await ctx.time(async () => {
          sql.exec("DELETE FROM raw_paths WHERE path > ? AND path < ?", "/rm/", "/rm0");
          await storage.sync();
        }),
      );
    }
    rows.push({
      label: "rm -r 5,000 files",
      unit: "ms",
      ours: medianOf(rmTimes),
      baseline: medianOf(rawRmTimes),
      note: `rm("/rm", { recursive: true }) of a ${FILES.toLocaleString("en-US")}-file copy of the tree (~400 B files) vs one range DELETE; each until storage.sync(); median of ${RM_RUNS}`,
    });
    rows.push({ label: "  build of the tree (info)", unit: "ms", ours: buildMs, note: `${FILES.toLocaleString("en-US")} writeFile calls (+ mkdir per directory) and raw inserts` });
    sql.exec("DROP TABLE raw_paths");
    return rows;
  },
});
