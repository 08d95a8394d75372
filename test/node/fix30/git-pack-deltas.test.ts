/**
 * Issue 20, run 30, fixer GP: siblings of test/node/attack30c/git-clone-self-delta-hangs.test.ts and
 * git-pack-delta-bypasses-object-limit.test.ts. Pack deltas are read as git 2.39.5 reads them (scripts/gen-git.mjs,
 * marker GP): applyDelta is git's patch_delta (declared sizes, bounds of every copy and insert, the result bounded
 * by GIT_MAX_OBJECT_BYTES before it is allocated), an ofs-delta's base lies strictly before it and after the pack
 * header, a delta chain is bounded (GIT_MAX_DELTA_DEPTH) and a base met twice is a cycle, indexing a download fails on
 * an object it cannot resolve (git's index-pack: `pack has bad object at offset N: …`) and on a truncated pack.
 * Every case here failed or hung before the fix, or (the controls) still works the same.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { GIT_MAX_DELTA_DEPTH, GIT_MAX_OBJECT_BYTES } from "../../../src/git/index.js";
import { within } from "../git/attack-helpers.js";
import { header, oidOf, ofsEncode, servePack, sha1, varint } from "../git/pack-helpers.js";
import { cleanupScratch, committedRepo, newWorkspace, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const whole = (type: number, body: Buffer) => Buffer.concat([header(type, body.length), deflateSync(body)]);
const ofsDelta = (distance: number, delta: Buffer) => Buffer.concat([header(6, delta.length), ofsEncode(distance), deflateSync(delta)]);
const refDelta = (base: Buffer, delta: Buffer) => Buffer.concat([header(7, delta.length), base, deflateSync(delta)]);
/** A pack of `entries` (whole encoded objects); `count` overrides the header's object count. */
function packOf(entries: Buffer[], count = entries.length): Buffer {
  const head = Buffer.alloc(12);
  head.write("PACK");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  const body = Buffer.concat([head, ...entries]);
  return Buffer.concat([body, sha1(body)]);
}

const BLOB = Buffer.from("hello\n");
const TREE = Buffer.concat([Buffer.from("100644 a.txt\0"), oidOf("blob", BLOB)]);
const COMMIT = Buffer.from(`tree ${oidOf("tree", TREE).toString("hex")}\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nm\n`);
const COMMIT_OID = oidOf("commit", COMMIT).toString("hex");
const BASICS = [whole(1, COMMIT), whole(2, TREE), whole(3, BLOB)];
const BLOB_AT = 12 + BASICS[0].length + BASICS[1].length;
const EXTRA_AT = BLOB_AT + BASICS[2].length;

/** A clone's pack: commit → tree → blob "hello\n" (at BLOB_AT), then `extra` (at EXTRA_AT). */
const clonePack = (...extra: Buffer[]) => packOf([...BASICS, ...extra]);

/** Clones `pack` into /c of a fresh Workspace: `{ ok }` or the error's code and message, and whether /c was left. */
async function cloneOf(pack: Buffer): Promise<{ ok?: true; code?: unknown; message?: string; left: boolean; cat?: unknown }> {
  const server = await servePack(pack, COMMIT_OID);
  const { ws, git } = newWorkspace();
  try {
    const out: { ok?: true; code?: unknown; message?: string; left: boolean } = await within(
      15_000,
      git.clone({ dir: "/c", url: server.url, timeoutMs: 10_000 }).then(
        () => ({ ok: true as const, left: true }),
        (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message, left: false }),
      ),
    );
    out.left = await ws.fs.lstat("/c").then(() => true, () => false);
    return out;
  } finally {
    server.close();
  }
}
const refused = (why: string) => ({ code: "ECLONEFAIL", message: `git clone failed: ${why}`, left: false });
const bad = (at: number, why: string) => refused(`pack has bad object at offset ${at}: ${why}`);

