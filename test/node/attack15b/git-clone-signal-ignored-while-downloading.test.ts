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
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { hostileGitServer } from "./hostile-git-server.js";

afterAll(cleanupScratch);

describe("attack15b: clone from a trickling server and its signal", () => {
  it.fails("an aborted signal stops the download: ECANCELED within 10 s, /c removed", { timeout: 30_000 }, async () => {
    const server = await hostileGitServer({ trickle: true });
    try {
      const { ws, git } = newWorkspace();
      const stop = new AbortController();
      setTimeout(() => stop.abort(new Error("the run was killed")), 1_000);
      const outcome = await Promise.race([
        git.clone({ dir: "/c", url: server.url, signal: stop.signal }).then(
          () => "resolved",
          (error: { code?: string }) => error.code,
        ),
        new Promise((resolve) => setTimeout(() => resolve("still running 10 s after the abort"), 11_000)),
      ]);
      expect(outcome).toBe("ECANCELED");
      expect(await ws.fs.stat("/c").then(() => "exists", (error: { code?: string }) => error.code)).toBe("ENOENT");
    } finally {
      server.close();
    }
  });
});
