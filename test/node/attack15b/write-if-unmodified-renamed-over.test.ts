/**
 * Issue 20, fifteenth attack run: `writeFile` `ifUnmodified: { size, mtime }` (new in b849421) overwrites a
 * DIFFERENT file renamed over the path since the stat.
 * Tried: ifUnmodified after a same-size rewrite in the same millisecond (Held: setContent moves mtime to old + 1,
 * ESTALE), after chmod (Held: not a content change; setMode never moves mtime back), against a missing file
 * (Held: ENOENT), with bad shapes (Held: TypeError), and after the atomic-save pattern of another writer —
 * write a temporary file of the same size, rename it over the path (or rm + write a new file: same cause).
 * Found (low-medium; docs/filesystem.md "a change by anyone in between is never overwritten", src/fs/types.ts
 * TSDoc): rename keeps the moved file's own size and mtime, and a file written in the same millisecond (always,
 * on Workers, whose clock stands still between I/O; here `now: () => 1000`; 23 of 50 times with Date.now on
 * Node) has the same size and mtime as the old one, so the pre-check passes; the pin then takes the NEW file's
 * inode and revision, so the commit check passes too and the other writer's content ("BBBBB") is lost.
 * `ifMatch` refuses the same write (the content differs); `ifInode` would too.
 * Suggested fix: make the version include the inode (`ifUnmodified: { ino, size, mtime }` as stat gives them,
 * or check the inode stat gave), so a file renamed over the path is a change.
 * Fixed: `ifUnmodified` is `{ inode, size, mtime }` as stat gives them (all three required; a stat result may be
 * passed whole), the inode checked with size and mtime before the content is read (then the revision at commit):
 * a file renamed over the path, or written after a removal, is ESTALE; `{ size, mtime }` alone is a TypeError.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

describe("attack15b: ifUnmodified and a file renamed over the path", () => {
  it("a same-size file renamed over the path since the stat is a change: ESTALE, its content kept", async () => {
    const fs = new Workspace({ storage: nodeSqliteStorage(), now: () => 1000 }).fs;
    await fs.writeFile("/a.txt", "AAAAA");
    const seen = await fs.stat("/a.txt");
    // Another writer saves atomically: a temporary file, renamed over the path.
    await fs.writeFile("/a.txt.tmp", "BBBBB");
    await fs.rename("/a.txt.tmp", "/a.txt");
    const now = await fs.stat("/a.txt");
    expect([now.size, now.mtime, now.inode === seen.inode]).toEqual([5, 1000, false]);
    const refusal = "ESTALE: the file changed, or another file was put at the path, since the inode, size and mtime of ifUnmodified were read; the file was not changed, writeFile: /a.txt";
    await expect(fs.writeFile("/a.txt", "CCCCC", { ifUnmodified: { inode: seen.inode, size: seen.size, mtime: seen.mtime } })).rejects.toMatchObject({ code: "ESTALE", message: refusal });
    // The stat result itself is a version too.
    await expect(fs.writeFile("/a.txt", "CCCCC", { ifUnmodified: seen })).rejects.toMatchObject({ code: "ESTALE", message: refusal });
    expect(await text(fs, "/a.txt")).toBe("BBBBB");
    // Removed and written again: another inode, the same size and mtime — a change too.
    const second = await fs.stat("/a.txt");
    await fs.rm("/a.txt");
    await fs.writeFile("/a.txt", "DDDDD");
    expect((await fs.stat("/a.txt")).mtime).toBe(second.mtime);
    await expect(fs.writeFile("/a.txt", "CCCCC", { ifUnmodified: second })).rejects.toMatchObject({ code: "ESTALE", message: refusal });
    expect(await text(fs, "/a.txt")).toBe("DDDDD");
    // The file as it is now: written.
    await fs.writeFile("/a.txt", "EEEEEE", { ifUnmodified: await fs.stat("/a.txt") });
    expect(await text(fs, "/a.txt")).toBe("EEEEEE");
  });

  it("ifUnmodified without the inode is refused before anything is written", async () => {
    const fs = new Workspace({ storage: nodeSqliteStorage(), now: () => 1000 }).fs;
    await fs.writeFile("/a.txt", "AAAAA");
    const seen = await fs.stat("/a.txt");
    await expect(fs.writeFile("/a.txt", "CCCCC", { ifUnmodified: { size: seen.size, mtime: seen.mtime } as never })).rejects.toThrow(
      new TypeError("writeFile: options.ifUnmodified must be { inode, size, mtime } as stat() gives them (an inode number, a non-negative integer and a finite number of ms; pass the stat result itself)"),
    );
    expect(await text(fs, "/a.txt")).toBe("AAAAA");
  });
});

async function text(fs: Workspace["fs"], path: string): Promise<string> {
  return new Response(await fs.readFile(path)).text();
}