describe("fix30 GP: a downloaded pack's deltas are checked as git's index-pack checks them", () => {
  it("(control) an ofs-delta and a ref-delta that copy and insert clone, and read back", async () => {
    const delta = Buffer.from([6, 12, 0x90, 6, 6, ...Buffer.from("world\n")]); // copy(0, 6) + insert "world\n"
    const delta2 = Buffer.from([6, 3, 0x91, 1, 3]); // copy(1, 3): "ell"
    const server = await servePack(clonePack(ofsDelta(EXTRA_AT - BLOB_AT, delta), refDelta(oidOf("blob", BLOB), delta2)), COMMIT_OID);
    const { ws, git } = newWorkspace();
    try {
      await git.clone({ dir: "/c", url: server.url });
      const a = oidOf("blob", Buffer.from("hello\nworld\n")).toString("hex");
      const b = oidOf("blob", Buffer.from("ell")).toString("hex");
      expect(await git.cli({ argv: ["cat-file", "-p", a], cwd: "/c" })).toEqual({ stdout: "hello\nworld\n", stderr: "", exitCode: 0 });
      expect(await git.cli({ argv: ["cat-file", "-p", b], cwd: "/c" })).toEqual({ stdout: "ell", stderr: "", exitCode: 0 });
      expect(await ws.fs.readFile("/c/a.txt", "utf8")).toBe("hello\n");
    } finally {
      server.close();
    }
  });

  it("an ofs-delta whose base lies in the pack header, or before the pack, is out of bound", async () => {
    const delta = Buffer.from([6, 6, 0x90, 6]);
    // git index-pack: fatal: pack has bad object at offset N: delta base offset is out of bound
    expect(await cloneOf(clonePack(ofsDelta(EXTRA_AT - 4, delta)))).toEqual(bad(EXTRA_AT, "delta base offset is out of bound"));
    expect(await cloneOf(clonePack(ofsDelta(EXTRA_AT + 100, delta)))).toEqual(bad(EXTRA_AT, "delta base offset is out of bound"));
    // An encoding that overflowed 32-bit arithmetic to a small distance before.
    const huge = Buffer.concat([header(6, delta.length), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), deflateSync(delta)]);
    expect(await cloneOf(clonePack(huge))).toEqual(bad(EXTRA_AT, "delta base offset is out of bound"));
  });

  it("a ref-delta whose base is neither in the pack nor in the repository fails the clone (it was left out silently)", async () => {
    const missing = Buffer.alloc(20, 0xab);
    // git index-pack: fatal: pack has 1 unresolved delta
    expect(await cloneOf(clonePack(refDelta(missing, Buffer.from([6, 6, 0x90, 6]))))).toEqual(
      bad(EXTRA_AT, `its delta base ${"ab".repeat(20)} is neither in the pack nor in the repository`),
    );
  });

  it("a delta whose base size lies, that copies past its base or inserts past its end, or uses opcode 0, is refused", async () => {
    const on = (bytes: number[]) => cloneOf(clonePack(ofsDelta(EXTRA_AT - BLOB_AT, Buffer.from(bytes))));
    // git: error: delta replay has gone wild / fatal: pack has bad object at offset N: failed to apply delta
    expect(await on([5, 6, 0x90, 6])).toEqual(bad(EXTRA_AT, "failed to apply delta: it is based on 5 bytes but its base has 6"));
    expect(await on([6, 4, 0x91, 4, 4])).toEqual(bad(EXTRA_AT, "failed to apply delta: delta replay has gone wild")); // copy(4, 4) of 6 bytes
    expect(await on([6, 4, 0x04, 0x61, 0x62])).toEqual(bad(EXTRA_AT, "failed to apply delta: delta replay has gone wild")); // insert 4, 2 given
    expect(await on([6, 6, 0x90, 6, 0x01, 0x78])).toEqual(bad(EXTRA_AT, "failed to apply delta: delta replay has gone wild")); // more than declared
    expect(await on([6, 7, 0x90, 6])).toEqual(bad(EXTRA_AT, "failed to apply delta: delta replay has gone wild")); // less than declared
    expect(await on([6, 1, 0x00, 0x01, 0x61])).toEqual(bad(EXTRA_AT, "failed to apply delta: unexpected delta opcode 0"));
  });

  it("a delta that declares a result over GIT_MAX_OBJECT_BYTES is refused before it is built, ofs or ref", async () => {
    const size = GIT_MAX_OBJECT_BYTES + 1;
    const delta = Buffer.from([6, ...varint(size), 0x90, 6]);
    const tooLarge = refused(
      `object too large: it inflates to ${size} bytes, over the limit of 67108864 bytes (GIT_MAX_OBJECT_BYTES); the Workspace's git does not read objects this large`,
    );
    expect(await cloneOf(clonePack(ofsDelta(EXTRA_AT - BLOB_AT, delta)))).toEqual(tooLarge);
    expect(await cloneOf(clonePack(refDelta(oidOf("blob", BLOB), delta)))).toEqual(tooLarge);
    // 4 GiB declared (past 32-bit arithmetic) is refused as well.
    expect(await cloneOf(clonePack(ofsDelta(EXTRA_AT - BLOB_AT, Buffer.from([6, ...varint(2 ** 32), 0x90, 6]))))).toEqual(
      refused(tooLarge.message.replace(`${size} bytes,`, `${2 ** 32} bytes,`).replace("git clone failed: ", "")),
    );
  });

  it("a truncated pack is refused: an object missing, or one cut in its data", async () => {
    // git index-pack: fatal: early EOF / pack is truncated
    expect(await cloneOf(packOf(BASICS, 4))).toEqual(refused("pack is truncated: 1 of its objects are missing"));
    // Downloads cut 30 bytes short: the checksum and the end of the last object's data are missing.
    const short = clonePack();
    expect(await cloneOf(short.subarray(0, short.length - 30))).toEqual(refused("pack is truncated: 1 of its objects are missing"));
    const noise = Buffer.concat(Array.from({ length: 50 }, (_, i) => sha1(Buffer.from([i])))); // 1,000 incompressible bytes
    const long = clonePack(whole(3, noise));
    expect(await cloneOf(long.subarray(0, long.length - 30))).toEqual(refused(`pack is truncated: it ends inside the object at offset ${EXTRA_AT}`));
  });
});

