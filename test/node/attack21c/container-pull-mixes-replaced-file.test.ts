/**
 * Issue 20, twenty-first attack run: docs/container.md (Sync 3) — "files streamed in 1 MiB reads, each written in one
 * transaction: no partial file, ever". A file over 1 MiB is pulled as several `read`s of the same path (src/runtime/
 * sync.ts `#download`), and the daemon opens the path anew for each (container/lib/sync.mjs `read`); nothing ties the
 * pieces to one file — the answer's `size`/`mtimeMs` are not compared with the scan's entry, and no inode or ctime is
 * carried. So a file replaced between two reads (an atomic save: write a temporary, rename it over — editors, npm,
 * bundlers, `cp` + `mv`; a live run beside the command, or the command's own background job) lands in the Workspace
 * as the old file's first piece followed by the new file's rest: bytes that were never a file in the container.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) wrapped (`wrapDaemon`) so that, right after
 * the first read of `bundle.js` is answered, a new version is renamed over it (what a watcher's atomic save does
 * between two of the pull's reads; made deterministic here). 3 MiB of "A" replaced by 3 MiB of "B".
 * Held: the next pull repairs it (the new file's ctime differs from the recorded scan entry); a file that grows during
 * the pull lands at most one piece longer (documented); a file that shrinks ends at its new end.
 *
 * Found (low-medium; 3 of 3 runs): /workspace/bundle.js holds 1,048,576 "A" then 2,097,152 "B" — neither version — and
 * the pull reports it applied (`sync.applied` 1, nothing skipped). A tool, the model or git reads a torn file until
 * some later command's pull happens to copy it again.
 *
 * Suggested fix: tie a file's reads together — the daemon's `read` answers the opened file's dev/ino/ctime (or takes
 * the scan's `ctimeMs`/`size` and refuses ESTALE/EAGAIN when the opened file differs), and `#download` errors the
 * stream when a later piece comes from another file (the entry skipped as changed; the next pull copies it whole).
 *
 * Fixed: the daemon's `read` (container/lib/sync.mjs) answers the opened file's `dev`, `ino` and `ctimeMs` beside
 * `size`/`mtimeMs`; the pull's `#download` (src/runtime/sync.ts) errors the stream `EAGAIN` when a later piece comes
 * from another file or from the file changed since the first piece, and the pull copies it again from its start (up to
 * 2 more times; then it is skipped, `"EAGAIN: the file changed in the container while it was copied …"`, the Workspace
 * keeping what it had). Here: the new version, whole. Siblings: test/node/fix21/container-pull-file-changed-while-read.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

const MiB = 1024 * 1024;

describe("attack21c: a container file replaced between two reads of one pull", () => {
  it("lands as one version of the file, never pieces of both", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // a Workspace over the wrapped daemon instead
    const file = path.join(real.dir, "bundle.js");
    fs.writeFileSync(file, Buffer.alloc(3 * MiB, "A"));
    let replaced = false;
    const daemon = wrapDaemon(real.daemon, {
      read: async (input: never) => {
        const answer = await (real.daemon as unknown as { read(i: unknown): Promise<unknown> }).read(input);
        if (!replaced && (input as { path: string }).path === "bundle.js") {
          replaced = true;
          fs.writeFileSync(`${file}.tmp`, Buffer.alloc(3 * MiB, "B"));
          fs.renameSync(`${file}.tmp`, file);
        }
        return answer;
      },
    });
    const ws = await workspaceOver(daemon);
    try {
      const result = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect(result.exitCode).toBe(0);
      expect(replaced).toBe(true);
      const text = await ws.fs.readFile("/workspace/bundle.js", "utf8");
      const counts = { A: text.split("A").length - 1, B: text.split("B").length - 1 };
      // Found: { A: 1048576, B: 2097152 } (sync.applied 1, skipped []).
      expect([{ A: 3 * MiB, B: 0 }, { A: 0, B: 3 * MiB }]).toContainEqual(counts);
      // The piece from the new file was refused (another inode), and the file copied again from its start: the new version.
      expect(counts).toEqual({ A: 0, B: 3 * MiB });
      expect(result.sync).toEqual({ status: "complete", applied: 1, skipped: [] });
    } finally {
      await ws.close();
      fs.rmSync(real.dir, { recursive: true, force: true });
    }
  });
});
