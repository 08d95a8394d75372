/**
 * Issue 20, thirteenth attack run: a push batches 2,000 ops whatever their paths and link targets weigh, so
 * a few hundred long names in the Workspace stop every container command for good.
 *
 * Tried: Workspace entries with long names or link targets (allowed: a path holds up to 256 KiB, a link
 * target too; names have no limit of their own) and then a command on the container backend (real local
 * computerd, TestBackend "box"). (a) 200 links in /workspace, each to a 200,000-character target;
 * (b) 1,000 files in /workspace/n, each named with 40,000 characters (the container cannot hold such names,
 * which would be fine: a refused op goes in `skipped`).
 *
 * Found (medium): `RemoteSync.#pushEntries` ends an `apply` batch at 2,000 ops or 4 MiB of FILE bytes
 * (APPLY_BATCH_OPS / APPLY_BATCH_BYTES) — paths and link targets are not counted, so one `apply` message is
 * ~40 MB here, past the 32 MiB the daemon's connection takes. The command is never run: `exec` rejects with
 * a bare `Error` (no code, nothing about which entries or what to do): `Incoming message exceeds maximum size
 * of 33554432 UTF-16 code units.` The push cursor does not move, so every later command on that backend fails
 * the same way until the entries are found and removed by hand. Both (a) and (b) reproduce. Reproduction:
 *
 *   for (200×) await ws.fs.symlink("t".repeat(200_000), `/workspace/l${i}`);
 *   await ws.runtime.exec("echo hi", { backend: "box" });   // rejects, now and on every later command
 *
 * Suggested fix: count each op's path (and target) bytes in the batch's size and end the batch near 1 MiB
 * (the daemon's own message budget), sending an op larger than that alone; better, skip entries whose names
 * the container cannot hold (over 255 bytes a name / 4,096 a path) into `skipped` before sending.
 *
 * Fixed: a batch weighs each op's paths and link target (as they travel, JSON-escaped) with its file data
 * against APPLY_BATCH_BYTES (4 MiB), so an `apply` message stays under ~10 MiB; what the container refuses
 * (ENAMETOOLONG here) is reported in `skipped` once and the command runs.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

const run = (ws: Parameters<Parameters<typeof inWorkspace>[1]>[0]) =>
  sh(ws, "echo hi").then(
    (r) => ({ exitCode: r.exitCode, stdout: r.stdout, skipped: r.skipped.length, first: r.skipped[0] }),
    (e: Error) => ({ rejected: e.message }),
  );

describe("attack13c: push of entries with long link targets", () => {
  it("200 links with 200,000-character targets do not stop a command from running", { timeout: 120_000 }, async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const T = "t".repeat(200_000);
      for (let i = 0; i < 200; i++) await ws.fs.symlink(T, `/workspace/l${i}`);
      // The container cannot hold such a target (PATH_MAX): each link is refused into `skipped`, once.
      expect(await run(ws)).toEqual({ exitCode: 0, stdout: "hi\n", skipped: 200, first: { path: "/workspace/l0", reason: "ENAMETOOLONG: name too long (l0)" } });
      expect(await run(ws)).toEqual({ exitCode: 0, stdout: "hi\n", skipped: 0, first: undefined });
    });
  });

  it("1,000 files with 40,000-character names do not stop a command from running", { timeout: 120_000 }, async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/n");
      for (let i = 0; i < 1000; i++) await ws.fs.writeFile(`/workspace/n/${String(i).padStart(4, "0").padEnd(40_000, "n")}`, "x");
      const name = "0000".padEnd(40_000, "n");
      // The list is capped at MAX_SYNC_SKIPPED_CHARS (512 Ki characters): 13 of the 1,000 long paths, then one entry counting the rest (sixteenth run).
      expect(await run(ws)).toEqual({ exitCode: 0, stdout: "hi\n", skipped: 14, first: { path: `/workspace/n/${name}`, reason: "ENAMETOOLONG: path is longer than 4096 bytes" } });
      expect(await run(ws)).toEqual({ exitCode: 0, stdout: "hi\n", skipped: 0, first: undefined });
    });
  });
});
