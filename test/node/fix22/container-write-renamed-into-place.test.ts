/**
 * Fix of attack22c/container-push-enospc-torn-file-pulled-over-workspace (issue 20, run 22), the daemon side: a
 * whole-file `write` op (offset 0, truncate — every push of a file of at most 1 MiB, and a large file's first piece)
 * goes to a new file beside the path (`.ws-sync-write-<16 hex>`) renamed into place (container/lib/sync.mjs
 * `writeWhole`). The real daemon's RPC object (`Computerd`) in process; the ENOSPC cases on a 64 KiB tmpfs (root
 * only; skipped elsewhere).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { daemonOn } from "../attack18c/real-daemon.js";
import { tinyDisk } from "../container/tiny-disk.js";

type Result = { ok: true; stat?: { kind: string; mode: number; size: number } } | { ok: false; error: { code: string; message: string; syscall?: string; path?: string } };
type Apply = (i: unknown) => Promise<{ results: Result[] }>;

/** The `apply` of the real daemon's RPC object over `dir`. */
async function applyOn(dir: string): Promise<Apply> {
  const daemon = (await daemonOn(dir, "boot-1")) as unknown as { apply: Apply };
  return (i) => daemon.apply(i);
}

const probe = tinyDisk();
probe?.release();
const root = process.getuid?.() === 0;

/** The names in `dir` (sorted). */
const names = (dir: string): string[] => fs.readdirSync(dir).sort();

