/**
 * Issue 20, seventeenth attack run: indexing a downloaded pack (clone, fetch, pull: isomorphic-git's
 * GitPackIndex.fromPack, run on the bytes boundedHttp let in) inflates and resolves every delta with no bound on
 * the bytes it makes or keeps, and it does not look at the operation's signal. GIT_MAX_PACK_BYTES bounds the
 * (compressed) download and GIT_MAX_OBJECT_BYTES each object; a pack of tiny deltas ("copy all of the previous
 * object, add one byte") makes N objects of the base's size from a few bytes each — a delta bomb.
 * Tried: a hostile smart-HTTP server on 127.0.0.1 that advertises one commit and answers upload-pack with a pack it
 * builds: the commit, its tree, one blob of 8 MiB of 'a' (compressed to ~8 KB), then N ofs-deltas each on the one
 * before (12–30 bytes each); `workspace.git.clone({ dir, url, signal })`, heap + array buffers sampled (attack6
 * `peak`), and (b) the signal aborted 500 ms in. Held: the clone is right (one commit, big.bin of 8 MiB); the
 * download is ~9 KB; each object is within GIT_MAX_OBJECT_BYTES; an aborted clone removes what it made.
 * Found (high: a hostile server ends the Durable Object with a download far inside every bound): (a) N = 40 (a
 * 9,254-byte pack): the clone grows memory by 397 MiB (416,200,108–417,072,152 bytes, 3 of 3 runs, ~7 s; N = 200, a 12,931-byte pack:
 * 1,686 MiB, 32.5 s) — the resolved objects are kept (isomorphic-git's readSlice stores each resolved object
 * deeper than 3 in the index's offsetCache) and each is copied whole per step; (b) the abort is not seen
 * while indexing: with N = 200 the clone settled 31 s after the signal aborted (probe), here N = 60 settled
 * 10,126 ms after it (ECANCELED then, /c removed). Memory and time grow with N × object size, not with the download.
 * Suggested fix: bound what indexing inflates: count the bytes every resolved object makes (inflated + delta
 * results) against a documented bound (e.g. GIT_MAX_INDEX_INFLATE_BYTES, a few × GIT_MAX_PACK_BYTES, or N ×
 * GIT_MAX_OBJECT_BYTES for a small N), failing E<OP>FAIL "pack expands too much: …"; bound offsetCache (LRU by
 * bytes) in the generated bundle (scripts/gen-git.mjs patch); check the signal in fromPack's loop (its onProgress
 * callback is awaited per object: throwIfCancelled there).
 * Fixed: indexing counts every object it inflates and every delta it resolves against GIT_MAX_INDEX_INFLATE_BYTES
 * (512 MiB; past it E<OP>FAIL "pack expands too much: …") and checks the operation's signal per object (the
 * resolve loop no longer swallows either); each pack index's offsetCache is an LRU of GIT_PACK_DELTA_CACHE_BYTES
 * (16 MiB), and while indexing keeps every object it resolves, so a delta chain is resolved once per link
 * (scripts/gen-git.mjs patches, src/git/operation.ts indexBounds). N = 40 now clones in ~7 s; (c) N = 70 fails ECLONEFAIL (exact message), /c removed.
 */
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";
import { GIT_MAX_INDEX_INFLATE_BYTES } from "../../../src/git/index.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
const sha1 = (b: Buffer) => createHash("sha1").update(b).digest();
function pkt(data: string | Buffer): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}
const oidOf = (type: string, body: Buffer) => sha1(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]));
function header(type: number, size: number): Buffer {
  const out = [];
  let byte = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    out.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  out.push(byte);
  return Buffer.from(out);
}
function ofs(off: number): Buffer {
  const bytes = [off & 0x7f];
  off = Math.floor(off / 128);
  while (off > 0) {
    off--;
    bytes.unshift(0x80 | (off & 0x7f));
    off = Math.floor(off / 128);
  }
  return Buffer.from(bytes);
}
function varint(n: number): Buffer {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}
/** A pack: commit → tree → one blob of `size` bytes, then `chain` ofs-deltas each on the one before (+1 byte each). */
function chainPack(size: number, chain: number): { pack: Buffer; commit: string } {
  const blob = Buffer.alloc(size, 0x61);
  const tree = Buffer.concat([Buffer.from("100644 big.bin\0"), oidOf("blob", blob)]);
  const commitBody = Buffer.from(`tree ${oidOf("tree", tree).toString("hex")}\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nm\n`);
  const parts: Buffer[] = [];
  let at = 12;
  const add = (entry: Buffer) => {
    const start = at;
    parts.push(entry);
    at += entry.length;
    return start;
  };
  add(Buffer.concat([header(1, commitBody.length), deflateSync(commitBody)]));
  add(Buffer.concat([header(2, tree.length), deflateSync(tree)]));
  let prev = add(Buffer.concat([header(3, blob.length), deflateSync(blob)]));
  let prevSize = size;
  for (let k = 0; k < chain; k++) {
    // copy(offset 0, prevSize) then insert "x"
    const s = prevSize;
    const sizeBytes = [s & 0xff, (s >> 8) & 0xff, (s >> 16) & 0xff];
    let flags = 0x80;
    const args: number[] = [];
    sizeBytes.forEach((b, i) => {
      if (b) {
        flags |= 0x10 << i;
        args.push(b);
      }
    });
    const delta = Buffer.concat([varint(s), varint(s + 1), Buffer.from([flags, ...args, 0x01, 0x78])]);
    const start = at;
    add(Buffer.concat([header(6, delta.length), ofs(start - prev), deflateSync(delta)]));
    prev = start;
    prevSize = s + 1;
  }
  const count = 3 + chain;
  const head = Buffer.alloc(12);
  head.write("PACK");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  const body = Buffer.concat([head, ...parts]);
  return { pack: Buffer.concat([body, sha1(body)]), commit: oidOf("commit", commitBody).toString("hex") };
}
async function serve(pack: Buffer, oid: string): Promise<{ url: string; close(): void }> {
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
      res.end(Buffer.concat([pkt("# service=git-upload-pack\n"), Buffer.from("0000"), pkt(`${oid} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main\n`), pkt(`${oid} refs/heads/main\n`), Buffer.from("0000")]));
      return;
    }
    req.resume();
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
    const chunks = [pkt("NAK\n")];
    for (let i = 0; i < pack.length; i += 65000) chunks.push(pkt(Buffer.concat([Buffer.from([1]), pack.subarray(i, i + 65000)])));
    res.end(Buffer.concat([...chunks, Buffer.from("0000")]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`, close: () => { server.closeAllConnections(); server.close(); } };
}
describe("attack17b: a clone of a delta bomb", () => {
  it("(a) 40 one-byte deltas on an 8 MiB blob (a 9 KB pack) clone under 128 MiB of memory", { timeout: 60_000 }, async () => {
    const { pack, commit } = chainPack(8 * MiB, 40);
    expect(pack.length).toBeLessThan(16 * 1024);
    const server = await serve(pack, commit);
    try {
      const { ws, git } = newWorkspace();
      await git.init({ dir: "/warm" });
      const { grew } = await peak(() => git.clone({ dir: "/c", url: server.url }));
      expect((await git.log({ dir: "/c" })).length).toBe(1);
      expect((await ws.fs.stat("/c/big.bin")).size).toBe(8 * MiB);
      expect(grew).toBeLessThan(128 * MiB);
    } finally {
      server.close();
    }
  });

  it("(c) 70 one-byte deltas on an 8 MiB blob (~590 MiB of objects) fail ECLONEFAIL at GIT_MAX_INDEX_INFLATE_BYTES, nothing left", { timeout: 60_000 }, async () => {
    expect(GIT_MAX_INDEX_INFLATE_BYTES).toBe(512 * MiB);
    const { pack, commit } = chainPack(8 * MiB, 70);
    const server = await serve(pack, commit);
    try {
      const { ws, git } = newWorkspace();
      const { value: error, grew } = await peak(() => git.clone({ dir: "/c", url: server.url }).then(() => undefined, (e: { code?: string; message?: string }) => e));
      expect(error?.code).toBe("ECLONEFAIL");
      expect(error?.message).toBe(
        "git clone failed: pack expands too much: indexing it made more than 536870912 bytes of objects (the limit, GIT_MAX_INDEX_INFLATE_BYTES); " +
          "the Workspace's git does not index a pack whose objects and deltas inflate to this much: clone or fetch with depth: 1, or fewer commits at a time",
      );
      expect(await ws.fs.lstat("/c").then(() => true, () => false)).toBe(false);
      expect(grew).toBeLessThan(128 * MiB);
    } finally {
      server.close();
    }
  });

  it("(b) a clone whose signal aborts while it indexes settles ECANCELED within 2 s", { timeout: 60_000 }, async () => {
    const { pack, commit } = chainPack(8 * MiB, 60);
    const server = await serve(pack, commit);
    try {
      const { ws, git } = newWorkspace();
      await git.init({ dir: "/warm" });
      const ac = new AbortController();
      const started = Date.now();
      let abortedAt = 0;
      setTimeout(() => {
        abortedAt = Date.now();
        ac.abort(new Error("stop"));
      }, 500);
      const outcome = await git.clone({ dir: "/c", url: server.url, signal: ac.signal }).then(
        () => "ok",
        (e: { code?: string }) => String(e.code),
      );
      const settled = Date.now();
      expect(abortedAt).toBeGreaterThan(started);
      expect(outcome).toBe("ECANCELED");
      expect(await ws.fs.lstat("/c").then(() => true, () => false)).toBe(false);
      expect(settled - abortedAt).toBeLessThan(2000);
    } finally {
      server.close();
    }
  });
});
