/**
 * Appends to one file through several spellings of its path (issue 20, run 37, fixer AP2; found by attacker i,
 * test/node/attack37i/append-two-spellings-estale.test.ts).
 *
 * Before: appends took turns per canonical path (src/fs/write.ts, fixer AP), so `/d/log` and `/l/log` with
 * `l -> /d` queued apart and raced in lockstep: each time the other queue's head committed first, so every tenth
 * append of the second spelling lost all 10 tries and rejected ESTALE (20 per spelling → 2 lost, 50 → 5).
 * Now (`FileWriter.append`, `entryKey`): the turn is keyed by the path key of the entry the path leads to (links
 * followed as the append follows them; a missing file by its parent's key and name, the key it then gets), and
 * checked again in the turn: a path that has come to lead elsewhere takes the new entry's turn (one try spent).
 *
 * Checked here, with Node 22's fs.promises.appendFile (O_APPEND) on a temp dir with the same links as the reference
 * (every append lands, each whole; Linux appends to the file whatever path opened it):
 * - 2 spellings (a link to the parent) × 50 and 4 spellings (a link to the parent, a link to the file, a relative
 *   link whose target holds `..`, resolved physically — docs/filesystem.md "Symbolic links") × 30, to an empty file
 *   and to a missing one: none rejects, the same lines as Node's, and in call order (one turn for all);
 * - two Workspaces over one storage object, each through its own spelling, 2 × 40;
 * - streams through one spelling mixed with bytes through another: all land, each whole;
 * - the file created by the burst's first append while the rest wait (calls made before and after it lands);
 * - the link retargeted mid-burst (`l -> /d`, then `l -> /e` after the first append lands): none rejects, each line
 *   in exactly one file, `/d/log`'s and `/e/log`'s own lines in their files in call order, as Node's fs (which file
 *   a link's in-flight append reaches is timing there, and here the turn order);
 * - the store sound after each (chunk refs = references, no unleased orphan).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";

type Storage = ReturnType<typeof nodeSqliteStorage>;
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? String(e.message));
const textOf = async (ws: Workspace, path: string) => (await ws.fs.readFile(path, "utf8")) as string;
function sound(storage: Storage): void {
  expect(integrityProblems(storage.sql as never)).toEqual([]);
  expect(unleasedOrphans(storage.sql as never)).toBe(0);
}

/** The tree both sides build: `/d/log` (unless `create`), `/d/sub`, `l -> /d`, `f -> d/log`, `/d/sub/up -> ..`. */
const LINKS: [target: string, at: string][] = [
  ["/d", "/l"],
  ["d/log", "/f"],
  ["..", "/d/sub/up"],
];
const SPELLINGS = ["/d/log", "/l/log", "/f", "/d/sub/up/log"];

/** `calls[i] = [spelling, line]`, interleaved across `spellings`, `n` each. */
function interleaved(spellings: string[], n: number): [string, string][] {
  const calls: [string, string][] = [];
  for (let i = 0; i < n; i++) for (const [s, spelling] of spellings.entries()) calls.push([spelling, `${String.fromCharCode(97 + s)}${i} ${"x".repeat(i % 5)}\n`]);
  return calls;
}

