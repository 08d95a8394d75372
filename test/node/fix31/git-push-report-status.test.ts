/**
 * Issue 20, run 31 (lead, from run 30's left-alone list): a receive-pack report-status is read as git's send-pack
 * reads it. A server answering `unpack ok` with no status for the pushed ref, or a status for another ref only, made
 * push fail EPUSHFAIL "Cannot read properties of undefined (reading 'ok')" (isomorphic-git read the missing ref's
 * status); an `unpack <error>` report with `ok refs/heads/main` resolved ok:false while listing the ref ok.
 * git 2.39.5 prints ` ! [remote failure] main -> main (remote failed to report status)` for the first and
 * `error: remote unpack failed: <error>` / ` ! [remote rejected] main -> main (unpacker error)` for the second.
 * Fixed: scripts/gen-git.mjs patches isomorphic-git's `_push` to mark refs failed after a failed unpack and a ref the
 * report does not name failed; src/git/ops/network.ts says "remote unpack failed: <error>".
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, workspaceCopy } from "../git/worktree-helpers.js";
import { withPushStub } from "../git/push-stub.js";

afterAll(cleanupScratch);

async function pushAnswered(report: string[]) {
  return withPushStub(async (url) => {
    const { ws, git, dir } = await workspaceCopy(committedRepo({ "a.txt": "a\n" }));
    await git.remoteAdd({ dir, name: "origin", url });
    const result = await git.push({ dir, ref: "main" });
    const tracking = await ws.fs.stat(`${dir}/.git/refs/remotes/origin/main`).then(() => true, () => false);
    return { result, tracking };
  }, report);
}

it("a report naming the ref ok is a push that worked, and the remote-tracking ref follows", async () => {
  const { result, tracking } = await pushAnswered(["unpack ok", "ok refs/heads/main"]);
  expect(result).toEqual({ ok: true, error: null, refs: { "refs/heads/main": { ok: true, error: "" } } });
  expect(tracking).toBe(true);
});

it("`unpack ok` with no status for the ref: a rejected push (remote failed to report status), not a TypeError", async () => {
  const { result, tracking } = await pushAnswered(["unpack ok"]);
  // Was: throws GitError EPUSHFAIL "git push failed: Cannot read properties of undefined (reading 'ok')"
  expect(result).toEqual({
    ok: false,
    error: "rejected: refs/heads/main remote failed to report status",
    refs: { "refs/heads/main": { ok: false, error: "remote failed to report status" } },
  });
  expect(tracking).toBe(false);
});

it("a status for another ref only: that ref as reported, the pushed one failed", async () => {
  const { result, tracking } = await pushAnswered(["unpack ok", "ok refs/heads/other"]);
  // Was: the same TypeError
  expect(result).toEqual({
    ok: false,
    error: "rejected: refs/heads/main remote failed to report status",
    refs: { "refs/heads/other": { ok: true, error: "" }, "refs/heads/main": { ok: false, error: "remote failed to report status" } },
  });
  expect(tracking).toBe(false);
});

it("`unpack <error>`: remote unpack failed, and every ref failed with unpacker error", async () => {
  const { result, tracking } = await pushAnswered(["unpack index-pack abnormal exit", "ok refs/heads/main"]);
  // Was: { ok: false, error: "index-pack abnormal exit", refs: { "refs/heads/main": { ok: true, error: "" } } }
  expect(result).toEqual({
    ok: false,
    error: "remote unpack failed: index-pack abnormal exit",
    refs: { "refs/heads/main": { ok: false, error: "unpacker error" } },
  });
  expect(tracking).toBe(false);
});

async function cliPushAnswered(report: string[]) {
  return withPushStub(async (url) => {
    const { git, dir } = await workspaceCopy(committedRepo({ "a.txt": "a\n" }));
    await git.remoteAdd({ dir, name: "origin", url });
    return { url, result: await git.cli({ argv: ["push", "origin", "main"], cwd: dir }) };
  }, report);
}

it("git push prints git's flags: [remote failure], [remote rejected] with the server's reason, remote unpack failed", async () => {
  const missing = await cliPushAnswered(["unpack ok"]);
  expect({ exitCode: missing.result.exitCode, stderr: missing.result.stderr }).toEqual({
    exitCode: 1,
    stderr: `To ${missing.url}\n ! [remote failure]  main -> main (remote failed to report status)\nerror: failed to push some refs to '${missing.url}'\n`,
  });
  const ng = await cliPushAnswered(["unpack ok", "ng refs/heads/main pre-receive hook declined"]);
  expect({ exitCode: ng.result.exitCode, stderr: ng.result.stderr }).toEqual({
    exitCode: 1,
    // Was: " ! [rejected]        main -> main (pre-receive hook declined)"
    stderr: `To ${ng.url}\n ! [remote rejected] main -> main (pre-receive hook declined)\nerror: failed to push some refs to '${ng.url}'\n`,
  });
  const unpack = await cliPushAnswered(["unpack index-pack abnormal exit", "ng refs/heads/main unpacker error"]);
  expect({ exitCode: unpack.result.exitCode, stderr: unpack.result.stderr }).toEqual({
    exitCode: 1,
    stderr:
      `error: remote unpack failed: index-pack abnormal exit\nTo ${unpack.url}\n` +
      ` ! [remote rejected] main -> main (unpacker error)\nerror: failed to push some refs to '${unpack.url}'\n`,
  });
});
