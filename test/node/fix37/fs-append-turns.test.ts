/**
 * `workspace.fs.appendFile` under concurrency (issue 20, run 37, fixer AP; found by attacker g,
 * test/node/attack37g/concurrent-appends-past-ten-fail-estale.test.ts and append-stale-row-from-other-process-corrupts.test.ts).
 *
 * Before: each round of the optimistic retry committed one append of a burst and sent the others back, so past ten in
 * flight the rest failed ESTALE (20 → 10 lost, 200 → 190); and the append read the file's row and its revision stamp
 * in two statements, so another process committing between them was paired old-row/new-stamp, its write lost and a
 * shared chunk's refs broken (another file then read EIO). `writeFile`'s ifMatch / ifUnmodified read the same way.
 * Now (src/fs/write.ts `FileWriter.append`, `turn`, `#appendBase`, `#pin`): appends to one path over one storage
 * object take turns (bytes in call order; a stream stages first, then takes its turn), and the stamp is read before
 * the row and chunks, so a stamp unchanged at commit covers them.
 *
 * Checked here, with Node 22's fs.promises.appendFile (O_APPEND) on a temp file as the reference for "all land, each
 * whole":
 * - bursts of 50 and 200 byte appends, to an empty file and to a missing one: none rejects, the bytes are the
 *   appends whole in call order (Node: each whole, some order), the store sound (refs = references, no orphan);
 * - a burst crossing chunk edges (12 × (CHUNK_SIZE / 3 + 7) bytes onto CHUNK_SIZE − 5): bytes exact, chunk list full;
 * - streams (slow, several pieces) mixed with bytes in one burst: all land, each whole;
 * - a stream whose producer awaits another append to the same path before it ends does not deadlock;
 * - a refused append (ifInode → ESTALE, a failing stream) does not stop the ones queued after it;
 * - two Workspaces over one storage object, 2 × 25 at once: all land;
 * - another process (the built dist/, as attacker g's harness) committing between the append's stamp read and row
 *   read (the other gap), and between a conditional write's lookup and its stamp read (ifMatch → ESTALE,
 *   ifUnmodified → ESTALE, the other process's bytes kept), refs exact and a shared chunk kept;
 * - the same for `inodeOf` (container sync's fingerprint of an entry): the row and stamp of one revision;
 * - two processes appending 60 lines each at once to one SQLite file: 120 lines, each process's in its call order;
 * - an append that waited its turn is dated when it lands (the Workspace clock read at commit).
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { CHUNK_SIZE } from "../../../src/fs/chunks.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";

type Storage = ReturnType<typeof nodeSqliteStorage>;
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? String(e.message));
async function bytesOf(ws: Workspace, path: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
}
const textOf = async (ws: Workspace, path: string) => new TextDecoder().decode(await bytesOf(ws, path));
const textOrCode = (ws: Workspace, path: string) => textOf(ws, path).catch((e: { code?: string }) => e.code);
function sound(storage: Storage): void {
  expect(integrityProblems(storage.sql as never)).toEqual([]);
  expect(unleasedOrphans(storage.sql as never)).toBe(0);
}
function seeded(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
function slowStream(parts: string[], fail?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(c) {
      await new Promise((r) => setTimeout(r, 1));
      if (i < parts.length) c.enqueue(new TextEncoder().encode(parts[i++]!));
      else if (fail) c.error(fail);
      else c.close();
    },
  });
}

/** Node's answer for a burst: every append lands, each whole (the reference for what "all land" means). */
async function nodeBurst(lines: string[], create: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "fix37-ap-"));
  try {
    if (!create) writeFileSync(join(dir, "log"), "");
    const got = await Promise.allSettled(lines.map((l) => appendFile(join(dir, "log"), l)));
    expect(got.filter((r) => r.status === "rejected")).toEqual([]);
    return readFileSync(join(dir, "log"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a burst of appends to one path all land (turns per storage object)", () => {
  for (const n of [50, 200]) {
    for (const create of [false, true]) {
      it(`${n} concurrent appends to ${create ? "a missing" : "an empty"} file`, async () => {
        const lines = Array.from({ length: n }, (_, i) => `line ${i} ${"x".repeat(i % 7)}\n`);
        const real = await nodeBurst(lines, create);
        const storage = nodeSqliteStorage(":memory:");
        const ws = new Workspace({ storage });
        if (!create) await ws.fs.writeFile("/log", "");
        const got = await Promise.all(lines.map((l) => code(ws.fs.appendFile("/log", l))));
        expect(got.filter((c) => c !== "ok")).toEqual([]);
        const text = await textOf(ws, "/log");
        // Each whole, as Node's: the same multiset of lines, the same length.
        expect(text.split("\n").sort()).toEqual(real.split("\n").sort());
        expect(text.length).toBe(real.length);
        // In call order (documented: bytes take their turn when called).
        expect(text).toBe(lines.join(""));
        sound(storage);
      });
    }
  }

  it("a burst crossing chunk edges: bytes exact, full chunks, refs exact", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    const base = seeded(CHUNK_SIZE - 5, 1);
    await ws.fs.writeFile("/big", base);
    const parts = Array.from({ length: 12 }, (_, i) => seeded(Math.floor(CHUNK_SIZE / 3) + 7, i + 2));
    expect((await Promise.all(parts.map((p) => code(ws.fs.appendFile("/big", p))))).filter((c) => c !== "ok")).toEqual([]);
    const want = Buffer.concat([base, ...parts]);
    expect(Buffer.from(await bytesOf(ws, "/big")).equals(want)).toBe(true);
    const ino = (await ws.fs.stat("/big")).inode;
    const sizes = storage.sql.exec(`SELECT c.size AS size FROM __ws_file_chunks f JOIN __ws_chunks c ON c.id = f.chunk WHERE f.ino = ? ORDER BY f.idx`, ino).toArray() as { size: number }[];
    expect(sizes.map((r) => r.size)).toEqual([...Array(Math.floor(want.length / CHUNK_SIZE)).fill(CHUNK_SIZE), want.length % CHUNK_SIZE]);
    sound(storage);
  });

  it("streams mixed with bytes: all land, each whole", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    const appends: { text: string; run: () => Promise<void> }[] = [];
    for (let i = 0; i < 40; i++) {
      if (i % 4 === 0) {
        const parts = [`s${i}:a`, "b", "c", "\n"];
        appends.push({ text: parts.join(""), run: () => ws.fs.appendFile("/mix", slowStream(parts)) });
      } else appends.push({ text: `b${i}\n`, run: () => ws.fs.appendFile("/mix", `b${i}\n`) });
    }
    expect((await Promise.all(appends.map((a) => code(a.run())))).filter((c) => c !== "ok")).toEqual([]);
    const text = await textOf(ws, "/mix");
    expect(text.split("\n").filter(Boolean).sort()).toEqual(appends.map((a) => a.text.trimEnd()).sort());
    expect(text.length).toBe(appends.reduce((n, a) => n + a.text.length, 0));
    sound(storage);
  });

  it("a stream whose producer awaits another append to the same path does not deadlock", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    await ws.fs.writeFile("/log", "0\n");
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent) return c.close();
        sent = true;
        await ws.fs.appendFile("/log", "inner\n");
        c.enqueue(new TextEncoder().encode("outer\n"));
      },
    });
    await ws.fs.appendFile("/log", stream);
    expect(await textOf(ws, "/log")).toBe("0\ninner\nouter\n");
    sound(storage);
  });

  it("a refused append does not stop the ones after it", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    await ws.fs.writeFile("/log", "");
    const ino = (await ws.fs.stat("/log")).inode;
    const got = await Promise.all([
      code(ws.fs.appendFile("/log", "a\n")),
      code(ws.fs.appendFile("/log", "x\n", { ifInode: ino + 1000 })),
      code(ws.fs.appendFile("/log", slowStream(["half"], new Error("boom")))),
      code(ws.fs.appendFile("/log", "b\n", { ifInode: ino })),
      code(ws.fs.appendFile("/log", "c\n")),
    ]);
    expect(got).toEqual(["ok", "ESTALE", "boom", "ok", "ok"]);
    expect(await textOf(ws, "/log")).toBe("a\nb\nc\n");
    sound(storage);
  });

  it("two Workspaces over one storage object, 2 × 25 at once", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const a = new Workspace({ storage });
    const b = new Workspace({ storage });
    await a.fs.writeFile("/log", "");
    const lines = Array.from({ length: 50 }, (_, i) => `w${i % 2} ${i}\n`);
    const got = await Promise.all(lines.map((l, i) => code((i % 2 ? b : a).fs.appendFile("/log", l))));
    expect(got.filter((c) => c !== "ok")).toEqual([]);
    expect((await textOf(b, "/log")).split("\n").filter(Boolean).sort()).toEqual(lines.map((l) => l.trimEnd()).sort());
    sound(storage);
  });

  it("an append that waited its turn is dated when it lands", async () => {
    let t = 1_000_000;
    const readings: number[] = [];
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage, now: () => (readings.push((t += 1000)), t) });
    await ws.fs.writeFile("/log", "");
    const before = readings.length;
    await Promise.all(["a", "b", "c"].map((s) => ws.fs.appendFile("/log", s)));
    const calls = readings.slice(before, before + 3); // read when each append was called
    const stat = await ws.fs.stat("/log");
    expect(stat.mtime).toBeGreaterThan(Math.max(...calls));
    expect(readings).toContain(stat.mtime);
  });
});