/** Node's answer: the same tree in a temp dir (absolute link targets rebased), the same calls at once. */
async function nodeBurst(calls: [string, string][], create: boolean): Promise<{ rejected: number; text: string }> {
  const dir = mkdtempSync(join(tmpdir(), "fix37-ap2-"));
  try {
    mkdirSync(join(dir, "d/sub"), { recursive: true });
    if (!create) writeFileSync(join(dir, "d/log"), "");
    for (const [target, at] of LINKS) symlinkSync(target.startsWith("/") ? join(dir, target) : target, join(dir, at));
    const got = await Promise.allSettled(calls.map(([p, l]) => appendFile(join(dir, p), l)));
    return { rejected: got.filter((r) => r.status === "rejected").length, text: readFileSync(join(dir, "d/log"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function tree(ws: Workspace, create: boolean): Promise<void> {
  await ws.fs.mkdir("/d/sub", { recursive: true });
  if (!create) await ws.fs.writeFile("/d/log", "");
  for (const [target, at] of LINKS) await ws.fs.symlink(target, at);
}

describe("appends through several spellings of one file take one turn", () => {
  for (const [spellings, n] of [
    [SPELLINGS.slice(0, 2), 50],
    [SPELLINGS, 30],
  ] as const) {
    for (const create of [false, true]) {
      it(`${spellings.length} spellings × ${n} to ${create ? "a missing" : "an empty"} file: all land, in call order`, async () => {
        const calls = interleaved([...spellings], n);
        const real = await nodeBurst(calls, create);
        expect(real.rejected).toBe(0);
        const storage = nodeSqliteStorage(":memory:");
        const ws = new Workspace({ storage });
        try {
          await tree(ws, create);
          const got = await Promise.all(calls.map(([p, l]) => code(ws.fs.appendFile(p, l))));
          expect(got.filter((c) => c !== "ok")).toEqual([]); // Was (2 × 50): five ESTALE
          const text = await textOf(ws, "/d/log");
          expect(text.split("\n").sort()).toEqual(real.text.split("\n").sort());
          expect(text).toBe(calls.map(([, l]) => l).join(""));
          // Still one file, the links untouched.
          expect((await ws.fs.readdir("/d")).map((e) => e.name).sort()).toEqual(["log", "sub"]);
          expect(await ws.fs.readlink("/f")).toBe("d/log");
          sound(storage);
        } finally {
          await ws.close();
          storage.close();
        }
      });
    }
  }

  it("two Workspaces over one storage object, each through its own spelling, 2 × 40", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const one = new Workspace({ storage });
    const two = new Workspace({ storage });
    try {
      await tree(one, false);
      await two.ready();
      const calls = interleaved(["/d/log", "/l/log"], 40);
      const got = await Promise.all(calls.map(([p, l], i) => code((i % 2 === 0 ? one : two).fs.appendFile(p, l))));
      expect(got.filter((c) => c !== "ok")).toEqual([]);
      expect(await textOf(two, "/d/log")).toBe(calls.map(([, l]) => l).join(""));
      sound(storage);
    } finally {
      await one.close();
      await two.close();
      storage.close();
    }
  });

  it("streams through one spelling mixed with bytes through another: all land, each whole", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    try {
      await tree(ws, false);
      const stream = (i: number) => {
        const parts = [`s${i}-`, "mid-", `end${i}\n`];
        return new ReadableStream<Uint8Array>({
          async pull(c) {
            await new Promise((r) => setTimeout(r, 1));
            const part = parts.shift();
            if (part === undefined) c.close();
            else c.enqueue(new TextEncoder().encode(part));
          },
        });
      };
      const jobs: Promise<string>[] = [];
      for (let i = 0; i < 25; i++) {
        jobs.push(code(ws.fs.appendFile("/l/log", stream(i))));
        jobs.push(code(ws.fs.appendFile("/d/log", `b${i}\n`)));
        jobs.push(code(ws.fs.appendFile("/f", `c${i}\n`)));
      }
      expect((await Promise.all(jobs)).filter((c) => c !== "ok")).toEqual([]);
      const lines = (await textOf(ws, "/d/log")).split("\n").filter(Boolean).sort();
      const want = Array.from({ length: 25 }, (_, i) => [`s${i}-mid-end${i}`, `b${i}`, `c${i}`]).flat().sort();
      expect(lines).toEqual(want);
      sound(storage);
    } finally {
      await ws.close();
      storage.close();
    }
  });

  it("the file created by the first append while the rest wait, calls made before and after it lands", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    try {
      await tree(ws, true);
      const early = interleaved(["/l/log", "/d/log", "/d/sub/up/log"], 15);
      const jobs = early.map(([p, l]) => code(ws.fs.appendFile(p, l)));
      expect(await jobs[0]).toBe("ok"); // the file exists now; the rest still wait
      expect((await ws.fs.stat("/d/log")).isFile).toBe(true);
      const late = interleaved(["/f", "/l/log"], 15).map(([p, l]): [string, string] => [p, `late ${l}`]);
      jobs.push(...late.map(([p, l]) => code(ws.fs.appendFile(p, l))));
      expect((await Promise.all(jobs)).filter((c) => c !== "ok")).toEqual([]);
      // One turn throughout (the missing file's key is the key it got): call order, early then late.
      expect(await textOf(ws, "/d/log")).toBe([...early, ...late].map(([, l]) => l).join(""));
      sound(storage);
    } finally {
      await ws.close();
      storage.close();
    }
  });

  it("a link retargeted mid-burst: every append lands once, in one file or the other, as Node's", async () => {
    const n = 20;
    const calls = interleaved(["/d/log", "/l/log", "/e/log"], n);
    const split = (dText: string, eText: string) => {
      const d = dText.split("\n").filter(Boolean);
      const e = eText.split("\n").filter(Boolean);
      return { d, e, all: [...d, ...e].sort() };
    };
    const want = calls.map(([, l]) => l.slice(0, -1)).sort();
    // Node: the same calls, `l` retargeted from /d to /e once the first append has landed.
    const dir = mkdtempSync(join(tmpdir(), "fix37-ap2-"));
    let real: ReturnType<typeof split>;
    try {
      mkdirSync(join(dir, "d"));
      mkdirSync(join(dir, "e"));
      writeFileSync(join(dir, "d/log"), "");
      writeFileSync(join(dir, "e/log"), "");
      symlinkSync(join(dir, "d"), join(dir, "l"));
      const jobs = calls.map(([p, l]) => appendFile(join(dir, p), l).then(() => "ok", (e: { code?: string }) => e.code));
      await jobs[0];
      unlinkSync(join(dir, "l"));
      symlinkSync(join(dir, "e"), join(dir, "l"));
      expect((await Promise.all(jobs)).filter((c) => c !== "ok")).toEqual([]);
      real = split(readFileSync(join(dir, "d/log"), "utf8"), readFileSync(join(dir, "e/log"), "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(real.all).toEqual(want);

    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    try {
      await ws.fs.mkdir("/d");
      await ws.fs.mkdir("/e");
      await ws.fs.writeFile("/d/log", "");
      await ws.fs.writeFile("/e/log", "");
      await ws.fs.symlink("/d", "/l");
      const jobs = calls.map(([p, l]) => code(ws.fs.appendFile(p, l)));
      expect(await jobs[0]).toBe("ok");
      await ws.fs.rm("/l");
      await ws.fs.symlink("/e", "/l");
      expect((await Promise.all(jobs)).filter((c) => c !== "ok")).toEqual([]);
      const got = split(await textOf(ws, "/d/log"), await textOf(ws, "/e/log"));
      // Every line once, in one file or the other (as Node's).
      expect(got.all).toEqual(real.all);
      // Each file's own spelling lands in it, in call order; the link's lines in call order within each file.
      const own = (prefix: string) => calls.filter(([, l]) => l.startsWith(prefix)).map(([, l]) => l.slice(0, -1));
      expect(got.d.filter((l) => l.startsWith("a"))).toEqual(own("a"));
      expect(got.e.filter((l) => l.startsWith("c"))).toEqual(own("c"));
      const viaLink = own("b");
      const inD = got.d.filter((l) => l.startsWith("b"));
      const inE = got.e.filter((l) => l.startsWith("b"));
      expect(inD).toEqual(viaLink.filter((l) => inD.includes(l)));
      expect(inE).toEqual(viaLink.filter((l) => inE.includes(l)));
      expect(inD.length + inE.length).toBe(n);
      sound(storage);
    } finally {
      await ws.close();
      storage.close();
    }
  });
});