/** A pack `.idx` (version 2) naming `entries` (oid hex → offset) for `pack`, whatever the objects there are. */
function idxOf(pack: Buffer, entries: [string, number][]): Buffer {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fanout = Buffer.alloc(1024);
  for (let i = 0; i < 256; i++) fanout.writeUInt32BE(sorted.filter(([oid]) => parseInt(oid.slice(0, 2), 16) <= i).length, i * 4);
  const offsets = Buffer.alloc(4 * sorted.length);
  sorted.forEach(([, at], i) => offsets.writeUInt32BE(at, i * 4));
  const body = Buffer.concat([Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]), fanout, ...sorted.map(([oid]) => Buffer.from(oid, "hex")), Buffer.alloc(4 * sorted.length), offsets, pack.subarray(-20)]);
  return Buffer.concat([body, sha1(body)]);
}

/** A Workspace copy of a one-commit repository whose .git also holds `pack` with the `.idx` naming `entries`. */
async function repoWithPack(pack: Buffer, entries: [string, number][]) {
  const disk = committedRepo({ "a.txt": "a\n" });
  mkdirSync(`${disk}/.git/objects/pack`, { recursive: true });
  const name = `${disk}/.git/objects/pack/pack-${pack.subarray(-20).toString("hex")}`;
  writeFileSync(`${name}.pack`, pack);
  writeFileSync(`${name}.idx`, idxOf(pack, entries));
  return workspaceCopy(disk);
}
const catFailed = (why: string) => ({ stdout: "", stderr: `git cat-file: ${why}\n`, exitCode: 1 });

