/**
 * Issue 20, twenty-second attack run: an entry the container refused once (a transient error) is never pushed again —
 * the container keeps running the old file while the Workspace holds the new one.
 *
 * `RemoteSync.#pushEntries` (src/runtime/sync.ts) answers any refused op with a `skipped` entry and the push moves its
 * change-log cursor past it; the manifest keeps the old row, whose stat the container still matches, so the pull finds
 * nothing either. docs/container.md says a refusal is reported "once" — right for what the container can never hold (a
 * name over 255 bytes), wrong for a refusal that passes: ETXTBSY (the file is an executable a live run is running),
 * ENOSPC (the disk was full for a moment), EBUSY, EAGAIN. From then on the two sides differ for good, with no error,
 * until someone happens to write that file in the Workspace again.
 *
 * Tried: the real daemon in process (`Computerd`, attack18c/real-daemon.ts). /workspace/srv is a copy of /bin/sleep
 * (0755), pushed; a live run executes `./srv 2`; meanwhile the Workspace replaces srv by /bin/true's bytes and runs
 * `true` (its push — after pulling first, as a live run is there — writes srv: ETXTBSY). After the live run ends, two
 * more commands run `cmp -s srv /bin/true && echo new || echo old`.
 * Held: the refusal is reported: `skipped` [{ path: "/workspace/srv", reason: 'ETXTBSY: text file is busy (srv)' }]; the
 * Workspace keeps /bin/true's bytes (the pull does not bring the old binary back).
 *
 * Found (medium; 3 of 3 runs): both later commands print "old": the container runs the old binary forever (pushed 0,
 * skipped [] each time) while the Workspace — and anything reading it — has the new one.
 *
 * Suggested fix: keep a refused entry owed: record the refusal (a `__ws_sync_owed` row, or the push cursor held back to
 * it) and retry it on the next push, reporting it again while it still fails; or at least distinguish the codes that
 * cannot pass (ENAMETOOLONG, EINVAL) from those that can (ETXTBSY, ENOSPC, EBUSY, EAGAIN, EIO).
 *
 * Fixed (fix22 FCH): an entry the container refuses with a code that can pass (`RETRIED_CODES` in
 * src/runtime/sync.ts: ETXTBSY, ENOSPC, EDQUOT, EBUSY, EAGAIN, EINTR, EIO, EMFILE, ENFILE, ENOMEM, ETIMEDOUT,
 * ENOTEMPTY) is recorded owed (`__ws_sync_owed`: path, revision, whether a deletion; at most `MAX_SYNC_OWED`, 1000,
 * per backend); every later push sends it again first — as the Workspace holds it, when that is still the refused
 * revision (a later change goes with the change log) — reporting it in `skipped` while it is refused, until it lands.
 * Other refusals (ENAMETOOLONG, EINVAL, …) are reported once, as before. Meanwhile (fix22 FCD) the daemon writes a
 * whole file to a new file renamed into place, so this scenario's ETXTBSY no longer happens at all; the passing
 * refusals that remain (ENOSPC, EBUSY under a mount) are tested in test/node/fix22/container-push-owed-entries.test.ts.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack22c: a push refused for a passing reason", () => {
  it("sends the entry again once the reason is gone", { timeout: 60_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    const run = async (command: string) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8" })).result();
    try {
      await ws.fs.writeFile("/workspace/srv", new Uint8Array(fs.readFileSync("/bin/sleep")), { mode: 0o755 });
      expect((await run("true")).pushed).toBe(1);
      const live = await ws.runtime.exec("./srv 2", { backend: "box", encoding: "utf8" });
      await new Promise((r) => setTimeout(r, 500)); // srv is running
      await ws.fs.writeFile("/workspace/srv", new Uint8Array(fs.readFileSync("/bin/true")), { mode: 0o755 });
      const beside = await run("true");
      // The daemon of fix22 FCD writes a whole file to a new file renamed into place: a running executable is
      // replaced, no ETXTBSY (skipped []). A daemon writing in place refuses it (ETXTBSY), and the push owes it.
      expect([[], [{ path: "/workspace/srv", reason: "ETXTBSY: text file is busy (srv)" }]]).toContainEqual(beside.skipped);
      expect((await live.result()).exitCode).toBe(0);
      const later = [(await run("cmp -s srv /bin/true && echo new || echo old")).stdout, (await run("cmp -s srv /bin/true && echo new || echo old")).stdout];
      expect(Buffer.from(await new Response((await ws.fs.readFile("/workspace/srv")) as ReadableStream<Uint8Array>).arrayBuffer()).equals(fs.readFileSync("/bin/true"))).toBe(true);
      // Found: ["old\n", "old\n"].
      expect(later).toEqual(["new\n", "new\n"]);
    } finally {
      await close();
    }
  });
});
