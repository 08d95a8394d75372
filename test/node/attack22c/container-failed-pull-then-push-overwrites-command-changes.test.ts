/**
 * Issue 20, twenty-second attack run: a command whose pull failed (or was deferred) loses its changes to the next push.
 *
 * docs/container.md, rule 4 "Container changes win": a file the command changed replaces a version the Workspace
 * wrote while the command ran; rule 5 and the pull section: a pull that fails "keeps the command's result and reports
 * sync pending … the next workspace.pull() (or the next command) walks again and finishes — a pull is idempotent, so
 * nothing is lost". But `#pullAfter` (src/runtime/index.ts) answers a failed pull with `markPullPending(message)` and a
 * deferred one with `markPullPending(null)`: both overwrite the COMMAND_SENT mark that `RemoteSync.#push`
 * (src/runtime/sync.ts) looks for to pull first. So the next command's push does not pull first: it sends the
 * Workspace's version of every file the Workspace touched and only then pulls — the command's own change to that file
 * is overwritten in the container before anyone read it, and the pull finds nothing to bring.
 *
 * Tried: the real daemon in process (`Computerd`, attack18c/real-daemon.ts) behind `wrapDaemon`, whose `scan` fails
 * once with ETIMEDOUT right after the command (what REMOTE_SYNC_CALL_TIMEOUT_MS gives a slow or busy daemon). f.txt
 * "v1" synced; `sleep 1; echo 'container edit' > f.txt` runs while a tool writes f.txt "workspace edit" in the
 * Workspace; its pull fails (sync pending, ETIMEDOUT); the next command is `cat f.txt`. Same with `sync: "defer"`
 * instead of the failing scan.
 * Held: the control — the same steps with the pull succeeding — ends with "container edit" on both sides (the
 * container wins, rule 4); an object that dies while the command runs (COMMAND_SENT kept) pulls first
 * (attack21c/fix21 tests).
 *
 * Found (medium; 3 of 3 runs): the next command prints "workspace edit", and both the container and the Workspace hold
 * "workspace edit": the command's change is gone everywhere, with sync "complete", nothing in `skipped`. Same with
 * `sync: "defer"`.
 *
 * Suggested fix: a command's pull that fails or is deferred keeps the pull-first mark (COMMAND_SENT, or a separate
 * "owed" flag beside the error text): `markPullPending(message)` from `#pullAfter` should not clear it, so the next
 * push pulls first — as it does after an interrupted command — and the container's changes win.
 *
 * Fixed (fix22 FCH): "a command's pull is owed" is its own column, `__ws_sync_state.pull_owed`, set when a command is
 * sent and cleared only by a pull that completes (with no other command live); `markPullPending(message | null)`
 * (a failed or deferred pull, a failed `workspace.pull()`) sets the pending flag and the error text and leaves it.
 * `RemoteSync.#push` pulls first when it is owed: always for a command whose pull never ran (COMMAND_SENT, as
 * before), and when the push has anything to send for one whose pull failed or was deferred — so deferring the pulls
 * of commands that leave nothing to send walks nothing. A state table of an earlier version gets the column, owed
 * where its error text was COMMAND_SENT. Siblings: test/node/fix22/container-owed-pull-kept.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

type Mode = "succeeds" | "fails" | "defer";

async function scenario(mode: Mode): Promise<{ firstSync: string; stdout: string; workspace: string; container: string }> {
  const real = await realDaemonWorkspace();
  await real.ws.close();
  let failScan = false;
  const scan = (real.daemon as unknown as { scan: (i: unknown) => Promise<unknown> }).scan.bind(real.daemon);
  const daemon = wrapDaemon(real.daemon, {
    scan: async (input: never) => {
      if (failScan) {
        failScan = false;
        throw Object.assign(new Error("ETIMEDOUT: the container's daemon did not answer scan within 10000 ms"), { code: "ETIMEDOUT" });
      }
      return scan(input);
    },
  });
  const ws = await workspaceOver(daemon);
  try {
    await ws.fs.writeFile("/workspace/f.txt", "v1\n");
    expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).sync?.status).toBe("complete");

    failScan = mode === "fails";
    const handle = await ws.runtime.exec("sleep 1; echo 'container edit' > f.txt", { backend: "box", ...(mode === "defer" ? { sync: "defer" as const } : {}) });
    // A tool writes the file while the command runs (rule 4: the command's version wins).
    await ws.fs.writeFile("/workspace/f.txt", "workspace edit\n");
    const first = await handle.result();
    expect(first.exitCode).toBe(0);

    const next = await (await ws.runtime.exec("cat f.txt", { backend: "box", encoding: "utf8" })).result();
    return {
      firstSync: first.sync?.status ?? "none",
      stdout: next.stdout,
      workspace: await ws.fs.readFile("/workspace/f.txt", "utf8"),
      container: fs.readFileSync(path.join(real.dir, "f.txt"), "utf8"),
    };
  } finally {
    await ws.close();
    fs.rmSync(real.dir, { recursive: true, force: true });
    fs.rmSync(path.join(path.dirname(real.dir), `.${path.basename(real.dir)}.computerd-disk`), { force: true });
  }
}

describe("attack22c: the push after a command whose pull did not run", () => {
  it("control: the pull succeeds, the container's edit wins", { timeout: 60_000 }, async () => {
    expect(await scenario("succeeds")).toEqual({ firstSync: "complete", stdout: "container edit\n", workspace: "container edit\n", container: "container edit\n" });
  });

  it("the pull failed (ETIMEDOUT): the next command's push does not overwrite the command's change", { timeout: 60_000 }, async () => {
    // Found: { firstSync: "pending", stdout: "workspace edit\n", workspace: "workspace edit\n", container: "workspace edit\n" }.
    expect(await scenario("fails")).toEqual({ firstSync: "pending", stdout: "container edit\n", workspace: "container edit\n", container: "container edit\n" });
  });

  it("the pull was deferred (sync: 'defer'): the next command's push does not overwrite the command's change", { timeout: 60_000 }, async () => {
    // Found: { firstSync: "pending", stdout: "workspace edit\n", workspace: "workspace edit\n", container: "workspace edit\n" }.
    expect(await scenario("defer")).toEqual({ firstSync: "pending", stdout: "container edit\n", workspace: "container edit\n", container: "container edit\n" });
  });
});