describe("fix30 GP: reading a pack on disk bounds its delta chains", () => {
  it("a ref-delta on itself, and a cycle A → B → A, through a hostile .idx, fail at once", async () => {
    const X = "ab".repeat(20);
    const Y = "cd".repeat(20);
    const delta = Buffer.from([6, 6, 0x90, 6]);
    const self = await repoWithPack(packOf([whole(3, BLOB), refDelta(Buffer.from(X, "hex"), delta)]), [[X, 12 + whole(3, BLOB).length]]);
    const at = 12 + whole(3, BLOB).length;
    expect(await within(10_000, self.git.cli({ argv: ["cat-file", "-p", X], cwd: self.dir }))).toEqual(
      catFailed(`pack has bad object at offset ${at}: delta base cycle: the object is a delta on itself`),
    );
    const a = refDelta(Buffer.from(Y, "hex"), delta);
    const b = refDelta(Buffer.from(X, "hex"), delta);
    const cycle = await repoWithPack(packOf([whole(3, BLOB), a, b]), [[X, at], [Y, at + a.length]]);
    expect(await within(10_000, cycle.git.cli({ argv: ["cat-file", "-p", X], cwd: cycle.dir }))).toEqual(
      catFailed(`pack has bad object at offset ${at}: delta base cycle: the object is a delta on itself`),
    );
  });

  it("an .idx offset outside the pack's objects is refused", async () => {
    const X = "ab".repeat(20);
    const pack = packOf([whole(3, BLOB)]);
    const t = await repoWithPack(pack, [[X, pack.length - 10]]);
    expect(await t.git.cli({ argv: ["cat-file", "-p", X], cwd: t.dir })).toEqual(
      catFailed(`pack has bad object at offset ${pack.length - 10}: the offset is outside the pack's objects`),
    );
  });

  it(`a chain of ${GIT_MAX_DELTA_DEPTH} deltas reads; one more is refused (GIT_MAX_DELTA_DEPTH)`, { timeout: 120_000 }, async () => {
    // 8-byte blobs: each delta inserts its own 4-byte number and copies the last 4 bytes of its base.
    const base = Buffer.from("0000tail");
    const entries = [whole(3, base)];
    const starts = [12];
    let at = 12 + entries[0].length;
    const contents = [base];
    for (let i = 1; i <= GIT_MAX_DELTA_DEPTH + 1; i++) {
      const n = Buffer.alloc(4);
      n.writeUInt32BE(i);
      const entry = ofsDelta(at - starts[i - 1], Buffer.from([8, 8, 0x04, ...n, 0x91, 4, 4]));
      entries.push(entry);
      starts.push(at);
      contents.push(Buffer.concat([n, Buffer.from("tail")]));
      at += entry.length;
    }
    const oid = (i: number) => oidOf("blob", contents[i]).toString("hex");
    const last = GIT_MAX_DELTA_DEPTH + 1;
    const t = await repoWithPack(packOf(entries), [[oid(last - 1), starts[last - 1]], [oid(last), starts[last]]]);
    const ok = await t.git.cli({ argv: ["cat-file", "-p", oid(last - 1)], cwd: t.dir });
    expect(ok).toEqual({ stdout: contents[last - 1].toString("latin1"), stderr: "", exitCode: 0 });
    const t2 = await repoWithPack(packOf(entries), [[oid(last), starts[last]]]);
    expect(await t2.git.cli({ argv: ["cat-file", "-p", oid(last)], cwd: t2.dir })).toEqual(
      catFailed(`pack has bad object at offset ${starts[last]}: delta chain deeper than ${GIT_MAX_DELTA_DEPTH} deltas (GIT_MAX_DELTA_DEPTH)`),
    );
  });
});
