/**
 * Issue 20, nineteenth attack run: the daemon's `apply` `write` documents that "a symlink, fifo or socket at `path`
 * is replaced by the file" (container/lib/sync.mjs): it opens `O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK` and
 * replaces the entry on the open's ELOOP (a symlink) or ENXIO (a fifo nobody reads, a socket). A fifo that a process
 * in the container holds open for reading opens at once, though, so nothing replaces it.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`; the Workspace's
 * `/workspace/p` (pushed as a file) is replaced in the container by a fifo (`rm p; mkfifo p`, as a command does),
 * whose read end a process keeps open (the test's own `open(O_RDONLY | O_NONBLOCK)`: a background `cat p` does the
 * same); the Workspace's `p` is then rewritten and the next command pushes it. (Held: with no reader the fifo is
 * replaced by the file — test/node/container/daemon.test.ts; a fifo the pull's scan meets is skipped as "special
 * file"; the write never blocks; nothing is written into the pipe.)
 *
 * Found (low; 2 of 2 runs): the open succeeds on the fifo and the write's `pwrite` fails `ESPIPE`: the daemon answers
 * `{ ok: false, error: { code: "ESPIPE", message: "ESPIPE: invalid seek (p)" } }`, the push lists `/workspace/p` as
 * skipped with that reason (and still counts it in `pushed`), the command sees the fifo (`[ -p p ]`) instead of
 * the Workspace's file — and every later push fails the same way for as long as the reader lives.
 * The same open lets a write onto a character device through: measured as root (`mknod d c 1 3`, a /dev/null — not
 * asserted here, making a device needs CAP_MKNOD), `apply` answers `{ ok: true }` with no `stat`, the device stays and
 * the pushed bytes went into it.
 *
 * Suggested fix: in `applyOne`'s `write`, `fstat` the handle after the open; when it is not a regular file (a fifo
 * with a reader, a device), close it, unlink the entry and open again (as for ELOOP/ENXIO) — or open with
 * `O_NONBLOCK` and check `lstat` first — so the documented replacement holds whoever has the fifo open.
 *
 * Fixed: `apply`'s `write` `fstat`s the opened handle before writing (and opens `O_NOCTTY`, no longer `O_TRUNC`);
 * what is not a regular file (a fifo with a reader, a device) is closed unwritten, unlinked and the file opened
 * again, as for ELOOP/ENXIO — container/lib/sync.mjs.
 */
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack19c: a push onto a fifo a process reads", () => {
  it("the daemon's write replaces the fifo by the file, as documented", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    let reader: number | undefined;
    try {
      const fifo = path.join(real.dir, "p");
      execFileSync("mkfifo", [fifo]);
      reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const { results } = await real.daemon.apply({ ops: [{ op: "write", path: "p", data: new TextEncoder().encode("hello") }] } as never);
      // Found: [{ ok: false, error: { code: "ESPIPE", message: "ESPIPE: invalid seek (p)", syscall: "write", path: "p" } }]; p stays a fifo.
      expect((results as { ok: boolean; error?: { code: string } }[]).map((r) => (r.ok ? "ok" : r.error!.code))).toEqual(["ok"]);
      expect({ fifo: fs.lstatSync(fifo).isFIFO(), text: fs.readFileSync(fifo, "utf8") }).toEqual({ fifo: false, text: "hello" });
    } finally {
      if (reader !== undefined) fs.closeSync(reader);
      await real.close();
    }
  });

  it("a Workspace file pushed onto it reaches the command, not a skipped ESPIPE", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    let reader: number | undefined;
    try {
      await real.ws.fs.writeFile("/workspace/p", "old");
      const made = await (await real.ws.runtime.exec("rm p && mkfifo p", { backend: "box" })).result();
      expect(made.exitCode).toBe(0);
      reader = fs.openSync(path.join(real.dir, "p"), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK); // a background `cat p`
      await real.ws.fs.writeFile("/workspace/p", "hello");
      const result = await (await real.ws.runtime.exec("if [ -p p ]; then echo fifo; else cat p; fi", { backend: "box", encoding: "utf8" })).result();
      // Found: stdout "fifo\n"; result.skipped holds { path: "/workspace/p", reason: "ESPIPE: invalid seek (p)" }.
      expect({ stdout: result.stdout, espipe: result.skipped.filter((s) => s.reason.startsWith("ESPIPE")).length }).toEqual({ stdout: "hello", espipe: 0 });
    } finally {
      if (reader !== undefined) fs.closeSync(reader);
      await real.close();
    }
  });
});
