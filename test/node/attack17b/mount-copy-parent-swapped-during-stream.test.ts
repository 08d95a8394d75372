/**
 * Issue 20, seventeenth attack run: the fix of attack16b mount-copy-follows-link-planted-in-root (8740aef,
 * src/mounts/write-api.ts) checks the mount root's directories with lstat BEFORE it calls `fs.writeFile`, but a
 * streamed write resolves its parent directories again only at its commit, after the whole stream was read —
 * a link swapped in for a parent while the file's bytes arrive is followed.
 * Tried: a read-only mount at /m whose `materialize` writes `docs/a.md`, then `docs/big.bin` as a ReadableStream
 * of two 512 KiB pieces (an R2 object body or a bundle's module: the bytes come from the network); while the
 * second piece is on its way another writer of the Workspace (a tool call, a JavaScript run, the shell — /m is
 * writable while it is copied) runs `rm -r /m/docs` and `ln -s /victim /m/docs`. Also tried: a file already
 * at /victim/big.bin (Held: the run fails 'mount /m: EEXIST: file already exists, writeFile: /m/docs/big.bin', the
 * file keeps its bytes). The swap before the write starts is attack16b (c) (Held there).
 * Found (medium; docs/filesystem.md "Materialisation": the write API refuses paths outside the root and never
 * follows a link it did not make): `ready()` resolves, /victim/big.bin — outside the mount, a file the mount never
 * names — is created with the mount's 1 MiB, and the finished read-only mount keeps /m/docs as a link to the
 * writable /victim (3 of 3 runs). The same window exists for a small file between the lstat chain and the
 * write's transaction (the SHA-256 await), narrower.
 * Suggested fix: make the check part of the write — a `writeFile` option (e.g. `noFollow: true` / `under: root`)
 * that the commit's resolve applies (no link among the parents, checked inside the transaction), or pin the
 * parent directory's inode (an `ifParentInode` checked at commit, as ifInode is for the entry).
 * Fixed: the mount write API's `writeFile` and its directory() helper's `mkdir` pass the Workspace's internal
 * `NO_FOLLOW` option (src/fs/options.ts): the call's own walk of the path follows no link — in `writeFile`'s commit
 * transaction too, after the stream was read — so the swapped-in /m/docs fails the write `ENOTDIR`, reported as
 * 'mount /m: "/m/docs" is a symbolic link placed while the mount was being copied; …'; the run fails and clears /m.
 */
import { describe, expect, it } from "vitest";
import { NO_FOLLOW, type NoFollowOption } from "../../../src/fs/options.js";
import type { MkdirOptions, WriteFileOptions } from "../../../src/fs/types.js";
import { Workspace, nodeSqliteStorage, type Mount } from "../../../src/index.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const PIECE = 512 * 1024;

describe("attack17b: a mount root's directory swapped for a link while a streamed file is copied", () => {
  it("the streamed write does not land outside the root, and the finished mount holds no link", { timeout: 30_000 }, async () => {
    const storage = nodeSqliteStorage(":memory:");
    const midStream = gate();
    const resume = gate();
    const mount: Mount = {
      kind: "fixtures",
      strategy: "eager",
      mode: "read-only",
      version: "v1",
      async materialize(api) {
        await api.writeFile(`${api.root}/docs/a.md`, new Blob(["a\n"]).stream());
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (sent === 1) {
              midStream.open();
              await resume.opened;
            }
            if (sent === 2) return controller.close();
            sent++;
            controller.enqueue(new Uint8Array(PIECE).fill(0x61 + sent));
          },
        });
        await api.writeFile(`${api.root}/docs/big.bin`, body);
      },
    };
    const ws = new Workspace({ storage, mounts: { "/m": mount } });
    try {
      await ws.fs.mkdir("/victim");
      const ready = ws.ready().then(
        () => "ready",
        (error: Error) => error.message,
      );
      await midStream.opened;
      await ws.fs.rm("/m/docs", { recursive: true });
      await ws.fs.symlink("/victim", "/m/docs");
      resume.open();
      const outcome = await ready;
      // Correct: nothing outside /m was written, and /m holds no link (the run failed and cleared it, or the copy refused the link).
      expect({
        outcome: outcome === "ready" ? "ready" : "failed",
        victim: (await ws.fs.readdir("/victim")).map((e) => e.name),
        docsIsLink: (await ws.fs.lstat("/m/docs").catch(() => undefined))?.isSymbolicLink ?? false,
      }).toEqual({ outcome: "failed", victim: [], docsIsLink: false });
      expect(outcome).toBe(
        'mount /m: "/m/docs" is a symbolic link placed while the mount was being copied; the copy never follows a link it did not make (the run fails and clears the root; call ready() again)',
      );
      expect(await ws.fs.readdir("/m")).toEqual([]);
    } finally {
      storage.close();
    }
  });

  // The mechanism the write API relies on (its directory() helper's mkdir has the same window as a small write's hash):
  // with NO_FOLLOW the call's own walk refuses a link anywhere in the path, and nothing is created where it leads.
  it("writeFile and mkdir with NO_FOLLOW follow no link among the parents or at the path", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    try {
      await ws.fs.mkdir("/victim");
      await ws.fs.writeFile("/victim/f", "old");
      await ws.fs.mkdir("/m");
      await ws.fs.symlink("/victim", "/m/docs");
      await ws.fs.symlink("/victim/f", "/m/f");
      const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);
      const noFollow: WriteFileOptions & NoFollowOption = { mode: 0o644, [NO_FOLLOW]: true };
      const noFollowDir: MkdirOptions & NoFollowOption = { mode: 0o755, [NO_FOLLOW]: true };
      const big = () => new Blob([new Uint8Array(2 * 512 * 1024 + 1)]).stream();
      expect({
        mkdir: await code(ws.fs.mkdir("/m/docs/sub", noFollowDir)),
        mkdirP: await code(ws.fs.mkdir("/m/docs/sub/deeper", { recursive: true, ...noFollowDir })),
        small: await code(ws.fs.writeFile("/m/docs/new.md", "x", noFollow)),
        streamed: await code(ws.fs.writeFile("/m/docs/big.bin", big(), noFollow)),
        exclusive: await code(ws.fs.writeFile("/m/docs/x", "x", { exclusive: true, ...noFollow })),
        atLink: await code(ws.fs.writeFile("/m/f", "new", noFollow)),
        atLinkExclusive: await code(ws.fs.writeFile("/m/f", "new", { exclusive: true, ...noFollow })),
      }).toEqual({ mkdir: "ENOTDIR", mkdirP: "ENOTDIR", small: "ENOTDIR", streamed: "ENOTDIR", exclusive: "ENOTDIR", atLink: "ELOOP", atLinkExclusive: "EEXIST" });
      expect((await ws.fs.readdir("/victim")).map((e) => e.name)).toEqual(["f"]);
      expect(await ws.fs.readFile("/victim/f", "utf8")).toBe("old");
      // Without links in the way the option changes nothing.
      await ws.fs.mkdir("/m/real/sub", { recursive: true, ...noFollowDir });
      await ws.fs.writeFile("/m/real/sub/a.md", "a", noFollow);
      await ws.fs.writeFile("/m/real/sub/b.bin", big(), noFollow);
      expect((await ws.fs.readdir("/m/real/sub")).map((e) => e.name)).toEqual(["a.md", "b.bin"]);
      expect((await ws.fs.stat("/m/real/sub/b.bin")).size).toBe(2 * 512 * 1024 + 1);
    } finally {
      storage.close();
    }
  });
});