describe("fix22: a whole-file write is renamed into place", () => {
  let base: string;
  let dir: string;
  let apply: Apply;
  beforeEach(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "fix22-write-"));
    dir = path.join(base, "ws");
    fs.mkdirSync(dir);
    apply = await applyOn(dir);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));
  const one = async (op: Record<string, unknown>): Promise<Result> => (await apply({ ops: [op] })).results[0]!;

  (probe ? it : it.skip)("ENOSPC: the old file stays whole (bytes, inode, mode), a new one is not made, no temporary is left", async () => {
    const disk = tinyDisk()!;
    try {
      const ws = path.join(disk.dir, "ws");
      fs.mkdirSync(ws);
      const a = await applyOn(ws);
      fs.writeFileSync(path.join(ws, "old.txt"), "o".repeat(4000), { mode: 0o640 });
      const before = fs.statSync(path.join(ws, "old.txt"));
      fs.writeFileSync(path.join(ws, "filler"), Buffer.alloc(40_000));
      const { results } = await a({
        ops: [
          { op: "write", path: "old.txt", data: "n".repeat(30_000) },
          { op: "write", path: "new.txt", data: "n".repeat(30_000) },
        ],
      });
      expect(results).toEqual([
        { ok: false, error: { code: "ENOSPC", message: "ENOSPC: no space left on device (old.txt)", syscall: "write", path: "old.txt" } },
        { ok: false, error: { code: "ENOSPC", message: "ENOSPC: no space left on device (new.txt)", syscall: "write", path: "new.txt" } },
      ]);
      const after = fs.statSync(path.join(ws, "old.txt"));
      expect({ bytes: fs.readFileSync(path.join(ws, "old.txt"), "utf8"), ino: after.ino, mode: after.mode & 0o7777 }).toEqual({ bytes: "o".repeat(4000), ino: before.ino, mode: 0o640 });
      expect(names(ws)).toEqual(["filler", "old.txt"]);
      // Once there is room, the same op replaces it.
      fs.rmSync(path.join(ws, "filler"));
      expect((await a({ ops: [{ op: "write", path: "old.txt", data: "n".repeat(30_000) }] })).results[0]).toMatchObject({ ok: true, stat: { kind: "file", size: 30_000, mode: 0o640 } });
      expect(names(ws)).toEqual(["old.txt"]);
    } finally {
      disk.release();
    }
  });

  it("a process reading the old file reads it whole; the path then holds the new bytes", async () => {
    const file = path.join(dir, "log.txt");
    fs.writeFileSync(file, "old-old-old-old\n");
    const fd = fs.openSync(file, "r");
    try {
      expect(await one({ op: "write", path: "log.txt", data: "new\n" })).toMatchObject({ ok: true, stat: { size: 4 } });
      const buf = Buffer.alloc(64);
      expect(buf.subarray(0, fs.readSync(fd, buf, 0, 64, 0)).toString()).toBe("old-old-old-old\n");
      expect(fs.readFileSync(file, "utf8")).toBe("new\n");
      expect(names(dir)).toEqual(["log.txt"]);
    } finally {
      fs.closeSync(fd);
    }
  });

  it("a running executable is replaced (no ETXTBSY); the running process is untouched", { timeout: 30_000 }, async () => {
    const srv = path.join(dir, "srv");
    fs.copyFileSync("/bin/sleep", srv);
    fs.chmodSync(srv, 0o755);
    const child = spawn(srv, ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => child.once("spawn", r));
      await new Promise((r) => setTimeout(r, 200));
      expect(await one({ op: "write", path: "srv", data: new Uint8Array(fs.readFileSync("/bin/true")) })).toMatchObject({ ok: true, stat: { kind: "file", mode: 0o755 } });
      expect(fs.readFileSync(srv).equals(fs.readFileSync("/bin/true"))).toBe(true);
      expect(child.exitCode).toBe(null);
    } finally {
      child.kill();
    }
  });

  (root ? it : it.skip)("an existing file keeps its owner, group and mode (set-user-ID included) unless a mode is given", async () => {
    const file = path.join(dir, "tool");
    fs.writeFileSync(file, "v1");
    fs.chownSync(file, 1234, 5678);
    fs.chmodSync(file, 0o4751);
    expect(await one({ op: "write", path: "tool", data: "v2" })).toMatchObject({ ok: true, stat: { mode: 0o4751, size: 2 } });
    let st = fs.statSync(file);
    expect({ uid: st.uid, gid: st.gid, mode: st.mode & 0o7777, bytes: fs.readFileSync(file, "utf8") }).toEqual({ uid: 1234, gid: 5678, mode: 0o4751, bytes: "v2" });
    expect(await one({ op: "write", path: "tool", data: "v3", mode: 0o600 })).toMatchObject({ ok: true, stat: { mode: 0o600 } });
    st = fs.statSync(file);
    expect({ uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 }).toEqual({ uid: 1234, gid: 5678, mode: 0o600 });
  });

  it("a new file: the mode given exactly, else 0o644 less the umask (as open(2) makes it)", async () => {
    const ref = path.join(base, "ref");
    fs.writeFileSync(ref, "", { mode: 0o644 });
    expect(await one({ op: "write", path: "d/new-default", data: "x" })).toMatchObject({ ok: true, stat: { mode: fs.statSync(ref).mode & 0o7777 } });
    expect(await one({ op: "write", path: "d/new-666", data: "x", mode: 0o666 })).toMatchObject({ ok: true, stat: { mode: 0o666 } });
    expect(fs.statSync(path.join(dir, "d")).mode & 0o7777).toBe(0o755);
    expect(names(path.join(dir, "d"))).toEqual(["new-666", "new-default"]);
  });

  it("a hard link's other names, a symlink's target and a fifo are never written into; a directory is EISDIR", async () => {
    const outside = path.join(base, "outside.txt");
    fs.writeFileSync(outside, "outside");
    fs.linkSync(outside, path.join(dir, "hard"));
    fs.symlinkSync(outside, path.join(dir, "soft"));
    execFileSync("mkfifo", [path.join(dir, "fifo")]);
    fs.mkdirSync(path.join(dir, "sub"));
    const { results } = await apply({
      ops: ["hard", "soft", "fifo", "sub"].map((p) => ({ op: "write", path: p, data: `new ${p}` })),
    });
    expect(results.map((r) => (r.ok ? r.stat?.kind : r.error))).toEqual([
      "file",
      "file",
      "file",
      { code: "EISDIR", message: "EISDIR: illegal operation on a directory (sub)", syscall: "open", path: "sub" },
    ]);
    expect(fs.readFileSync(outside, "utf8")).toBe("outside");
    expect(fs.statSync(outside).nlink).toBe(1);
    for (const p of ["hard", "soft", "fifo"]) expect(fs.readFileSync(path.join(dir, p), "utf8")).toBe(`new ${p}`);
    expect(names(dir)).toEqual(["fifo", "hard", "soft", "sub"]);
    expect(names(path.join(dir, "sub"))).toEqual([]);
  });

  it("a write at an offset (a piece) writes in place: same inode, the rest kept", async () => {
    const file = path.join(dir, "piece");
    fs.writeFileSync(file, "0123456789");
    const ino = fs.statSync(file).ino;
    expect(await one({ op: "write", path: "piece", data: "ab", offset: 3 })).toMatchObject({ ok: true, stat: { size: 10 } });
    expect(await one({ op: "write", path: "piece", data: "XY", offset: 0, truncate: false })).toMatchObject({ ok: true, stat: { size: 10 } });
    expect({ bytes: fs.readFileSync(file, "utf8"), ino: fs.statSync(file).ino }).toEqual({ bytes: "XY2ab56789", ino });
  });

  it("a path so near PATH_MAX that the temporary name does not fit beside it is written in place", async () => {
    // The file's host path is 4,080 bytes: its own name (1 byte) fits, `.ws-sync-write-<16 hex>` (31) would not.
    const segs: string[] = [];
    let len = dir.length;
    while (len + 1 + 200 + 2 <= 4080) {
      segs.push("d".repeat(200));
      len += 201;
    }
    segs.push("e".repeat(4080 - len - 3));
    segs.push("f");
    const rel = segs.join("/");
    expect(Buffer.byteLength(path.join(dir, rel))).toBe(4080);
    expect(await one({ op: "write", path: rel, data: "first" })).toMatchObject({ ok: true, stat: { size: 5 } });
    expect(await one({ op: "write", path: rel, data: "2nd" })).toMatchObject({ ok: true, stat: { size: 3 } });
    const parent = path.join(dir, ...segs.slice(0, -1));
    expect(names(parent)).toEqual(["f"]);
    expect(fs.readFileSync(path.join(parent, "f"), "utf8")).toBe("2nd");
  });
});
