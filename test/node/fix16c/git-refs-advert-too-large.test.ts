/**
 * Issue 20, found by the lead after the fifteenth attack run: a ref advertisement past maxResponseBytes.
 *
 * Tried: `clone`, `fetch`, `pull` (and `push`) with `maxResponseBytes: 4000` against a smart-HTTP server on 127.0.0.1
 * (ref-advert-server.ts: the real git's upload-pack; an advertisement of HEAD, main and 2,000 tags, about
 * 124 KB) sent three ways: in one write, in two (HEAD and main first, the tags 100 ms later), and with its
 * content-length declared.
 *
 * Found (medium): boundedHttp cut the `info/refs` body at the bound, but isomorphic-git reads a ref
 * advertisement through a pkt-line reader that swallows the body's error as the end of the stream: cut in
 * its first chunk, the clone failed with isomorphic-git's "Empty response from git server." instead of our
 * "response too large: … maxResponseBytes …"; cut after HEAD and main, the clone SUCCEEDED on the part of
 * the ref list that had arrived — the refusal was silently lost (fetch and pull likewise; a push got "Empty response" or worked
 * from the partial list). Only a declared
 * content-length over the bound (refused before the body) gave our message.
 *
 * (The same for a timeout: an advertisement that stopped after HEAD and main for longer than `timeoutMs`
 * gave a clone of what had come.)
 *
 * Fixed: boundedHttp keeps the first of its refusals (response too large, or a timeout), sends no request
 * after it, and clone, fetch, pull and push fail with it — E<OP>FAIL "response too large: <url> sent more than <n> bytes …" — whatever
 * isomorphic-git made of the cut body, even when it went on and finished; a clone removes what it made,
 * a fetch or pull puts the refs back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, newWorkspace, rejection } from "../git/worktree-helpers.js";
import { wsEverything } from "../git/attack-helpers.js";
import { repoWithRemote } from "../attack15b/hostile-git-server.js";
import { advertServer } from "./ref-advert-server.js";

afterAll(cleanupScratch);

function tooLarge(op: string, url: string, service = "git-upload-pack"): string {
  return (
    `git ${op} failed: response too large: ${url}/info/refs?service=${service} sent more than 4000 bytes (the limit: maxResponseBytes, default GIT_MAX_PACK_BYTES); ` +
    "the Workspace's git holds a download in memory several times over and does not take one this large: clone with depth: 1, or a smaller repository (or raise maxResponseBytes where memory allows)"
  );
}

describe("fix16c: a ref advertisement past maxResponseBytes", () => {
  for (const mode of ["whole", "split", "declared"] as const) {
    it(`(${mode}) clone fails ECLONEFAIL "response too large" and leaves nothing`, { timeout: 30_000 }, async () => {
      const server = await advertServer(mode, 2000);
      try {
        expect(server.advertBytes).toBeGreaterThan(100_000);
        const { ws, git } = newWorkspace();
        expect(await rejection(git.clone({ dir: "/c", url: server.url, maxResponseBytes: 4000 }))).toEqual({
          name: "GitError",
          code: "ECLONEFAIL",
          message: tooLarge("clone", server.url),
        });
        expect(await ws.fs.readdir("/")).toEqual([]);
        // Found (split): the pack was asked for and the clone finished on HEAD and main alone.
        expect(server.packs()).toBe(0);
        // The same server within the bound: the clone works (the server is a real one).
        await git.clone({ dir: "/ok", url: server.url });
        expect(await ws.fs.readFile("/ok/a.txt", "utf8")).toBe("from the server\n");
      } finally {
        server.close();
      }
    });

    it(`(${mode}) fetch, pull and push fail EFETCHFAIL / EPULLFAIL / EPUSHFAIL "response too large" and leave the repository as it was`, { timeout: 30_000 }, async () => {
      const server = await advertServer(mode, 2000);
      try {
        const { ws, git } = await repoWithRemote(server.url);
        const before = await wsEverything(ws, "/r");
        expect(await rejection(git.fetch({ dir: "/r", maxResponseBytes: 4000 }))).toEqual({ name: "GitError", code: "EFETCHFAIL", message: tooLarge("fetch", server.url) });
        expect(await rejection(git.pull({ dir: "/r", remoteRef: "main", maxResponseBytes: 4000 }))).toEqual({
          name: "GitError",
          code: "EPULLFAIL",
          message: tooLarge("pull", server.url),
        });
        // A push's advertisement (git-receive-pack) past the bound too: EPUSHFAIL, not a result worked out from part of it.
        expect(await rejection(git.push({ dir: "/r", remoteRef: "main", maxResponseBytes: 4000 }))).toEqual({
          name: "GitError",
          code: "EPUSHFAIL",
          message: tooLarge("push", server.url, "git-receive-pack"),
        });
        // Every byte under /r (the .git included: refs, FETCH_HEAD, objects) as it was; no pack was asked for.
        expect(await wsEverything(ws, "/r")).toEqual(before);
        expect(await ws.fs.readdir("/r/.git/objects/pack")).toEqual([]);
        expect(server.packs()).toBe(0);
      } finally {
        server.close();
      }
    });
  }

  it("(split, silent) a ref advertisement that stops past timeoutMs fails the clone with our timeout, not with the refs that came", { timeout: 30_000 }, async () => {
    const server = await advertServer("split", 10, 3000);
    try {
      const { ws, git } = newWorkspace();
      expect(await rejection(git.clone({ dir: "/c", url: server.url, timeoutMs: 500 }))).toEqual({
        name: "GitError",
        code: "ECLONEFAIL",
        message: `git clone failed: no response from ${server.url}/info/refs?service=git-upload-pack for 500 ms (timed out)`,
      });
      expect(await ws.fs.readdir("/")).toEqual([]);
      expect(server.packs()).toBe(0);
    } finally {
      server.close();
    }
  });
});
