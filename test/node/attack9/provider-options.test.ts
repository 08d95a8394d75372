/**
 * FIXED — DEFECT 1: truncate(path, len) of a file over maxOpenFileBytes
 * streams its first len bytes into the new content (bound to its inode);
 * only growing such a file is EFBIG. DEFECT 2: writeFile with a flag
 * without truncate or create ("r+", O_WRONLY) opens a handle as open()
 * does (ENOENT when missing), writes from offset 0 and keeps the rest.
 * DEFECT 3: watcher timers are capped at 2^31 − 1 ms (setTimeout's
 * maximum; node's watchFile accepts any uint32), documented in
 * docs/filesystem.md and docs/porting.md.
 *
 * Issue 20 ninth attack run, category 4: `workspace.provider()`
 * (src/fs/provider.ts) — options and whole-path calls that runs 2–8 and
 * probe-provider did not send. Plain Node (node:sqlite storage).
 *
 * Withstood: writeFile "wx" and copyFile COPYFILE_EXCL onto a dangling link
 * (EEXIST, the target is not made); copyFile onto itself through a link (both
 * directions keep the bytes); symlink with an empty target (ENOENT); mkdir
 * recursive through a dangling link (ENOENT); appendFile to a file over
 * maxOpenFileBytes (streamed, bytes kept); data of a wrong type, an
 * unsupported encoding, junk write/read arguments (EINVAL); a directory
 * opened "r" (read/readFile EISDIR); rmdir recursive on a link (ENOTDIR).
 *
 * DEFECT 1 (low) — `truncate(path, len)` of a file larger than
 * `maxOpenFileBytes` is EFBIG even when `len` is smaller (0 included):
 *   const p = new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: 16 });
 *   await ws.fs.writeFile("/big", "x".repeat(100));
 *   await p.truncate("/big", 0)   // → EFBIG "file too large to open for writing (100 bytes …)"
 * Expected (TSDoc: "`EFBIG` a new size over `maxOpenFileBytes`"; node:fs):
 * the file is cut to 0 bytes. truncate opens the file "r+", and open refuses
 * a writable handle on a file over the limit, so a big log can never be
 * emptied or shortened through the provider (default limit 64 MiB).
 *
 * DEFECT 2 (medium, data loss) — `writeFile(path, data, { flag: "r+" })`
 * truncates and creates, where node:fs (open with O_RDWR, no O_TRUNC, no
 * O_CREAT) overwrites the start and keeps the rest, and rejects ENOENT for a
 * missing file:
 *   await ws.fs.writeFile("/r", "12345");
 *   await p.writeFile("/r", "ab", { flag: "r+" });   // node:fs → "ab345"
 *   await ws.fs.readFile("/r", "utf8")                // → "ab": "345" lost
 *   await p.writeFile("/missing", "ab", { flag: "r+" })  // node:fs → ENOENT; here the file is made
 * Code that patches a header in place (the reason to pass "r+") silently
 * loses the rest of the file. wholeFileOptions() only checks that the flag
 * writes; writeFile ignores its `create` and `truncate` bits.
 *
 * DEFECT 3 (low, resource) — a watch `interval` (or the provider's
 * `watchIntervalMs`) of 2^31 ms or more is accepted (positiveInteger allows
 * any safe integer) and handed to setInterval, which on Node clamps it to
 * 1 ms (TimeoutOverflowWarning): a watcher meant to poll "rarely" polls the
 * change log a thousand times a second, forever.
 *   p.watch("/", { interval: 2 ** 31 });   p.watchFile("/x", { interval: 2 ** 31 }, () => {});
 *   → ~450 change-log reads in 300 ms (a TimeoutOverflowWarning each)
 * Expected: refused (TypeError naming the option, as other bad intervals) or
 * capped at 2^31 − 1.
 *
 * Fix proposals: truncate via a length-only path (a stream cut, or open
 * without loading when len ≤ maxOpenFileBytes); writeFile honours the flag's
 * create/truncate bits (r+ → open a handle and write at 0); intervals
 * bounded to 1..2^31−1.
 */
import { describe, expect, it } from "vitest";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";

