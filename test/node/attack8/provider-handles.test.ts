/**
 * Issue 20 eighth attack run, newest surface: `workspace.provider()`
 * (SQLiteWorkspaceProvider, src/fs/provider.ts, landed during this run) — its
 * file handles, which docs/filesystem.md gives as node:fs's (`read`,
 * `write`, … "flags as node:fs"; the handle's TSDoc: "Append handles (`a`,
 * `a+`) write at the end whatever the position, as `O_APPEND`"). Hostile and
 * concurrent use from host code (and what code written for node:fs does).
 *
 * FIXED — `write(string, position?, encoding?)` is read as node:fs does; an
 * append handle keeps only what it appends and adds it at the file's end
 * (one queued, hash-guarded append per path, retried when another writer
 * got in); a `r+`/`w` handle stores only if the file is unchanged since it
 * read it (`writeFile` `ifMatch`, else ESTALE); every read and store checks
 * the path still leads to the inode opened (else ESTALE).
 *
 * DEFECT 1 (medium) — `handle.write(string, position, encoding)` ignores
 * `position`. Reproduction:
 *   await ws.fs.writeFile("/g", "0123456789");
 *   const h = await ws.provider().open("/g", "r+");
 *   await h.write("B", 9, "utf8"); await h.close();
 *   await ws.fs.readFile("/g", "utf8")   // → "B123456789"  (node:fs: "012345678B")
 * node:fs `FileHandle.write(string[, position[, encoding]])`; the provider
 * takes the second argument as the buffer form's `offset`, which a string
 * ignores, so the text lands at the file position instead. (The buffer
 * form `write(buf, 0, 1, 9)` is right.)
 * Impact: medium — silent corruption: node:fs code that patches a file in
 * place by position (a header, a fixed-width record) overwrites the start.
 * Fix proposal: when `buffer` is a string, read the arguments as
 * `(string, position?, encoding?)` (refuse an encoding other than UTF-8 with
 * EINVAL, as whole-file calls do).
 *
 * DEFECT 2 (medium) — appends through a handle are lost to any other writer.
 * Reproduction:
 *   const a = await p.open("/log", "a"), b = await p.open("/log", "a");
 *   await a.write("A1\n"); await b.write("B1\n"); await a.write("A2\n");
 *   await a.close(); await b.close();
 *   await ws.fs.readFile("/log", "utf8")   // → "B1\n"   (O_APPEND: all three lines)
 *   // and: h = open("/log2", "a"); h.write("A1\n"); p.appendFile("/log2", "B1\n"); h.close()  → "A1\n"
 * A handle loads the whole file at its first write and replaces the file
 * with its copy at close, so whatever anyone else wrote in between is
 * dropped — even for an append handle, whose only promise is "at the end".
 * Impact: medium — two loggers (or a logger and `appendFile`, the shell's
 * `>>`, a tool's write) lose lines silently; the change log shows nothing
 * wrong.
 * Fix proposal: an append handle keeps only the bytes it appended and
 * appends them at sync/close (one `appendFile` under the file's lock); an
 * `r+`/`w` handle stores only if the file is still the one it loaded
 * (compare the revision stamp; otherwise write back just its dirty ranges,
 * or fail `sync`/`close` with an error naming the concurrent change).
 *
 * DEFECT 3 (medium) — a handle stores by PATH, following links made after it
 * was opened. Reproduction:
 *   await ws.fs.writeFile("/w/x", "1"); await ws.fs.writeFile("/secret/x", "secret");
 *   const h = await p.open("/w/x", "r+");
 *   await ws.fs.rm("/w", { recursive: true }); await ws.fs.symlink("/secret", "/w");   // someone else
 *   await h.write("PWN"); await h.close();
 *   await ws.fs.readFile("/secret/x", "utf8")   // → "PWNret"
 * The first write loads "/w/x" through the new link and close() replaces
 * /secret/x — a file the handle never opened. (A node:fs descriptor names
 * the inode: its writes would go to the unlinked file, never elsewhere.)
 * Likewise a handle whose file was renamed (/f → /f2) fails its first write
 * ENOENT instead of writing to /f2.
 * Impact: medium — host code (mount factories get the provider as ctx.vfs;
 * the git adapter) holding a handle while the model's code swaps a
 * directory for a link writes outside where it meant to, e.g. outside a
 * confined run's root.
 * Fix proposal: remember the inode at open (`FileStore.inode`) and store to
 * it: at the first read/write and at close resolve the path without
 * following links on the way and compare the inode; a mismatch is ESTALE
 * (or write to the inode wherever it now is).
 *
 * Noted, not filed: `watch("/nope")` returns a watcher (node:fs throws
 * ENOENT); `stat(new URL("file:///f"))` / `stat(Buffer)` are EINVAL "path
 * must be a string" (node:fs accepts both) — the shim passes strings.
 *
 * Withstood: `copyFile(f, f)`, `copyFile` onto a link to itself and
 * `rename(f, f)` keep the bytes; `rename("/a", "/a/b/c")` EINVAL;
 * `realpath` of a self link ELOOP; `readdir(…, { recursive })` over a `..`
 * link does not loop; rmdir non-empty ENOTEMPTY; unlink of a directory
 * EISDIR; `truncate(-1)` EINVAL; `wx` on an existing file EEXIST; a
 * `latin1` encoding EINVAL; `open(dir, "w")` → EISDIR; a write at position 2^40, a handle
 * `truncate(2^40)` and `provider.truncate(path, 2^40)` → EFBIG (bounded by
 * maxOpenFileBytes, nothing allocated); a relative path and a NUL → EINVAL;
 * the buffer form of `write` honours its position.
 */
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const fresh = () => new Workspace({ storage: nodeSqliteStorage(":memory:") });
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("attack8: workspace.provider() file handles", () => {
  it("write(string, position, encoding) writes at position (DEFECT 1)", async () => {
    const ws = fresh();
    try {
      await ws.fs.writeFile("/g", "0123456789");
      const h = await ws.provider().open("/g", "r+");
      await h.write("B", 9, "utf8");
      await h.close();
      expect(await ws.fs.readFile("/g", "utf8")).toBe("012345678B");
    } finally {
      await ws.close();
    }
  });

  it("two append handles keep every line (DEFECT 2)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/log", "");
      const a = await p.open("/log", "a");
      const b = await p.open("/log", "a");
      await a.write("A1\n");
      await b.write("B1\n");
      await a.write("A2\n");
      await a.close();
      await b.close();
      const text = await ws.fs.readFile("/log", "utf8");
      expect(text.split("\n").filter(Boolean).sort()).toEqual(["A1", "A2", "B1"]);
    } finally {
      await ws.close();
    }
  });

  it("an append handle does not drop an appendFile made while it was open (DEFECT 2)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/log2", "");
      const h = await p.open("/log2", "a");
      await h.write("A1\n");
      await p.appendFile("/log2", "B1\n");
      await h.close();
      const text = await ws.fs.readFile("/log2", "utf8");
      expect(text.split("\n").filter(Boolean).sort()).toEqual(["A1", "B1"]);
    } finally {
      await ws.close();
    }
  });

  it("a handle does not store through a link made after it was opened (DEFECT 3)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.mkdir("/w");
      await ws.fs.mkdir("/secret");
      await ws.fs.writeFile("/secret/x", "secret");
      await ws.fs.writeFile("/w/x", "1");
      const h = await p.open("/w/x", "r+");
      await ws.fs.rm("/w", { recursive: true });
      await ws.fs.symlink("/secret", "/w");
      await h.write("PWN").catch(() => {});
      await h.close().catch(() => {});
      expect(await ws.fs.readFile("/secret/x", "utf8")).toBe("secret");
    } finally {
      await ws.close();
    }
  });

  it("copyFile/rename onto themselves keep the bytes; rename into itself, link loops, recursive readdir over a .. link", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/f", "precious");
      await p.copyFile("/f", "/f");
      await ws.fs.symlink("/f", "/l");
      await p.copyFile("/f", "/l");
      await p.rename("/f", "/f");
      expect(await ws.fs.readFile("/f", "utf8")).toBe("precious");
      expect((await ws.fs.lstat("/l")).isSymbolicLink).toBe(true);
      await ws.fs.mkdir("/a/b", { recursive: true });
      expect(await codeOf(p.rename("/a", "/a/b/c"))).toBe("EINVAL");
      await ws.fs.symlink("/cyc", "/cyc");
      expect(await codeOf(p.realpath("/cyc"))).toBe("ELOOP");
      await ws.fs.mkdir("/r/s", { recursive: true });
      await ws.fs.symlink("..", "/r/s/up");
      expect((await p.readdir("/r", { recursive: true })).length).toBe(2);
      expect(await codeOf(p.rmdir("/a"))).toBe("ENOTEMPTY");
      expect(await codeOf(p.unlink("/a"))).toBe("EISDIR");
      expect(await codeOf(p.truncate("/f", -1))).toBe("EINVAL");
      expect(await codeOf(p.writeFile("/f", "x", { flag: "wx" }))).toBe("EEXIST");
      expect(await codeOf(p.writeFile("/f", "x", { encoding: "latin1" }))).toBe("EINVAL");
      expect(await ws.fs.readFile("/f", "utf8")).toBe("precious");
    } finally {
      await ws.close();
    }
  });

  it("hostile arguments are bounded: EISDIR, EFBIG at 2^40, EINVAL paths; the buffer form honours position", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.mkdir("/d");
      expect(await codeOf(p.open("/d", "w"))).toBe("EISDIR");
      expect((await ws.fs.stat("/d")).isDirectory).toBe(true);
      const big = await p.open("/big", "w");
      expect(await codeOf(big.write(Buffer.from("x"), 0, 1, 2 ** 40))).toBe("EFBIG");
      expect(await codeOf(big.truncate(2 ** 40))).toBe("EFBIG");
      await ws.fs.writeFile("/f", "0123456789");
      expect(await codeOf(p.truncate("/f", 2 ** 40))).toBe("EFBIG");
      expect(await ws.fs.readFile("/f", "utf8")).toBe("0123456789");
      expect(await codeOf(p.stat("relative"))).toBe("EINVAL");
      expect(await codeOf(p.stat("/a\0b"))).toBe("EINVAL");
      const h = await p.open("/f", "r+");
      await h.write(Buffer.from("B"), 0, 1, 9);
      await h.close();
      expect(await ws.fs.readFile("/f", "utf8")).toBe("012345678B");
    } finally {
      await ws.close();
    }
  });
});
