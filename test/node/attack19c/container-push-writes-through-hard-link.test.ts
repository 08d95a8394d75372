/**
 * Issue 20, nineteenth attack run: the daemon confines every path to MOUNT_POINT ("every existing parent directory
 * is resolved with realpath … so a symlink cannot carry an operation out of it", container/lib/paths.mjs), and a
 * final symlink is replaced, never followed. A hard link is not looked at: `apply`'s `write` of a file that fits in
 * one piece opens the path in place (`O_WRONLY | O_TRUNC`), so when the entry is a hard link to a file outside the
 * mount point, the pushed bytes land in that outside file. A file over 1 MiB goes the other way (pieces under a
 * temporary name, renamed into place: the link is replaced and the outside file untouched) — the same push of the
 * same path reaches outside or not by the file's size.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a file outside the mount point holding
 * "outside", hard-linked as `h` inside it (what `ln`, `cp -al`, pnpm's store or `git clone --local` make); `apply`
 * `write` of "pushed" to `h`, as a push of a small Workspace file sends it. (Held: a symlink `s` to the same outside
 * file is replaced by the write and the outside file keeps its text — test/node/container/daemon.test.ts.)
 *
 * Found (low: within one container, whose commands run as the daemon's user; 2 of 2 runs): the write answers `ok`
 * and the file outside the mount point now reads "pushed" — a Workspace edit of `/workspace/h` (a dependency's file
 * patched by the model, a git checkout) rewrites a file elsewhere in the container (a package store shared by other
 * projects, the daemon's own files), and `h` stays a link to it.
 *
 * Suggested fix: write a file whose link count is above 1 the way a large one is written — under a temporary name
 * beside it, renamed into place — or unlink it first (as for a symlink or fifo), so a write never leaves the mount.
 *
 * Fixed: `apply`'s `write` checks the opened handle (no O_TRUNC at the open any more: the file is cut after the write);
 * a file with more than one link is written as a new file beside it (`.ws-sync-link-<16 hex>`, the link's bytes copied
 * first when the write keeps some, its mode and owner kept) and renamed over the link — container/lib/sync.mjs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack19c: a push onto a hard link to a file outside the mount point", () => {
  it("the write replaces the link inside the mount; the outside file keeps its bytes", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only the daemon and its directory are used
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "attack19c-outside-"));
    const target = path.join(outside, "store-file");
    fs.writeFileSync(target, "outside");
    try {
      fs.linkSync(target, path.join(real.dir, "h"));
      const { results } = (await real.daemon.apply({ ops: [{ op: "write", path: "h", data: new TextEncoder().encode("pushed") }] } as never)) as { results: { ok: boolean }[] };
      expect(results.map((r) => r.ok)).toEqual([true]);
      // Found: { inside: "pushed", outside: "pushed", links: 2 }.
      expect({ inside: fs.readFileSync(path.join(real.dir, "h"), "utf8"), outside: fs.readFileSync(target, "utf8"), links: fs.statSync(target).nlink }).toEqual({
        inside: "pushed",
        outside: "outside",
        links: 1,
      });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
      await real.close();
    }
  });

  it("a write at an offset keeps the link's other bytes and mode in the new file; nothing else is left", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only the daemon and its directory are used
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "attack19c-outside-"));
    const target = path.join(outside, "store-file");
    fs.writeFileSync(target, "outside", { mode: 0o640 });
    fs.chmodSync(target, 0o640);
    try {
      fs.linkSync(target, path.join(real.dir, "h"));
      const { results } = (await real.daemon.apply({ ops: [{ op: "write", path: "h", data: "XY", offset: 2 }] } as never)) as { results: { ok: boolean; stat?: { size: number; mode: number } }[] };
      expect(results).toEqual([{ ok: true, stat: expect.objectContaining({ kind: "file", size: 7, mode: 0o640 }) }]);
      expect({
        inside: fs.readFileSync(path.join(real.dir, "h"), "utf8"),
        outside: fs.readFileSync(target, "utf8"),
        links: fs.statSync(target).nlink,
        names: fs.readdirSync(real.dir).filter((n) => n !== ".git").sort(),
      }).toEqual({ inside: "ouXYide", outside: "outside", links: 1, names: ["h"] });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
      await real.close();
    }
  });
});
