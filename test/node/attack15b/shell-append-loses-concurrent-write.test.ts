/**
 * Issue 20, fifteenth attack run: the shell's `>>` (WorkspaceFsAdapter.appendFile — also what the Workers shell's
 * host runs for every append, src/backends/worker-shell/backend.ts `appendBytes`) loses a write made to the file
 * by anyone else while the append runs.
 * Tried: `appendFile("/f", "APP\n")` on a WorkspaceFsAdapter over `workspace.fs`, and `workspace.fs.writeFile("/f",
 * "EDITED\n")` (the write/edit tools, the JavaScript backend, the host) issued at once or after 1–29 macrotasks;
 * a 10-byte file and a 3 MB one. Held for the 10-byte file after the first tick (the append's read and write
 * finish before the other write starts). For the 3 MB file, 24 of 30 interleavings (and 3 of 3 at once, below).
 * Found (medium, data loss): appendFile streams the old content into a new writeFile with no condition — no
 * ifUnmodified / ifInode as the provider's streamed append got in b849421 (attack14b) — so a write that commits
 * while the old content is being copied is overwritten by old + "APP\n": both calls resolve, "EDITED" is gone.
 * The host's per-path append queue orders appends only among themselves. Severity low-medium: on Node (the
 * adapter is exported for just-bash over any Workspace) it is hit easily; in real workerd a host write issued
 * 0–300 ms into `echo APP >> /workspace/big` (3 MB and 30 MB) always landed after the append (10 of 10
 * delays: the append's steps did not yield to the host's timers), so the Workers shell was not caught.
 * Suggested fix: bind the rewrite to the file read (`ifInode` + `ifUnmodified: { size, mtime }` from the stat, as
 * the provider's #appendBytes does) and retry on ESTALE, so the append lands after the other write.
 * Fixed: appendFile rewrites through src/fs/append.ts `appendStreamed` (shared with the provider's streamed
 * append): `ifUnmodified: { inode, size, mtime }` from its stat, the revision at commit; on ESTALE (or EEXIST
 * for a file created meanwhile) it stats again and appends after the other write, at most APPEND_ATTEMPTS (10)
 * tries, then ESTALE with nothing appended. A missing file is created exclusively.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkspaceFsAdapter, type WorkspaceFs } from "../../../src/backends/worker-shell/index.js";

/** `ws.fs`'s methods the adapter calls, bound, with some replaced (a stand-in for another writer around the real filesystem). */
function around(ws: Workspace, replaced: Partial<WorkspaceFs>): WorkspaceFs {
  const names = ["readFile", "writeFile", "stat", "lstat", "readdir", "mkdir", "rm", "rename", "symlink", "readlink", "chmod"] as const;
  const bound = Object.fromEntries(names.map((name) => [name, (ws.fs[name] as (...args: unknown[]) => unknown).bind(ws.fs)]));
  return { ...bound, ...replaced } as WorkspaceFs;
}

async function text(ws: Workspace, path: string): Promise<string> {
  return new Response(await ws.fs.readFile(path)).text();
}

describe("attack15b: shell append and a concurrent write", () => {
  it("a write made while `>>` copies a 3 MB file is kept (the append lands after it)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.fs.writeFile("/f", "o".repeat(3_000_000));
    const append = new WorkspaceFsAdapter(ws.fs).appendFile("/f", "APP\n");
    const write = ws.fs.writeFile("/f", "EDITED\n");
    await Promise.all([append, write]);
    // The write commits while the old content is copied: the copy's commit is refused, and the append is made again after it.
    expect(await text(ws, "/f")).toBe("EDITED\nAPP\n");
  });

  it("after 0–29 macrotasks: either order, never a lost write", async () => {
    const outcomes = new Set<string>();
    for (let delay = 0; delay < 30; delay++) {
      const ws = new Workspace({ storage: nodeSqliteStorage() });
      await ws.fs.writeFile("/f", "o".repeat(3_000_000));
      const append = new WorkspaceFsAdapter(ws.fs).appendFile("/f", "APP\n");
      const write = (async () => {
        for (let tick = 0; tick < delay; tick++) await new Promise((resolve) => setTimeout(resolve, 0));
        await ws.fs.writeFile("/f", "EDITED\n");
      })();
      await Promise.all([append, write]);
      const now = await text(ws, "/f");
      // The append after the write, or the write after the append (which replaces everything): nothing else.
      expect(["EDITED\nAPP\n", "EDITED\n"]).toContain(now);
      outcomes.add(now);
    }
    expect(outcomes.has("EDITED\nAPP\n")).toBe(true);
  });

  it("a file created while `>>` finds it missing is appended to, not replaced", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    // A stand-in around the real filesystem: another writer creates /new right after the append's stat.
    const racing = around(ws, {
      stat: async (path) => {
        try {
          return await ws.fs.stat(path);
        } finally {
          await ws.fs.writeFile("/new", "FIRST\n", { exclusive: true }).catch(() => {});
        }
      },
    });
    await new WorkspaceFsAdapter(racing).appendFile("/new", "APP\n");
    expect(await text(ws, "/new")).toBe("FIRST\nAPP\n");
  });

  it("`>>` through a dangling link still creates the link's target", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.fs.symlink("nowhere", "/l");
    await new WorkspaceFsAdapter(ws.fs).appendFile("/l", "APP\n");
    expect([await text(ws, "/nowhere"), (await ws.fs.lstat("/l")).isSymbolicLink]).toEqual(["APP\n", true]);
  });

  // Scout after the fifteenth run: the dangling link's target was written without the exclusive flag, so a
  // target created meanwhile was replaced ("x" instead of "DATAx").
  it("`>>` through a dangling link appends to a target created meanwhile (never replaces it)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.fs.mkdir("/real/sub", { recursive: true });
    await ws.fs.symlink("/real/sub", "/d"); // the link below sits in /d, really /real/sub
    await ws.fs.symlink("../target", "/real/sub/l"); // /d/l, read from /real/sub: /real/target
    await Promise.all([ws.fs.writeFile("/real/target", "DATA"), new WorkspaceFsAdapter(ws.fs).appendFile("/d/l", "x")]);
    expect(await text(ws, "/real/target")).toBe("DATAx");
    const loop = new Workspace({ storage: nodeSqliteStorage() });
    await loop.fs.symlink("/b", "/a");
    await loop.fs.symlink("/a", "/b");
    await expect(new WorkspaceFsAdapter(loop.fs).appendFile("/a", "x")).rejects.toMatchObject({ code: "ELOOP" });
    await loop.fs.symlink("/dir/", "/s");
    await expect(new WorkspaceFsAdapter(loop.fs).appendFile("/s", "x")).rejects.toMatchObject({ code: "EISDIR" });
  });

  it("a file changed during every try: ESTALE after 10 tries, nothing appended, the last write kept", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.fs.writeFile("/f", "start\n");
    let writes = 0;
    // A stand-in around the real filesystem: another writer rewrites /f each time the append opens its content.
    const busy = around(ws, {
      readFile: (async (path: string) => {
        const stream = await ws.fs.readFile(path);
        await ws.fs.writeFile("/f", `other ${++writes}\n`);
        return stream;
      }) as WorkspaceFs["readFile"],
    });
    await expect(new WorkspaceFsAdapter(busy).appendFile("/f", "APP\n")).rejects.toMatchObject({
      code: "ESTALE",
      syscall: "append",
      path: "/f",
      message: "ESTALE: stale file handle, append '/f'",
    });
    expect([writes, await text(ws, "/f")]).toEqual([10, "other 10\n"]);
  });
});
