/**
 * Issue 20, thirtieth attack run: a blob stored in a pack as an ofs-delta is never checked against
 * GIT_MAX_OBJECT_BYTES — the limit is only applied to what zlib inflates, and a delta of a few hundred
 * bytes (after a 1 MiB base) expands to 100 MB in `applyDelta` — so `cat-file -s` and `checkout` build
 * the whole object in memory and write it, where the docs (src/git/limits.ts, docs/git.md) promise that
 * checkout, reset, merge, stash, show, cat-file and diff refuse an object over 64 MiB.
 *
 * Tried: a pack made by hand (a 1 MiB blob of "a", then an ofs-delta blob copying it 100 times, 100 MiB),
 * indexed by the real git 2.39.5 (`git index-pack`, which accepts it: `cat-file -s` → 104857600), copied into
 * a Workspace, a branch `bomb` whose tree holds the delta blob as z.bin (as a hostile remote would serve it);
 * then `git cat-file -s <blob>` and `git checkout bomb` in the Workspace, compared with the loose-object zlib
 * bomb of attack6 (refused with "object too large").
 * Held: the same object stored loose (attack6) is refused; the pack's base blob itself reads fine.
 *
 * Found (high — the limit exists because a Durable Object has 128 MB: a 300-byte delta makes a 100 MB object
 * (the delta can name up to 4 GiB), held whole more than once, so one hostile repository resets the object on
 * every checkout; measured here: cat-file -s grew heap + array buffers by 253,762,889 bytes for one 100 MiB
 * object; 1 of 1 runs).
 * Suggested fix: src/git (scripts/gen-git.mjs patch of isomorphic-git's applyDelta / GitPackIndex.readSlice):
 * read the delta's declared target size (the second varint) and refuse with objectTooLarge(targetSize) when it
 * passes GIT_MAX_OBJECT_BYTES, before any chunk is copied — in readSlice and in fromPack's resolveInflated.
 *
 * Fixed: scripts/gen-git.mjs (marker GP) — applyDelta is git's patch_delta: it reads the delta's declared base and
 * result sizes (exact varints) and refuses a result over GIT_MAX_OBJECT_BYTES with objectTooLarge(size) (set by
 * src/git/load.ts) before it allocates a byte, in readSlice and in fromPack's resolveInflated alike (both call it);
 * it also refuses a base of another size, copies past the base's end, inserts past the delta's end, opcode 0 and a
 * result not of the declared size. Siblings in test/node/fix30/git-pack-deltas.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { writeCommit } from "../git/attack-helpers.js";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";
import { header, ofsEncode, varint } from "../git/pack-helpers.js";

afterAll(cleanupScratch);

const BASE = 1024 * 1024;
const COPIES = 100;
const SIZE = BASE * COPIES;

function bombPack(): Buffer {
  const base = Buffer.alloc(BASE, "a");
  // copy op: offset 0 (no offset bytes), size 0x100000 → third size byte 0x10
  const ops: number[] = [];
  for (let i = 0; i < COPIES; i++) ops.push(0x80 | 0x40, 0x10);
  const delta = Buffer.from([...varint(BASE), ...varint(SIZE), ...ops]);
  const head = Buffer.alloc(12);
  head.write("PACK", 0, "latin1");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(2, 8);
  const first = Buffer.concat([header(3, base.length), deflateSync(base)]);
  const second = Buffer.concat([header(6, delta.length), ofsEncode(first.length), deflateSync(delta)]);
  const body = Buffer.concat([head, first, second]);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

describe("attack30c: an ofs-delta that expands past GIT_MAX_OBJECT_BYTES", () => {
  it("cat-file -s and checkout refuse the 100 MiB delta blob as they refuse the loose one", { timeout: 300_000 }, async () => {
    const disk = committedRepo({ "a.txt": "a\n" });
    mkdirSync(`${disk}/.git/objects/pack`, { recursive: true });
    const pack = bombPack();
    const sha = createHash("sha1").update(pack.subarray(0, pack.length - 20)).digest("hex");
    writeFileSync(`${disk}/.git/objects/pack/pack-${sha}.pack`, pack);
    execFileSync("git", ["index-pack", `.git/objects/pack/pack-${sha}.pack`], { cwd: disk });
    const big = createHash("sha1").update(Buffer.concat([Buffer.from(`blob ${SIZE}\0`), Buffer.alloc(SIZE, "a")])).digest("hex");
    expect(realGit(disk, "cat-file", "-s", big).trim()).toBe(String(SIZE));
    const base = realGit(disk, "rev-parse", "HEAD").trim();
    const aBlob = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
    const t = await workspaceCopy(disk);
    await writeCommit(t.ws, t.dir, "bomb", [{ mode: "100644", name: "a.txt", oid: aBlob }, { mode: "100644", name: "z.bin", oid: big }], base);

    const refused = (op: string) => ({
      stdout: "",
      stderr: `git ${op}: object too large: it inflates to ${SIZE} bytes, over the limit of 67108864 bytes (GIT_MAX_OBJECT_BYTES); the Workspace's git does not read objects this large\n`,
      exitCode: 1,
    });
    const size = await peak(() => t.git.cli({ argv: ["cat-file", "-s", big], cwd: t.dir }));
    const checkout = await peak(() => t.git.cli({ argv: ["checkout", "bomb"], cwd: t.dir }));
    const written = await t.ws.fs.stat(`${t.dir}/z.bin`).then((s) => s.size, () => "absent");
    expect(size.value).toEqual(refused("cat-file")); // Was: { stdout: "104857600\n", stderr: "", exitCode: 0 }, heap +253 MB
    expect(checkout.value).toEqual(refused("checkout")); // Was: exit 0, "Switched to branch 'bomb'"
    expect(written).toBe("absent"); // Was: 104857600 (the whole object written)
  });
});
