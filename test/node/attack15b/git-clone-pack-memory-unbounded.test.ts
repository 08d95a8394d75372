/**
 * Issue 20, fifteenth attack run: memory of `clone` against a server that sends a huge pack.
 * Tried: a hostile smart-HTTP server on 127.0.0.1 (hostile-git-server.ts) that advertises a branch and answers
 * `git-upload-pack` with 120 MB of side-band pack data (garbage after the header), as fast as the client reads;
 * `workspace.git.clone({ dir: "/c", url })` with the growth of heap + array buffers sampled meanwhile
 * (attack6 `peak`).
 * Found (high; a Durable Object has 128 MB): there is no bound on what the download holds — isomorphic-git
 * collects the whole response (side-band demux, then one Buffer of the pack) before it parses a byte — and
 * the clone's memory grows about 4× the bytes the server sends: ~440–490 MB for 120 MB (816 MB for 200 MB),
 * 3 of 3 runs, before failing with isomorphic-git's "An internal error caused this command to fail". Any
 * repository the model is asked to clone can end the Durable Object; GIT_MAX_OBJECT_BYTES bounds one object,
 * nothing bounds the pack.
 * Suggested fix: count the upload-pack response's bytes in boundedHttp and refuse past a documented
 * GIT_MAX_PACK_BYTES (E<OP>FAIL naming it, before the pack is parsed), chosen so that its in-memory copies stay
 * inside 128 MB; document it in docs/git.md "Performance and limits".
 * Fixed: boundedHttp (src/git/ops/network.ts) counts every response's bytes and cuts it past GIT_MAX_PACK_BYTES
 * (16 MiB, src/git/limits.ts; a declared content-length over it is refused before the body): clone, fetch and
 * pull fail E<OP>FAIL "response too large: …", a clone removes what it made, a fetch keeps its refs.
 */
import { afterAll, describe, expect, it } from "vitest";
import { GIT_MAX_PACK_BYTES } from "../../../src/git/index.js";
import { boundedHttp } from "../../../src/git/ops/network.js";
import type { GitHttpClient } from "../../../src/git/context.js";
import { cleanupScratch, newWorkspace, rejection, wsSnapshot } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";
import { hostileGitServer, repoWithRemote } from "./hostile-git-server.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;

function tooLarge(op: string, url: string): string {
  return (
    `git ${op} failed: response too large: ${url}/git-upload-pack sent more than ${GIT_MAX_PACK_BYTES} bytes (the limit: maxResponseBytes, default GIT_MAX_PACK_BYTES); ` +
    "the Workspace's git holds a download in memory several times over and does not take one this large: clone with depth: 1, or a smaller repository (or raise maxResponseBytes where memory allows)"
  );
}

describe("attack15b: clone of a 120 MB pack", () => {
  it("GIT_MAX_PACK_BYTES is 16 MiB", () => {
    expect(GIT_MAX_PACK_BYTES).toBe(16 * MiB);
  });

  it("is refused with ECLONEFAIL naming GIT_MAX_PACK_BYTES, leaves nothing, and its memory stays under 128 MiB", { timeout: 60_000 }, async () => {
    const server = await hostileGitServer({ floodBytes: 120 * MiB });
    try {
      const { ws, git } = newWorkspace();
      const { value, grew } = await peak(() => rejection(git.clone({ dir: "/c", url: server.url })));
      expect(value).toEqual({ name: "GitError", code: "ECLONEFAIL", message: tooLarge("clone", server.url) });
      expect(grew).toBeLessThan(128 * MiB);
      expect(await ws.fs.readdir("/")).toEqual([]);
      // The download stopped at the limit (what the server wrote past it sat in socket buffers).
      expect(server.served()).toBeLessThan(GIT_MAX_PACK_BYTES + 16 * MiB);
    } finally {
      server.close();
    }
  });

  it("maxResponseBytes sets the limit per call; a bad value is EUSAGE", { timeout: 60_000 }, async () => {
    const server = await hostileGitServer({ floodBytes: 120 * MiB, declareLength: true });
    try {
      const { ws, git } = newWorkspace();
      expect(await rejection(git.clone({ dir: "/c", url: server.url, maxResponseBytes: 1000 }))).toEqual({
        name: "GitError",
        code: "ECLONEFAIL",
        message: tooLarge("clone", server.url).replace(`more than ${GIT_MAX_PACK_BYTES} bytes`, "more than 1000 bytes"),
      });
      for (const bad of [0, -1, "big"]) {
        expect(await rejection(git.clone({ dir: "/c", url: server.url, maxResponseBytes: bad as number }))).toMatchObject({
          name: "GitError",
          code: "EUSAGE",
        });
      }
      expect(await ws.fs.readdir("/")).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("a declared content-length over the limit is refused before the body is read", { timeout: 60_000 }, async () => {
    const server = await hostileGitServer({ floodBytes: 120 * MiB, declareLength: true });
    try {
      const { ws, git } = newWorkspace();
      expect(await rejection(git.clone({ dir: "/c", url: server.url }))).toEqual({
        name: "GitError",
        code: "ECLONEFAIL",
        message: tooLarge("clone", server.url),
      });
      expect(await ws.fs.readdir("/")).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("fetch and pull of it fail EFETCHFAIL / EPULLFAIL and leave the repository as it was", { timeout: 60_000 }, async () => {
    const server = await hostileGitServer({ floodBytes: 120 * MiB });
    try {
      const { ws, git, before } = await repoWithRemote(server.url);
      expect(await rejection(git.fetch({ dir: "/r" }))).toEqual({ name: "GitError", code: "EFETCHFAIL", message: tooLarge("fetch", server.url) });
      expect(await rejection(git.pull({ dir: "/r", remoteRef: "main" }))).toEqual({ name: "GitError", code: "EPULLFAIL", message: tooLarge("pull", server.url) });
      expect(await wsSnapshot(ws, "/r")).toEqual(before);
      expect(await ws.fs.readdir("/r/.git/objects/pack")).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("boundedHttp takes a body of exactly the limit and cuts one byte more", async () => {
    // A stand-in transport (the thing under test is boundedHttp's count): a body of `sizes` chunks.
    const transport = (sizes: number[]): GitHttpClient => ({
      async request() {
        return {
          url: "http://x/r.git/git-upload-pack",
          method: "POST",
          statusCode: 200,
          statusMessage: "OK",
          headers: {},
          body: (async function* () {
            for (const size of sizes) yield new Uint8Array(size);
          })(),
        };
      },
    });
    const read = async (sizes: number[]) => {
      const response = await boundedHttp(transport(sizes), 1_000, undefined, 10).request({ url: "http://x/r.git/git-upload-pack" });
      let total = 0;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) total += chunk.byteLength;
      return total;
    };
    expect(await read([4, 6])).toBe(10);
    await expect(read([4, 6, 1])).rejects.toThrow(
      "response too large: http://x/r.git/git-upload-pack sent more than 10 bytes (the limit: maxResponseBytes, default GIT_MAX_PACK_BYTES); ",
    );
  });
});
