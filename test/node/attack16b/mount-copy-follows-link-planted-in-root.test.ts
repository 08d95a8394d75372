/**
 * Issue 20, sixteenth attack run: a mount's copy (src/mounts/write-api.ts `mountWriteAPI`) follows a symbolic
 * link another writer puts into the mount root while the copy runs — the mount's files are written OUTSIDE its
 * root, over files there, and the finished read-only mount keeps a link to a writable file.
 * Tried: a read-only mount at /m (a `Mount` whose `materialize` awaits its source between writes, as R2Bucket
 * awaits list/get and WorkerBundle its loader), and, while `ready()` is copying it, another writer of the same
 * Workspace (a tool call, a JavaScript run, the shell) placing in /m: (a) a directory link `docs → /victim`
 * before the mount's `api.mkdir("/m/docs")` — Held: mkdir refuses it (EEXIST), the run fails and clears /m;
 * (b) a file link `readme.md → /victim/readme.md` before `api.writeFile("/m/readme.md")`; (c) `rm -r /m/docs`
 * then a link `docs → /victim` after the mount wrote `/m/docs/a.md` and before it writes `/m/docs/readme.md`
 * (the write API creates a parent once per run, then trusts it). Also Held: after the run, a write to
 * /m/readme.md itself is EROFS; in (a) the failed run removed the link, not /victim.
 * Found (medium; docs/filesystem.md "Materialisation": `api.writeFile` / `api.mkdir` "both refuse paths outside
 * the root"; only the lexical path is checked): in (b) and (c) `ready()` resolves, /victim/readme.md — a file
 * outside the mount that the mount never names — now holds the mount's bytes ("the user's own file" is lost),
 * and /m/readme.md (b) or /m/docs (c) stays a link in the completed read-only mount, so what the mount serves
 * changes whenever /victim/readme.md is written (a write there is not EROFS): read-only data that is not.
 * 2 of 2 cases, 3 of 3 runs each. "Files written into the root while the run is copying stay in the finished
 * copy" is documented; writing through them out of the root is not.
 * Suggested fix: the write API must not follow links it did not make: write each file `exclusive` (an entry
 * already at the path — placed by someone else after the clear — fails the run with a message naming it, or is
 * removed, not followed), and before writing into a parent it made, check that the parent still resolves to
 * the directory it created (lstat chain / inode kept in `made`) — or, simpler, have the guard refuse every
 * mutation under a root being copied except the run's own (EROFS "… is being copied in").
 * Fixed: src/mounts/write-api.ts — before each write the API checks, with lstat, the entry at the path and every
 * directory from the root down to its parent (a missing one is created); a link among them fails the call (so the run
 * fails and clears the root: the link goes, its target stays); a new file is created `exclusive`, a file already there
 * is written only while the path still leads to it (`ifInode`). (b) and (c) pass as `it` with the exact rejection; the
 * former "today" case now proves the run fails, the next ready() copies, and the finished copy is read-only data; (d)
 * shows a plain file another writer put there is still overwritten in place (unchanged behaviour).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type Mount } from "../../../src/index.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A read-only mount at /m that awaits `between` before each write, opening `reached` first. */
function slowMount(writes: string[], reached: ReturnType<typeof gate>[], between: ReturnType<typeof gate>[]): Mount {
  return {
    kind: "fixtures",
    strategy: "eager",
    mode: "read-only",
    version: "v1",
    async materialize(api) {
      for (const [i, path] of writes.entries()) {
        reached[i].open();
        await between[i].opened;
        await api.writeFile(`${api.root}/${path}`, new Blob([`mount content of ${path}\n`]).stream());
      }
    },
  };
}

async function setup(writes: string[]) {
  const storage = nodeSqliteStorage(":memory:");
  const reached = writes.map(gate);
  const between = writes.map(gate);
  const ws = new Workspace({ storage, mounts: { "/m": slowMount(writes, reached, between) } });
  await ws.fs.mkdir("/victim");
  await ws.fs.writeFile("/victim/readme.md", "the user's own file\n");
  const ready = ws.ready().then(
    () => "ready",
    (error: Error) => error.message,
  );
  return { ws, storage, reached, between, ready };
}

