/**
 * Tool suite (issue 3): the agent tools (`src/tools/core`) beside raw
 * `ctx.storage.sql` reading and writing the same bytes, in the same Durable
 * Object, in the same run.
 *
 * - read: first page of a 10 MiB text file, and a page continued at byte
 *   offset 9 MiB (one ranged stream; no whole-file read, no per-chunk round
 *   trips). Raw floor: SELECT the 512 KiB BLOB row(s) covering the page's bytes.
 * - edit: one line of a 1 MiB file (stat, read, replace, write, diff). Raw
 *   floor: SELECT + UPDATE of the file's two 512 KiB BLOB rows.
 * - grep: first page (200 matches) over 2,000 files. Raw floor: SELECT the
 *   rows of the files that page comes from and scan them for the query.
 *
 * @module
 */
import { editDefinition, grepDefinition, readDefinition, WorkspaceFileStore, type ReadTextResult } from "../../src/tools/core/index.js";
import { defineSuite, ratioAtMost, type BenchContext, type BenchRow } from "../harness.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 512 * KiB;
const RUNS = 7;
const GREP_FILES = 2000;

const encoder = new TextEncoder();

/** Distinct text lines (each ~60 bytes) until `bytes`, as one string. */
function textOf(bytes: number, seed: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `${seed} line ${i} ${((i * 2654435761) >>> 0).toString(16).padStart(8, "0")} lorem ipsum dolor sit amet\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join("").slice(0, bytes - 1) + "\n";
}

function storeRaw(ctx: BenchContext, table: string, bytes: Uint8Array): void {
  ctx.sql.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
  for (let i = 0; i * CHUNK < bytes.byteLength; i++) ctx.sql.exec(`INSERT INTO ${table} VALUES (?, ?)`, i, bytes.subarray(i * CHUNK, (i + 1) * CHUNK));
}

/** Raw floor for bytes [start, end): the covering BLOB rows, sliced. */
function rawRange(ctx: BenchContext, table: string, start: number, end: number): number {
  let total = 0;
  for (const row of ctx.sql.exec<{ id: number; data: ArrayBuffer }>(
    `SELECT id, data FROM ${table} WHERE id BETWEEN ? AND ? ORDER BY id`,
    Math.floor(start / CHUNK),
    Math.floor((end - 1) / CHUNK),
  )) {
    const from = Math.max(start - row.id * CHUNK, 0);
    const to = Math.min(end - row.id * CHUNK, row.data.byteLength);
    total += new Uint8Array(row.data, from, to - from).byteLength;
  }
  return total;
}

export default defineSuite({
  name: "tools",
  async run(ctx) {
    const rows: BenchRow[] = [];
    const ws = ctx.newWorkspace();
    await ws.fs.mkdir("/workspace", { recursive: true });
    const store = new WorkspaceFileStore(ws);

    // read: 10 MiB text file.
    ctx.log("tools: writing a 10 MiB text file");
    const big = textOf(10 * MiB, "big");
    const bigBytes = encoder.encode(big);
    await ws.fs.writeFile("/workspace/big.txt", bigBytes);
    storeRaw(ctx, "raw_tools_big", bigBytes);
    const read = readDefinition({ store });
    const first = (await read.execute({ path: "/workspace/big.txt" })) as ReadTextResult;
    if (!first.truncated || first.endLine !== 2000) throw new Error(`first page ended at line ${first.endLine}`);
    const firstBytes = first.nextByteOffset!;
    const firstPage = await ctx.compare(
      async () => {
        const r = (await read.execute({ path: "/workspace/big.txt" })) as ReadTextResult;
        if (r.nextByteOffset !== firstBytes) throw new Error("read returned a different page");
      },
      () => {
        if (rawRange(ctx, "raw_tools_big", 0, firstBytes) !== firstBytes) throw new Error("raw read short");
      },
      { runs: RUNS, repeat: 25 },
    );
    rows.push({
      label: "read tool, first page of 10 MiB",
      unit: "ms",
      ours: firstPage.ours,
      baseline: firstPage.raw,
      target: ratioAtMost(3),
      note: `read tool defaults (2000 lines / 256 KiB) → ${firstBytes} bytes; raw = SELECT of the covering 512 KiB row, sliced`,
    });
    const nineMiB = big.indexOf("\n", 9 * MiB) + 1; // ASCII, so string index = byte offset
    const lineAt = big.slice(0, nineMiB).split("\n").length;
    const mid = (await read.execute({ path: "/workspace/big.txt", offset: lineAt, byteOffset: nineMiB })) as ReadTextResult;
    if (mid.startLine !== lineAt || !mid.content.startsWith(`big line ${lineAt} `)) throw new Error("continuation read the wrong line");
    const midEnd = mid.nextByteOffset!;
    const midPage = await ctx.compare(
      async () => {
        const r = (await read.execute({ path: "/workspace/big.txt", offset: lineAt, byteOffset: nineMiB })) as ReadTextResult;
        if (r.nextByteOffset !== midEnd) throw new Error("read returned a different page");
      },
      () => {
        if (rawRange(ctx, "raw_tools_big", nineMiB, midEnd) !== midEnd - nineMiB) throw new Error("raw read short");
      },
      { runs: RUNS, repeat: 25 },
    );
    rows.push({
      label: "read tool, page at byte 9 MiB",
      unit: "ms",
      ours: midPage.ours,
      baseline: midPage.raw,
      target: ratioAtMost(3),
      note: `continuation {offset, byteOffset: ${nineMiB}} → ${midEnd - nineMiB} bytes; raw = SELECT of the covering row(s), sliced`,
    });
    const fsRange = await ctx.median(
      async () => {
        const stream = await ws.fs.readFile("/workspace/big.txt", { byteOffset: nineMiB, byteLength: midEnd - nineMiB });
        let n = 0;
        for await (const chunk of stream) n += chunk.byteLength;
        if (n !== midEnd - nineMiB) throw new Error("fs range short");
      },
      { runs: RUNS, repeat: 25 },
    );
    rows.push({
      label: "  fs.readFile of the same range",
      unit: "ms",
      ours: fsRange,
      baseline: midPage.raw,
      note: "informational: the storage layer's share of the row above (one ranged readFile, drained)",
    });
    ctx.sql.exec("DROP TABLE raw_tools_big");

    // edit: one line of a 1 MiB file.
    ctx.log("tools: edit of one line in a 1 MiB file");
    const mib = textOf(1 * MiB, "one");
    await ws.fs.writeFile("/workspace/one.txt", mib);
    storeRaw(ctx, "raw_tools_one", encoder.encode(mib));
    const edit = editDefinition({ store });
    let version = 0;
    const target = "one line 5000 ";
    const edited = await ctx.compare(
      async () => {
        const from = version === 0 ? target : `${target}v${version} `;
        version++;
        const r = (await edit.execute({ path: "/workspace/one.txt", edits: [{ oldText: from, newText: `${target}v${version} ` }] })) as { editsApplied?: number; error?: string };
        if (r.editsApplied !== 1) throw new Error(`edit failed: ${r.error}`);
      },
      async (i) => {
        const chunks = ctx.sql.exec<{ id: number; data: ArrayBuffer }>("SELECT id, data FROM raw_tools_one ORDER BY id").toArray();
        for (const row of chunks) {
          const bytes = new Uint8Array(row.data.slice(0));
          bytes[0] = i & 0xff;
          ctx.sql.exec("UPDATE raw_tools_one SET data = ? WHERE id = ?", bytes, row.id);
        }
        await ctx.storage.sync();
      },
      { runs: RUNS },
    );
    const after = await ws.fs.readFile("/workspace/one.txt", "utf8");
    if (!after.includes(`${target}v${version} `) || after.length !== mib.length + `v${version} `.length) throw new Error("edit result wrong");
    rows.push({
      label: "edit tool, one line of 1 MiB",
      unit: "ms",
      ours: edited.ours,
      baseline: edited.raw,
      target: ratioAtMost(2),
      note: "edit = lock, stat, read, locate, splice, write, diff + patch; raw = SELECT + UPDATE of the two 512 KiB rows then storage.sync()",
    });
    ctx.sql.exec("DROP TABLE raw_tools_one");

    // grep: first page over 2,000 files.
    ctx.log(`tools: writing ${GREP_FILES} files for grep`);
    ctx.sql.exec("CREATE TABLE raw_tools_grep (id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
    await ws.fs.mkdir("/workspace/g", { recursive: true });
    for (let i = 0; i < GREP_FILES; i++) {
      const body = encoder.encode(textOf(1000, `f${i}`) + `needle in file ${i}\n`);
      await ws.fs.writeFile(`/workspace/g/${String(i).padStart(4, "0")}.txt`, body);
      ctx.sql.exec("INSERT INTO raw_tools_grep VALUES (?, ?)", i, body);
    }
    const grep = grepDefinition({ workspace: ws });
    const grepped = await ctx.compare(
      async () => {
        const r = (await grep.execute({ path: "/workspace/g", query: "needle" })) as { count: number; nextOffset?: number };
        if (r.count !== 200 || r.nextOffset !== 200) throw new Error(`grep page had ${r.count} matches`);
      },
      () => {
        let matches = 0;
        const decoder = new TextDecoder();
        for (const row of ctx.sql.exec<{ data: ArrayBuffer }>("SELECT data FROM raw_tools_grep WHERE id <= 200 ORDER BY id")) {
          for (const line of decoder.decode(row.data).split("\n")) if (line.includes("needle")) matches++;
        }
        if (matches !== 201) throw new Error(`raw scan found ${matches}`);
      },
      { runs: RUNS },
    );
    rows.push({
      label: "grep tool, first page over 2,000 files",
      unit: "ms",
      ours: grepped.ours,
      baseline: grepped.raw,
      note: "200 matches (+1 to detect the next page) from the first 201 files; raw = SELECT + line scan of those 201 files' bytes",
    });
    return rows;
  },
});
