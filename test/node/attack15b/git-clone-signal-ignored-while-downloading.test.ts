/**
 * Issue 20, fifteenth attack run: `clone` (and `fetch`/`pull`/`push`, which share `boundedHttp`) ignores the
 * operation's `signal` while it talks to the server.
 * Tried: a hostile smart-HTTP server on 127.0.0.1 (hostile-git-server.ts) that advertises a branch and then
 * trickles side-band pack data — one 1 KB packet every 100 ms, forever, so `timeoutMs` (60 s of SILENCE) never
 * fires — and `workspace.git.clone({ dir: "/c", url, signal })` with the signal aborted after 1 s.
 * Found (medium; docs/git.md "Cancelling": every method takes `signal`, "ws:git passes each call's own signal,
 * so a killed or timed-out run stops its git work"): src/git/ops/network.ts hands `ctx.signal` to neither
 * isomorphic-git nor `boundedHttp` (its `outer` is the request's own signal, which isomorphic-git never sets),
 * and checks it only after the download; the clone is still running 10 s after the abort (3 of 3 runs; it
 * runs as long as the server keeps talking), holding the repository's lock, so a killed ws:git run's clone,
 * and every later operation on that repository, waits on the server.
 * Suggested fix: link `ctx.signal` into boundedHttp's controller (and race each wait against it, as against the
 * timer), so an abort ends the request at once and the clone cleans up and rejects ECANCELED.
 * Fixed: boundedHttp (src/git/ops/network.ts) takes the operation's signal: its abort aborts the request in
 * progress and the wait for headers or the next chunk rejects at once; clone removes what it made, fetch and pull
 * put their refs back, and each rejects ECANCELED (push too, saying the remote may or may not have taken it).
 */
import { afterAll, describe, expect, it } from "vitest";
import { repoUrl } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, rejection, wsSnapshot } from "../git/worktree-helpers.js";
import { hostileGitServer, repoWithRemote } from "./hostile-git-server.js";

afterAll(cleanupScratch);

const killed = () => new Error("the run was killed");

describe("attack15b: clone from a trickling server and its signal", () => {
  it("an aborted signal stops the download: ECANCELED within 10 s, /c removed", { timeout: 30_000 }, async () => {
    const server = await hostileGitServer({ trickle: true });
    try {
      const { ws, git } = newWorkspace();
      const stop = new AbortController();
      setTimeout(() => stop.abort(killed()), 1_000);
      const outcome = await Promise.race([
        rejection(git.clone({ dir: "/c", url: server.url, signal: stop.signal })),
        new Promise((resolve) => setTimeout(() => resolve("still running 10 s after the abort"), 11_000)),
      ]);
      expect(outcome).toEqual({ name: "GitError", code: "ECANCELED", message: "git clone cancelled: the run was killed; it removed /c, which it had made" });
      expect(await ws.fs.stat("/c").then(() => "exists", (error: { code?: string }) => error.code)).toBe("ENOENT");
      expect(await ws.fs.readdir("/")).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("fetch and pull stop too: ECANCELED, the repository as it was", { timeout: 30_000 }, async () => {
    const server = await hostileGitServer({ trickle: true });
    try {
      const { ws, git, before } = await repoWithRemote(server.url);
      for (const op of ["fetch", "pull"] as const) {
        const stop = new AbortController();
        setTimeout(() => stop.abort(killed()), 500);
        const run = op === "fetch" ? git.fetch({ dir: "/r", signal: stop.signal }) : git.pull({ dir: "/r", remoteRef: "main", signal: stop.signal });
        expect(await rejection(run)).toEqual({
          name: "GitError",
          code: "ECANCELED",
          message: `git ${op} cancelled: the run was killed; it stopped while talking to ${server.url}; the refs, shallow and FETCH_HEAD are as they were`,
        });
      }
      expect(await wsSnapshot(ws, "/r")).toEqual(before);
    } finally {
      server.close();
    }
  });

  it("push to a server that never answers stops at the abort: ECANCELED", { timeout: 30_000 }, async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r" });
    await ws.fs.writeFile("/r/a.txt", "a\n");
    await git.add({ dir: "/r", paths: ["a.txt"] });
    await git.commit({ dir: "/r", message: "one" });
    const before = await wsSnapshot(ws, "/r");
    const url = repoUrl("fixture", "hang");
    const stop = new AbortController();
    setTimeout(() => stop.abort(killed()), 500);
    expect(await rejection(git.push({ dir: "/r", url, signal: stop.signal }))).toEqual({
      name: "GitError",
      code: "ECANCELED",
      message: `git push cancelled: the run was killed; it stopped while talking to ${url}; the local repository is unchanged, and the remote may or may not have taken the push (fetch to see)`,
    });
    expect(await wsSnapshot(ws, "/r")).toEqual(before);
  });

  it("a signal aborted before the call: fetch does not start and asks the server nothing", async () => {
    const server = await hostileGitServer({ trickle: true });
    try {
      const { ws, git } = newWorkspace();
      await git.init({ dir: "/r" });
      await git.remoteAdd({ dir: "/r", name: "origin", url: server.url });
      const stop = new AbortController();
      stop.abort(killed());
      expect(await rejection(git.fetch({ dir: "/r", signal: stop.signal }))).toEqual({
        name: "GitError",
        code: "ECANCELED",
        message: "git fetch cancelled: the run was killed; it did not start, so nothing changed",
      });
      expect(server.served()).toBe(0);
    } finally {
      server.close();
    }
  });
});
