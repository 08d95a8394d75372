/**
 * Issue 20, nineteenth attack run: a file the container has under a read-only mount of the Workspace (a command wrote
 * `/workspace/ro/…` where the Workspace mounts a WorkerBundle or R2 bucket) is skipped by every pull
 * (`{ op: "write", reason: "read-only" }`, docs/container.md) — but every pull after the first also reads it from the
 * daemon before the Workspace refuses the write: the pull hands `writeFile` a stream of the file (`#download`), a
 * ReadableStream asks for its first piece as soon as it is made, and a file up to READ_AHEAD_MAX_BYTES (256 KiB) is
 * read ahead whole anyway. Nothing is recorded for a skipped entry, so the same bytes cross again on every command.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts, its `read` wrapped to count bytes) under
 * `daemonHandle`; a Workspace with `mounts: { "/workspace/ro": WorkerBundle(dir) }` (read-only, after `ready()`); a
 * command writes 8 files of 512 KiB under `ro/`; then three commands `true`. (Held: nothing is written into the
 * mount — each pull lists the 8 files as skipped "read-only" and `pulled` is 0; the first pull reads nothing.)
 *
 * Found (low; 2 of 2 runs): each later pull reads 4,194,304 bytes (8 reads of 512 KiB) from the container and
 * applies nothing. It scales with what a command leaves there: K files cost up to K × 1 MiB a command (K × 256 KiB
 * for small ones), for ever — e.g. a `pip install` or build output under a read-only mount makes every later
 * command pull megabytes to gigabytes it throws away.
 *
 * Suggested fix: check the Workspace path is writable (the mount guard the write uses) before the entry's first read
 * and before queueing it for read-ahead — as the first pull's parent check already does — and skip it without
 * reading; or remember such skips in the manifest with the container's stat, so an unchanged entry is not read again.
 *
 * Fixed: runtime/sync.ts asks the Workspace's mount guard (what `writeFile` asks) whether a pulled file's path is
 * refused read-only before queueing it for read-ahead and before reading it, and skips it "read-only" unread.
 * The test also writes 4 small files (1 KiB, read ahead before the fix) under `ro/`, and counts the first pull too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace, WorkerBundle } from "../../../src/index.js";
import { daemonHandle } from "../../../src/backends/daemon/handle.js";
import { realDaemonWorkspace, wrapDaemon } from "../attack18c/real-daemon.js";

describe("attack19c: pulls of files under a read-only mount", () => {
  it("a pull reads nothing of a file it skips as read-only", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only its daemon and directory are used
    const bundle = fs.mkdtempSync(path.join(os.tmpdir(), "attack19c-ro-"));
    fs.writeFileSync(path.join(bundle, "README"), "read-only\n");
    let readBytes = 0;
    const daemon = wrapDaemon(real.daemon, {
      read: async (input: never) => {
        const answer = (await real.daemon.read(input)) as { data: Uint8Array };
        readBytes += answer.data.byteLength;
        return answer;
      },
    });
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      mounts: { "/workspace/ro": WorkerBundle(bundle) },
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.ready();
    try {
      const made = await (
        await ws.runtime.exec("mkdir -p ro && for i in 1 2 3 4 5 6 7 8; do head -c 524288 /dev/zero > ro/f$i; done; for i in 1 2 3 4; do head -c 1024 /dev/zero > ro/s$i; done", { backend: "box" })
      ).result();
      expect({ code: made.exitCode, read: readBytes, readOnly: made.skipped.filter((s) => s.reason === "read-only").map((s) => s.path).sort() }).toEqual({
        code: 0,
        read: 0,
        readOnly: [...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `/workspace/ro/f${i}`), ...[1, 2, 3, 4].map((i) => `/workspace/ro/s${i}`)],
      });
      const perPull: { read: number; pulled: number; readOnly: number }[] = [];
      for (let i = 0; i < 3; i++) {
        readBytes = 0;
        const result = await (await ws.runtime.exec("true", { backend: "box" })).result();
        perPull.push({ read: readBytes, pulled: result.pulled, readOnly: result.skipped.filter((s) => s.reason === "read-only").length });
      }
      // Held: nothing applied, 8 skipped "read-only" each time. Found: read 4,194,304 bytes on each pull.
      expect(perPull).toEqual(Array.from({ length: 3 }, () => ({ read: 0, pulled: 0, readOnly: 12 })));
    } finally {
      await ws.close();
      await real.close();
      fs.rmSync(bundle, { recursive: true, force: true });
    }
  });
});
