import { defineSuite, type BenchRow } from "../harness.js";
export default defineSuite({
  name: "zzlead",
  async run(ctx) {
    const rows: BenchRow[] = [];
    const chunk = new Uint8Array(524288);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
    let t = performance.now();
    for (let i = 0; i < 128; i++) { chunk[0] = i; await crypto.subtle.digest("SHA-256", chunk); }
    rows.push({ label: "sha256 64MiB", unit: "ms", ours: performance.now() - t });
    ctx.sql.exec("CREATE TABLE IF NOT EXISTS zb (id INTEGER PRIMARY KEY, data BLOB)");
    t = performance.now();
    for (let i = 0; i < 128; i++) { chunk[0] = i; ctx.sql.exec("INSERT INTO zb (data) VALUES (?)", chunk); }
    await ctx.storage.sync();
    rows.push({ label: "raw insert 64MiB", unit: "ms", ours: performance.now() - t });
    t = performance.now();
    for (let i = 0; i < 128; i++) { chunk[0] = i; ctx.storage.transactionSync(() => ctx.sql.exec("INSERT INTO zb (data) VALUES (?)", chunk)); }
    await ctx.storage.sync();
    rows.push({ label: "raw insert in tx 64MiB", unit: "ms", ours: performance.now() - t });
    t = performance.now();
    for (let i = 0; i < 128; i++) { chunk[0] = i; await crypto.subtle.digest("SHA-256", chunk); ctx.sql.exec("INSERT INTO zb (data) VALUES (?)", chunk); }
    await ctx.storage.sync();
    rows.push({ label: "hash+insert 64MiB", unit: "ms", ours: performance.now() - t });
    t = performance.now();
    for (let i = 0; i < 1000; i++) { await crypto.subtle.digest("SHA-256", chunk.subarray(0, 1024)); }
    rows.push({ label: "1000 small sha", unit: "ms", ours: performance.now() - t });
    t = performance.now();
    for (let i = 0; i < 1000; i++) { ctx.storage.transactionSync(() => {}); }
    rows.push({ label: "1000 empty tx", unit: "ms", ours: performance.now() - t });
    t = performance.now();
    for (let i = 0; i < 1000; i++) { ctx.sql.exec("SELECT 1").toArray(); }
    rows.push({ label: "1000 select 1", unit: "ms", ours: performance.now() - t });
    return rows;
  },
});
