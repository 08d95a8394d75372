/**
 * Issue 20, scout after the sixteenth attack run: push's bound (maxPushBytes, GIT_MAX_PUSH_BYTES, 2735c67) counts
 * only LOOSE objects (src/git/operation.ts pushBoundedFs matches `objects/xx/<38 hex>`); objects push reads from a
 * pack are not counted at all.
 *
 * Tried: a repository made by the real git with two 1 MiB random files committed and `git gc` run (its objects in
 * one pack, as after any clone or fetch, or an uploaded repository), copied into a Workspace; push to a stub
 * receive-pack on 127.0.0.1 with maxPushBytes 1.5 MiB — the same figures as attack16b's refusal case with loose
 * objects.
 * Found (medium: the bound is bypassed by the ordinary storage of objects): the push goes through — 2,098,178 bytes sent
 * while the bound is 1.5 MiB; with loose objects the same push is refused EPUSHFAIL 'pack too large …', nothing
 * sent. With the defaults, objects from several packs each within GIT_MAX_PACK_FILE_BYTES (16 MiB: a clone plus
 * fetches) pushed to a new remote are packed whole in memory past GIT_MAX_PUSH_BYTES (32 MiB) — attack16b's
 * 147–175 MiB growth, by a second path. docs/git.md says push refuses "past maxPushBytes".
 * Suggested fix: count what push packs, not what it reads loose — e.g. for a packed object, its size from the pack
 * index offsets (next offset − offset) or the object's inflated length, counted in the same sum (readObject through
 * the operation's cache), or walk the objects to send (isomorphic-git's listObjects) and sum their sizes before
 * packing.
 * Fixed: pushBoundedFs also hooks the push's own pack cache: each parsed pack index stored there has its `read`
 * wrapped, and each object read from a pack counts once by its inflated size in the same sum (refused as it is
 * read; nothing sent).
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";
import { pushTooLarge } from "../../../src/git/limits.js";

import { withPushStub } from "../git/push-stub.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;

it("objects read from a pack count toward maxPushBytes as loose ones do", { timeout: 60_000 }, async () => {
  await withPushStub(async (url, received) => {
    const disk = committedRepo({ "f0.bin": randomBytes(MiB), "f1.bin": randomBytes(MiB) }, "two", (d) => realGit(d, "gc", "-q"));
    const { ws, git, dir } = await workspaceCopy(disk);
    // The objects are in one pack, none loose.
    expect((await ws.fs.readdir(`${dir}/.git/objects/pack`)).filter((e) => e.name.endsWith(".pack"))).toHaveLength(1);
    await git.remoteAdd({ dir, name: "origin", url });
    const refused = await git.push({ dir, ref: "main", maxPushBytes: 1.5 * MiB } as never).catch((e) => e as { code?: string; message?: string });
    expect(received()).toBe(0); // today: ~2 MiB sent
    expect(refused).toMatchObject({ code: "EPUSHFAIL", message: `git push failed: ${pushTooLarge(1.5 * MiB)}` });
    // Within the bound, the same packed objects are pushed: the two 1 MiB blobs (stored, random) and more go out.
    const done = await git.push({ dir, ref: "main", maxPushBytes: 3 * MiB } as never);
    expect(done).toMatchObject({ ok: true, error: null });
    expect(received()).toBeGreaterThan(2 * MiB);
  });
});
