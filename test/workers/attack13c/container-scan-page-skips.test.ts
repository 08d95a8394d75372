/**
 * Issue 20, thirteenth attack run: skipped entries are outside the daemon's scan-page budget, so one tree
 * stops every later pull for good.
 *
 * Tried: a command on the container backend (real local computerd, TestBackend "box") that makes 10,000
 * fifos in a directory 18 levels deep (each level a 200-character name, so each fifo's path is ~3.6 KB),
 * then a second and a third command that each write a small file.
 *
 * Found (medium): container/lib/sync.mjs `scan` ends a page at 5,000 entries, 512 KiB of paths
 * (SCAN_MAX_BYTES) or 50,000 visits — but a special file (fifo, socket, device) or a name that is not UTF-8
 * goes into the page's `skipped` list without adding to `bytes` (and a non-UTF-8 name not even to
 * `visits`). Here one page carries 10,000 skipped paths, ~37 MB: the daemon's answer is over the WebSocket
 * message limit and the connection drops. Every pull walks the same page first, so from then on every
 * command's pull fails (`sync: { status: "pending", error: "WebSocket connection failed." }`) and nothing
 * the container makes reaches the Workspace again — here `later.txt` of the next command — until someone
 * removes the fifos by hand. A tree of ~150,000 files with Latin-1 names (an old archive extracted) does
 * the same without any depth. Reproduction:
 *
 *   D=<18 nested 200-character names>; mkdir -p $D && cd $D && seq 1 10000 | sed 's/^/f/' | xargs mkfifo
 *   then: echo ok > later.txt        // result.sync.status "pending", /workspace/later.txt ENOENT, forever
 *
 * Suggested fix: in `scan`, add each skipped entry's path bytes to `bytes` and count it as a visit (encoding
 * skips included), so a page always ends near SCAN_MAX_BYTES.
 *
 * Fixed: `scan` weighs each skipped entry (its path bytes, one visit) in the page budget as a returned one,
 * so every page ends near SCAN_MAX_BYTES (512 KiB) whatever it skips (test/node/container/scan-page-skips).
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

const D = Array.from({ length: 18 }, (_, i) => `${i}`.padEnd(200, "d")).join("/");

describe("attack13c: a scan page full of skipped entries", () => {
  it("after 10,000 deep fifos, the next command's file still reaches the Workspace", { timeout: 120_000 }, async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r1 = await sh(ws, `mkdir -p ${D} && cd ${D} && seq 1 10000 | sed 's/^/f/' | xargs mkfifo && echo made`);
      expect(r1).toMatchObject({ exitCode: 0, stdout: "made\n" });
      const r2 = await sh(ws, "echo ok > later.txt");
      expect(r2.exitCode).toBe(0);
      expect({
        status: r2.sync.status,
        skipped: r2.sync.skipped.length,
        first: r2.sync.skipped[0],
        later: await ws.fs.readFile("/workspace/later.txt", "utf8").catch((e: { code?: string }) => e.code),
      }).toEqual({
        status: "complete",
        // Capped at MAX_SYNC_SKIPPED_CHARS (512 Ki characters) of these long paths, the last entry counting the rest (sixteenth run).
        skipped: 141,
        first: { path: `/workspace/${D}/f1`, op: "write", reason: "special file (fifo, socket or device)" },
        later: "ok\n",
      });
    });
  });
});