describe("another process's commit between the reads (attacker g's harness: the built dist/)", () => {
  const script = (body: string) => `import { Workspace, nodeSqliteStorage } from ${JSON.stringify(join(process.cwd(), "dist/index.js"))};
    const s = nodeSqliteStorage(process.argv[1]);
    const ws = new Workspace({ storage: s });
    ${body}
    s.close();`;
  const other = (file: string, body: string) => execFileSync(process.execPath, ["--input-type=module", "-e", script(body), file], { stdio: "inherit" });

  /** Runs `other` right before the first statement matching `when` (after `after` matched, when given). */
  function inject(storage: Storage, when: RegExp, run: () => void, after?: RegExp): { fired: () => boolean; restore: () => void } {
    const exec = storage.sql.exec;
    let armed = after === undefined;
    let fired = false;
    (storage.sql as { exec: typeof exec }).exec = ((query: string, ...args: unknown[]) => {
      if (!fired && armed && when.test(query)) {
        fired = true;
        run();
      } else if (!armed && after!.test(query)) armed = true;
      return exec(query, ...(args as never[]));
    }) as typeof exec;
    return { fired: () => fired, restore: () => ((storage.sql as { exec: typeof exec }).exec = exec) };
  }

  function withFile(fn: (file: string, storage: Storage, ws: Workspace) => Promise<void>) {
    return async () => {
      const dir = mkdtempSync(join(tmpdir(), "fix37-ap-"));
      const file = join(dir, "w.db");
      const storage = nodeSqliteStorage(file);
      try {
        const ws = new Workspace({ storage });
        await ws.fs.writeFile("/f", "aaaa");
        await ws.fs.writeFile("/g", "aaaa"); // shares /f's chunk
        await fn(file, storage, ws);
      } finally {
        storage.close();
        rmSync(dir, { recursive: true, force: true });
      }
    };
  }
  async function sweepAndCheck(storage: Storage, ws: Workspace): Promise<void> {
    sound(storage);
    await ws.fs.writeFile("/h", "zzz");
    await ws.fs.rm("/h");
    expect(await textOrCode(ws, "/g")).toBe("aaaa");
  }

  it(
    "a write between the append's stamp read and row read is seen (the append starts again on it)",
    withFile(async (file, storage, ws) => {
      const hook = inject(storage, /^SELECT ino, parent, name, kind, mode, mtime, size, target, chunk, path_key AS key FROM __ws_nodes WHERE ino = \?/, () => other(file, `await ws.fs.writeFile("/f", "bbbb");`), /SELECT rev FROM __ws_nodes WHERE ino = \?/);
      await ws.fs.appendFile("/f", "XY");
      hook.restore();
      expect(hook.fired()).toBe(true);
      expect(await textOf(ws, "/f")).toBe("bbbbXY");
      await sweepAndCheck(storage, ws);
    }),
    60_000,
  );

  it(
    "ifMatch: a write between the lookup and the stamp read fails the conditional write ESTALE, the other write kept",
    withFile(async (file, storage, ws) => {
      const hash = createHash("sha256").update("aaaa").digest("hex");
      const hook = inject(storage, /SELECT rev FROM __ws_nodes WHERE ino = \?/, () => other(file, `await ws.fs.writeFile("/f", "bbbb");`));
      const got = await code(ws.fs.writeFile("/f", "cccc", { ifMatch: hash }));
      hook.restore();
      expect(hook.fired()).toBe(true);
      expect(got).toBe("ESTALE");
      expect(await textOf(ws, "/f")).toBe("bbbb");
      await sweepAndCheck(storage, ws);
    }),
    60_000,
  );

  it(
    "ifUnmodified: a same-size write between the lookup and the stamp read fails ESTALE, the other write kept",
    withFile(async (file, storage, ws) => {
      const st = await ws.fs.stat("/f");
      const hook = inject(storage, /SELECT rev FROM __ws_nodes WHERE ino = \?/, () => other(file, `await ws.fs.writeFile("/f", "bbbb");`));
      const got = await code(ws.fs.writeFile("/f", "cccc", { ifUnmodified: { inode: st.inode, size: st.size, mtime: st.mtime } }));
      hook.restore();
      expect(hook.fired()).toBe(true);
      expect(got).toBe("ESTALE");
      expect(await textOf(ws, "/f")).toBe("bbbb");
      await sweepAndCheck(storage, ws);
    }),
    60_000,
  );

  it(
    "inodeOf (container sync's fingerprint): a write between the lookup and the stamp read gives the new row with the new stamp",
    withFile(async (file, storage, ws) => {
      const fs = ws.fs as unknown as { inodeOf(p: string): { rev: number; size: number } | undefined; stampOf(p: string): number | undefined };
      const hook = inject(storage, /SELECT rev FROM __ws_nodes WHERE ino = \?/, () => other(file, `await ws.fs.writeFile("/f", "bbbbbb");`));
      const got = fs.inodeOf("/f");
      hook.restore();
      expect(hook.fired()).toBe(true);
      // Was: size 4 (the row before the other process's write) with that write's stamp.
      expect(got && { size: got.size, rev: got.rev }).toEqual({ size: (await ws.fs.stat("/f")).size, rev: fs.stampOf("/f") });
      expect(got?.size).toBe(6);
    }),
    60_000,
  );

  it(
    "two processes appending 60 lines each at once: 120 lines, each process's in its call order",
    withFile(async (file, storage, ws) => {
      await ws.fs.writeFile("/log", "");
      const child = spawn(process.execPath, ["--input-type=module", "-e", script(`await Promise.all(Array.from({ length: 60 }, (_, i) => ws.fs.appendFile("/log", "B " + i + "\\n")));`), file], { stdio: "inherit" });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const mine = await Promise.all(Array.from({ length: 60 }, (_, i) => code(ws.fs.appendFile("/log", `A ${i}\n`))));
      expect(await exited).toBe(0);
      expect(mine.filter((c) => c !== "ok")).toEqual([]);
      const lines = (await textOf(ws, "/log")).split("\n").filter(Boolean);
      expect(lines).toHaveLength(120);
      for (const who of ["A", "B"]) expect(lines.filter((l) => l.startsWith(who))).toEqual(Array.from({ length: 60 }, (_, i) => `${who} ${i}`));
      await sweepAndCheck(storage, ws);
    }),
    60_000,
  );
});
