/**
 * Scale (issue 15 "a 10,000-file status", "huge inputs"; issue 20 "nothing
 * stuck"): status of 10,000 files finishes with exact counts and bounded
 * heap, and a 50 MiB file adds, commits and reads back byte for byte (the
 * real git fscks the result). Times and heap growth are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { cleanupScratch, exportDir, newWorkspace, realGit, wsBytes } from "./worktree-helpers.js";
import { within } from "./attack-helpers.js";

afterAll(cleanupScratch);

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use after a full collection, MiB. */
function heapMiB(): number {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe("10,000 files", () => {
  it("status of 10,000 untracked files, then of 10,000 tracked with 100 edited, 50 deleted, 25 new: exact, bounded", { timeout: 300_000 }, async () => {
    const { ws, git } = newWorkspace();
    const dir = "/big";
    await git.init({ dir });
    for (let d = 0; d < 100; d++) {
      await ws.fs.mkdir(`${dir}/d${d}`, { recursive: true });
      for (let f = 0; f < 100; f++) await ws.fs.writeFile(`${dir}/d${d}/f${f}.txt`, `file ${d}/${f}\n`);
    }
    const heap0 = heapMiB();
    let start = Date.now();
    const untracked = await within(120_000, git.status({ dir }));
    const tUntracked = Date.now() - start;
    expect(untracked.length).toBe(10_000);
    expect(untracked.every((r) => r.index === " " && r.worktree === "?")).toBe(true);

    start = Date.now();
    await within(120_000, git.add({ dir, paths: ["."] }));
    const { oid } = await within(120_000, git.commit({ dir, message: "10k" }));
    const tCommit = Date.now() - start;
    for (let i = 0; i < 100; i++) await ws.fs.writeFile(`${dir}/d${i}/f0.txt`, "edited\n");
    for (let i = 0; i < 50; i++) await ws.fs.rm(`${dir}/d${i}/f1.txt`);
    for (let i = 0; i < 25; i++) await ws.fs.writeFile(`${dir}/d${i}/new.txt`, "new\n");
    start = Date.now();
    const rows = await within(120_000, git.status({ dir }));
    const tStatus = Date.now() - start;
    const heap1 = heapMiB();
    const count = (w: string) => rows.filter((r) => r.index === " " && r.worktree === w).length;
    expect({ total: rows.length, M: count("M"), D: count("D"), untracked: count("?") }).toEqual({ total: 175, M: 100, D: 50, untracked: 25 });
    const cli = await within(120_000, git.cli({ argv: ["status", "--porcelain=v1"], cwd: dir }));
    expect(cli.stdout.split("\n").filter(Boolean).length).toBe(175);
    console.log(`10,000 files: status (untracked) ${tUntracked} ms, add+commit ${tCommit} ms, status (tracked) ${tStatus} ms, heap after gc ${heap0.toFixed(0)} → ${heap1.toFixed(0)} MiB`);
    expect(heap1 - heap0).toBeLessThan(128); // nothing of the 10,000 files is kept once status returns
    const disk = await exportDir(ws, dir);
    expect(realGit(disk, "rev-parse", "HEAD").trim()).toBe(oid);
    expect(realGit(disk, "status", "--porcelain=v1", "--untracked-files=all").split("\n").filter(Boolean).length).toBe(175);
  });
});

describe("a 50 MiB file", () => {
  it("add, commit, catFile and a fresh checkout give the same bytes; the real git fscks it", { timeout: 300_000 }, async () => {
    const { ws, git } = newWorkspace();
    const dir = "/huge";
    await git.init({ dir });
    const bytes = new Uint8Array(50 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) & 0xff;
    await ws.fs.writeFile(`${dir}/big.bin`, bytes);
    const sha = createHash("sha256").update(bytes).digest("hex");
    const heap0 = heapMiB();
    let start = Date.now();
    await within(240_000, git.add({ dir, paths: ["big.bin"] }));
    const { oid } = await within(240_000, git.commit({ dir, message: "big" }));
    const tCommit = Date.now() - start;
    start = Date.now();
    await ws.fs.rm(`${dir}/big.bin`);
    await within(240_000, git.checkout({ dir, ref: "HEAD", paths: ["big.bin"] }));
    const tCheckout = Date.now() - start;
    const heap1 = heapMiB();
    expect(heap1 - heap0).toBeLessThan(64); // the 50 MiB blob is not kept (no unbounded cache of file bytes)
    expect(createHash("sha256").update(await wsBytes(ws, `${dir}/big.bin`)).digest("hex")).toBe(sha);
    expect(await git.status({ dir })).toEqual([]);
    console.log(`50 MiB: add+commit ${tCommit} ms, checkout ${tCheckout} ms, heap ${heap0.toFixed(0)} → ${heap1.toFixed(0)} MiB`);
    const disk = await exportDir(ws, dir);
    realGit(disk, "fsck", "--strict");
    expect(realGit(disk, "rev-parse", "HEAD").trim()).toBe(oid);
  });
});
