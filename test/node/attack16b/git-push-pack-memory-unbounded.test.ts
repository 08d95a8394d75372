/**
 * Issue 20, sixteenth attack run: `push` builds and sends its whole pack in memory, with no bound — the
 * download bound of the fifteenth run (GIT_MAX_PACK_BYTES, boundedHttp) covers what the server SENDS, not what
 * the Workspace uploads.
 * Tried: a repository with N files of 16 MiB of random bytes (each a quarter of GIT_MAX_OBJECT_BYTES, so every
 * other git operation takes them: add, commit, checkout), committed, pushed to a receive-pack server on
 * 127.0.0.1 that reads the request and answers "ok" (side-band report-status); heap + array buffers sampled
 * during the push (attack6 `peak`'s measure). Held: the push succeeds byte for byte (the server received the
 * whole pack), and the report is parsed through the bounded response.
 * Found (medium; a Durable Object has 128 MB, docs/git.md "Objects are bounded … git holds an object whole,
 * more than once"): isomorphic-git packs every object to send into one buffer and sends it as one request
 * body, so the push's memory grows ~2.3–2.7× the pack: N = 1 → 47 MiB, 2 → 80 MiB, 4 (64 MiB pack) →
 * 147–175 MiB (3 of 3 runs), past 128 MiB. A model that commits a few generated files (a dataset, a build) and
 * pushes ends the object; nothing says why, and the number of objects is the only thing that grows.
 * Suggested fix: before packing, sum the sizes of the objects push would send (isomorphic-git's object walk
 * gives them) and refuse past a documented bound (GIT_MAX_PACK_BYTES, or its own GIT_MAX_PUSH_BYTES, with a
 * per-call override as maxResponseBytes has) with EPUSHFAIL "pack too large: … push fewer/smaller commits",
 * sending nothing — or stream the pack object by object into the request body; document it in docs/git.md
 * "Performance and limits".
 * Fixed: push reads its objects through a counting fs (src/git/operation.ts pushBoundedFs): each loose object
 * is counted once by its stored size, and the read that would pass maxPushBytes (default GIT_MAX_PUSH_BYTES,
 * 32 MiB) is refused before it is made — EPUSHFAIL "pack too large: the objects to push take more than 33554432
 * bytes …", the pack never sent. (The assertion is now the refusal: the success branch no longer applies.)
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { GIT_MAX_PUSH_BYTES } from "../../../src/git/index.js";
import { pushTooLarge } from "../../../src/git/limits.js";
import { withPushStub } from "../git/push-stub.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
it("a push of a 64 MiB pack (four 16 MiB files) stays under 128 MiB of memory, or is refused before sending", { timeout: 60_000 }, async () => {
  await withPushStub(async (url, received) => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r", defaultBranch: "main" } as never);
    const n = 4;
    for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/f${i}.bin`, randomBytes(16 * MiB));
    await git.add({ dir: "/r", paths: ["."] });
    await git.commit({ dir: "/r", message: "big", author: { name: "a", email: "a@b" } } as never);
    await git.remoteAdd({ dir: "/r", name: "origin", url });
    const base = process.memoryUsage();
    let grew = 0;
    const t = setInterval(() => {
      const m = process.memoryUsage();
      grew = Math.max(grew, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
    }, 5);
    const result = await git.push({ dir: "/r", ref: "main" } as never).catch((e) => String(e));
    clearInterval(t);
    // Refused: with a message saying why, and nothing sent.
    expect(result).toMatch(/^GitError: git push failed: .*too large/);
    expect(result).toBe(`GitError: git push failed: ${pushTooLarge(GIT_MAX_PUSH_BYTES)}`);
    expect(received()).toBe(0);
    // Today: 147–175 MiB.
    expect(grew).toBeLessThan(128 * MiB);
  });
});

it("a push within the bound goes through; maxPushBytes lowers the bound, refusing before anything is sent", { timeout: 60_000 }, async () => {
  await withPushStub(async (url, received) => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r", defaultBranch: "main" } as never);
    for (let i = 0; i < 2; i++) await ws.fs.writeFile(`/r/f${i}.bin`, randomBytes(MiB));
    await git.add({ dir: "/r", paths: ["."] });
    await git.commit({ dir: "/r", message: "two", author: { name: "a", email: "a@b" } } as never);
    await git.remoteAdd({ dir: "/r", name: "origin", url });
    const refused = await git.push({ dir: "/r", ref: "main", maxPushBytes: 1.5 * MiB } as never).catch((e) => e as { code?: string; message?: string });
    expect((refused as { code?: string }).code).toBe("EPUSHFAIL");
    expect((refused as { message?: string }).message).toBe(`git push failed: ${pushTooLarge(1.5 * MiB)}`);
    expect(received()).toBe(0);
    const usage = await git.push({ dir: "/r", ref: "main", maxPushBytes: 0 } as never).catch((e) => e as { code?: string; message?: string });
    expect(usage).toMatchObject({ code: "EUSAGE", message: "git push: maxPushBytes must be a number > 0, got number" });
    const result = await git.push({ dir: "/r", ref: "main" } as never);
    expect(result).toEqual({ ok: true, error: null, refs: { "refs/heads/main": { ok: true, error: "" } } });
    expect(received()).toBeGreaterThan(2 * MiB);
  });
});