const fresh = () => new Workspace({ storage: nodeSqliteStorage(":memory:") });
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("attack9: provider options", () => {
  it("withstood: exclusive writes onto dangling links, copyFile onto itself through a link, junk arguments", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      const small = new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: 16 });
      await ws.fs.symlink("/nowhere", "/dl");
      expect(await codeOf(p.writeFile("/dl", "z", { flag: "wx" }))).toBe("EEXIST");
      expect(await codeOf(p.copyFile("/dl", "/dl", 1))).toBe("ENOENT");
      await ws.fs.writeFile("/src", "source-bytes");
      expect(await codeOf(p.copyFile("/src", "/dl", 1))).toBe("EEXIST");
      expect(await p.exists("/nowhere")).toBe(false);
      await ws.fs.symlink("/src", "/lsrc");
      expect(await codeOf(p.copyFile("/src", "/lsrc"))).toBe("ok");
      expect(await codeOf(p.copyFile("/lsrc", "/src"))).toBe("ok");
      expect(await ws.fs.readFile("/src", "utf8")).toBe("source-bytes");
      expect(await codeOf(p.symlink("", "/e"))).toBe("ENOENT");
      await ws.fs.symlink("/nowhere3", "/dd");
      // ENOTDIR as node:fs's promises on Linux (libuv's mkdirp stats the dangling parent; run 23, fixer SB2).
      expect(await codeOf(p.mkdir("/dd/b", { recursive: true }))).toBe("ENOTDIR");
      await ws.fs.writeFile("/big", "x".repeat(100));
      expect(await codeOf(small.appendFile("/big", "Y"))).toBe("ok");
      expect(await ws.fs.readFile("/big", "utf8")).toBe(`${"x".repeat(100)}Y`);
      expect(await codeOf(p.writeFile("/o", "x", { encoding: "latin1" }))).toBe("EINVAL");
      expect(await codeOf(p.writeFile("/o", 5 as never))).toBe("EINVAL");
      const h = await p.open("/w1", "w");
      expect(await codeOf(h.write({ length: 5 } as never))).toBe("EINVAL");
      expect(await codeOf(h.write(new Uint8Array(4), -1))).toBe("EINVAL");
      expect(await codeOf(h.write("abc", "5" as never))).toBe("EINVAL");
      await h.close();
      const d = await p.open("/", "r");
      expect(await codeOf(d.read())).toBe("EISDIR");
      await d.close();
      expect(await codeOf(p.rmdir("/lsrc", { recursive: true }))).toBe("ENOTDIR");
    } finally {
      await ws.close();
    }
  });

  it("truncate of a file over maxOpenFileBytes to 0 (or any smaller size) works (DEFECT 1)", async () => {
    const ws = fresh();
    try {
      const p = new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: 16 });
      await ws.fs.writeFile("/big", "x".repeat(100));
      expect(await codeOf(p.truncate("/big", 0))).toBe("ok");
      expect((await ws.fs.stat("/big")).size).toBe(0);
    } finally {
      await ws.close();
    }
  });

  it("writeFile with flag r+ overwrites the start and keeps the rest (DEFECT 2)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/r", "12345");
      await p.writeFile("/r", "ab", { flag: "r+" });
      expect(await ws.fs.readFile("/r", "utf8")).toBe("ab345");
    } finally {
      await ws.close();
    }
  });

  it("writeFile with flag r+ on a missing file is ENOENT and makes nothing (DEFECT 2)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      expect(await codeOf(p.writeFile("/missing", "ab", { flag: "r+" }))).toBe("ENOENT");
      expect(await p.exists("/missing")).toBe(false);
    } finally {
      await ws.close();
    }
  });

  it("a watch or watchFile interval of 2^31 ms is refused (or capped), never a 1 ms poll (DEFECT 3)", async () => {
    const ws = fresh();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    let reads = 0;
    const fs = ws.fs as unknown as Record<string | symbol, unknown>;
    const counted = new Proxy(fs, {
      get(target, key) {
        const value = target[key];
        if (key === "revision") return (...args: unknown[]) => (reads++, (value as (...a: unknown[]) => unknown).apply(target, args));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const p = new SQLiteWorkspaceProvider({ fs: counted as never });
    const refused: string[] = [];
    try {
      try {
        p.watch("/", { interval: 2 ** 31 });
      } catch (e) {
        refused.push(String(e));
      }
      try {
        p.watchFile("/x", { interval: 2 ** 31 }, () => {});
      } catch (e) {
        refused.push(String(e));
      }
      // Refused (TypeError) or capped: either way nothing polls in the next 200 ms (each would poll in 2^31 ms).
      const before = reads;
      await new Promise((r) => setTimeout(r, 200));
      expect({ reads: reads - before, overflow: warnings.filter((w) => w === "TimeoutOverflowWarning").length }).toEqual({ reads: 0, overflow: 0 });
    } finally {
      process.off("warning", onWarning);
      p.unwatchAll();
      await ws.close();
    }
  });
});
