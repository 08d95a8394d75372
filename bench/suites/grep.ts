/**
 * grep regex suite (issue 12 §1): `workspace.fs.grep` with `regex: true`
 * beside a raw floor that reads the same bytes with plain `ctx.storage.sql`,
 * decodes them, splits lines and tests each with V8's own `RegExp`, in the
 * same Durable Object, in the same run.
 *
 * Corpus: 2,000 files of ~10 kB (~20 MB), word lines that never match and
 * one `export function handler_<i>(req) {` line per file, so a first page of
 * 200 matches reads 200 files and a full count reads them all.
 *
 * - A common pattern that the static analysis leaves on V8
 *   (`function\s+\w+\(`): first page (limit 200) and full count.
 * - A pattern with a repeated group, run by the linear-time engine (RE2):
 *   first page and full count, against the same V8 floor; lines without the
 *   literal every match needs ("function handler_") are skipped before RE2.
 * - Informational: a repeated group with no such literal, so RE2 tests
 *   every line.
 * - The hostile reproduction `(x+x+)+y` over 40 x's and "!" (V8 alone takes
 *   minutes): time of one grep call, no floor.
 *
 * @module
 */
import { defineSuite, ratioAtMost, type BenchContext, type BenchRow } from "../harness.js";

const FILES = 2000;
const FILE_BYTES = 10_000;
const PAGE = 200;
const RUNS = 5;
/** [engine path, pattern, whether the row has the ≤ 3× target]. */
const PATTERNS: ReadonlyArray<readonly [string, string, boolean]> = [
  ["V8 path", "function\\s+\\w+\\(", true],
  ["RE2 path", "(?:export |async )+function handler_\\d+", true],
  ["RE2 path, no required literal", "(?:[a-z]+_)+\\d+", false],
];

export default defineSuite({
  name: "grep",
  async run(ctx) {
    return regexRows(ctx);
  },
});

async function regexRows(ctx: BenchContext): Promise<BenchRow[]> {
  const { sql, storage } = ctx;
  const ws = ctx.newWorkspace();
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma", "omega", "const", "return", "export"];
  const make = (i: number): string => {
    let text = "";
    let line = 0;
    let x = i * 2654435761 + 1;
    while (text.length < FILE_BYTES - 120) {
      let l = `${++line}:`;
      while (l.length < 72) {
        x = (x * 1103515245 + 12345) >>> 0;
        l += ` ${words[(x >>> 16) % words.length]}`;
      }
      text += `${l}\n`;
      if (line === 60) text += `export function handler_${i}(req) {\n`;
    }
    return text.padEnd(FILE_BYTES - 1, "x") + "\n";
  };
  const dirOf = (i: number) => `/src/m${String(Math.floor(i / 100)).padStart(2, "0")}`;
  const path = (i: number) => `${dirOf(i)}/file${String(i).padStart(4, "0")}.txt`;

  ctx.log(`grep: building the corpus, ${FILES.toLocaleString("en-US")} files × ${FILE_BYTES / 1000} kB`);
  sql.exec("CREATE TABLE raw_regex (path TEXT PRIMARY KEY, data BLOB NOT NULL)");
  const encoder = new TextEncoder();
  let totalBytes = 0;
  for (let i = 0; i < FILES; i++) {
    if (i % 100 === 0) await ws.fs.mkdir(dirOf(i), { recursive: true });
    const bytes = encoder.encode(make(i));
    totalBytes += bytes.byteLength;
    await ws.fs.writeFile(path(i), bytes);
    sql.exec("INSERT INTO raw_regex (path, data) VALUES (?, ?)", path(i), bytes);
  }
  await storage.sync();

  /** The floor: SELECT the first `files` rows in path order, decode, split, V8 RegExp per line; the number of matching lines. */
  const raw = (source: string, files: number) => () => {
    const re = new RegExp(source);
    const decoder = new TextDecoder();
    let matched = 0;
    for (const row of sql.exec<{ data: ArrayBuffer }>("SELECT data FROM raw_regex ORDER BY path LIMIT ?", files)) {
      for (const line of decoder.decode(row.data).split("\n")) if (re.test(line)) matched++;
    }
    return matched;
  };
  const expect = (what: string, got: number, want: number) => {
    if (got !== want) throw new Error(`${what}: ${got} matches, expected ${want}`);
  };

  const rows: BenchRow[] = [];
  for (const [engine, source, targeted] of PATTERNS) {
    ctx.log(`grep: ${source} (${engine}), first page and full count, alternating with the raw floor`);
    const page = await ctx.compare(
      async () => expect("page", (await ws.fs.grep(source, "/src", { regex: true, limit: PAGE })).length, PAGE),
      () => expect("raw page", raw(source, PAGE)(), PAGE),
      { runs: RUNS },
    );
    const full = await ctx.compare(
      async () => expect("full", (await ws.fs.grep(source, "/src", { regex: true })).length, FILES),
      () => expect("raw full", raw(source, FILES)(), FILES),
      { runs: 3 },
    );
    rows.push(
      {
        label: `grep regex first page (limit ${PAGE}), ${engine}`,
        unit: "ms",
        ours: page.ours,
        baseline: page.raw,
        ...(targeted ? { target: ratioAtMost(3) } : {}),
        note: `${targeted ? "" : "informational: "}/${source}/ over the first ${PAGE} files (one match each); raw = SELECT of the first ${PAGE} rows in path order + TextDecoder + split + V8 RegExp#test per line; median of ${RUNS}`,
      },
      {
        label: `grep regex full count, ${engine}`,
        unit: "ms",
        ours: full.ours,
        baseline: full.raw,
        ...(targeted ? { target: ratioAtMost(3) } : {}),
        note: `${targeted ? "" : "informational: "}/${source}/ over ${FILES.toLocaleString("en-US")} files, ${(totalBytes / 1e6).toFixed(1)} MB (${FILES.toLocaleString("en-US")} matches); raw as above over every row; median of 3`,
      },
    );
  }
  sql.exec("DROP TABLE raw_regex");

  // The hostile reproduction: V8 alone would run for minutes (241 ms at 22 x's, doubling per x).
  await ws.fs.writeFile("/hostile.txt", "x".repeat(40) + "!");
  const hostile = await ctx.median(async () => expect("hostile", (await ws.fs.grep("(x+x+)+y", "/hostile.txt", { regex: true })).length, 0), { runs: RUNS });
  rows.push({
    label: 'grep regex "(x+x+)+y" over 40 x\'s + "!"',
    unit: "ms",
    ours: hostile,
    note: "issue 12 §1 reproduction, linear-time engine (workerd's clock is coarse: 0 means under a tick); no floor: V8's RegExp takes minutes on this line",
  });
  return rows;
}