describe("attack16b: a link placed in a mount root while it is copied", () => {
  it("(b) a file link: the mount's write does not land outside the root", async () => {
    const { ws, storage, reached, between, ready } = await setup(["readme.md"]);
    try {
      await reached[0].opened;
      await ws.fs.symlink("/victim/readme.md", "/m/readme.md");
      between[0].open();
      expect(await ready).toBe(`mount /m: "/m/readme.md" is a symbolic link placed while the mount was being copied; the copy never follows a link it did not make (the run fails and clears the root; call ready() again)`);
      // Before the fix: "mount content of readme.md\n", and /m/readme.md is a link to it.
      expect(await ws.fs.readFile("/victim/readme.md", "utf8")).toBe("the user's own file\n");
      expect((await ws.fs.lstat("/m/readme.md").catch(() => undefined))?.isSymbolicLink ?? false).toBe(false);
    } finally {
      storage.close();
    }
  });

  it("(c) a directory the copy made, swapped for a link: the mount's next write does not land outside the root", async () => {
    const { ws, storage, reached, between, ready } = await setup(["docs/a.md", "docs/readme.md"]);
    try {
      between[0].open();
      await reached[1].opened;
      expect(await ws.fs.readFile("/m/docs/a.md", "utf8")).toBe("mount content of docs/a.md\n");
      await ws.fs.rm("/m/docs", { recursive: true });
      await ws.fs.symlink("/victim", "/m/docs");
      between[1].open();
      expect(await ready).toBe(`mount /m: "/m/docs" is a symbolic link placed while the mount was being copied; the copy never follows a link it did not make (the run fails and clears the root; call ready() again)`);
      // Before the fix: "mount content of docs/readme.md\n", and /m/docs is a link to /victim.
      expect(await ws.fs.readFile("/victim/readme.md", "utf8")).toBe("the user's own file\n");
      expect((await ws.fs.lstat("/m/docs").catch(() => undefined))?.isSymbolicLink ?? false).toBe(false);
    } finally {
      storage.close();
    }
  });

  it("(b) the run fails, its root is cleared (the link, not its target), and the next ready() copies read-only data", async () => {
    // Before the fix ("today"): ready() resolved and the read-only /m/readme.md kept serving /victim/readme.md, which
    // anyone could change.
    const { ws, storage, reached, between, ready } = await setup(["readme.md"]);
    try {
      await reached[0].opened;
      await ws.fs.symlink("/victim/readme.md", "/m/readme.md");
      between[0].open();
      expect(await ready).toBe(`mount /m: "/m/readme.md" is a symbolic link placed while the mount was being copied; the copy never follows a link it did not make (the run fails and clears the root; call ready() again)`);
      expect(await ws.fs.readdir("/m")).toEqual([]);
      expect(await ws.fs.readFile("/victim/readme.md", "utf8")).toBe("the user's own file\n");
      await ws.ready();
      expect((await ws.fs.lstat("/m/readme.md")).isSymbolicLink).toBe(false);
      await expect(ws.fs.writeFile("/m/readme.md", "x")).rejects.toMatchObject({ code: "EROFS" });
      await ws.fs.writeFile("/victim/readme.md", "changed later\n");
      expect(await ws.fs.readFile("/m/readme.md", "utf8")).toBe("mount content of readme.md\n");
    } finally {
      storage.close();
    }
  });

  it("(d) a plain file another writer put at the path is overwritten in place, as before", async () => {
    const { ws, storage, reached, between, ready } = await setup(["readme.md"]);
    try {
      await reached[0].opened;
      await ws.fs.writeFile("/m/readme.md", "placed meanwhile\n");
      const placed = (await ws.fs.lstat("/m/readme.md")).inode;
      between[0].open();
      expect(await ready).toBe("ready");
      expect(await ws.fs.readFile("/m/readme.md", "utf8")).toBe("mount content of readme.md\n");
      expect((await ws.fs.lstat("/m/readme.md")).inode).toBe(placed);
      expect(await ws.fs.readFile("/victim/readme.md", "utf8")).toBe("the user's own file\n");
    } finally {
      storage.close();
    }
  });
});
