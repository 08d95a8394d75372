/**
 * Issue 20, sixteenth attack run: GIT_MAX_PACK_BYTES (16 MiB, src/git/limits.ts) bounds ONE response; concurrent
 * clones (or fetches/pulls of different repositories) each take their own 16 MiB, so their sum is unbounded.
 * Tried: a smart-HTTP server on 127.0.0.1 that advertises a branch and answers each `git-upload-pack` with 15 MiB
 * of side-band pack data (under the bound), then stays silent with the connection open; ten
 * `workspace.git.clone({ dir: "/c<i>", url, signal })` started at once (what `Promise.all` of ws:git clones in
 * one run does: the repository lock orders operations on ONE repository only), heap + array buffers sampled
 * until the server had sent everything, then the signal aborted. Held: each response stops at its own bound
 * (attack15b), the abort ends all ten at once with ECANCELED and each clone removes the folder it made.
 * Found (medium; a Durable Object has 128 MB — src/git/limits.ts chose 16 MiB so that "a clone's live memory"
 * (about 5× its pack: 16 MiB → 86 MiB) fits in it): nothing bounds the bytes held by downloads in flight
 * together — the ten clones held 150 MiB of responses and grew heap + array buffers by 233 MiB (rss ~400 MB)
 * in the probe run, and passed 128 MiB within ~5 s in 3 of 3 runs of this test (which stops sampling there). By the module's own figures, TWO concurrent clones of honest 16 MiB packs peak at
 * ~170 MiB, so the bound protects the object only when operations run one at a time.
 * Suggested fix: one budget per Workspace (or per isolate) shared by every boundedHttp in flight — reserve as
 * the body arrives, release when the operation ends — failing E<OP>FAIL "response too large" (or queueing
 * the download, one network operation at a time per Workspace) once the sum passes GIT_MAX_PACK_BYTES;
 * document it next to maxResponseBytes in docs/git.md "Performance and limits".
 * Fixed: a client's network operations (clone, fetch, pull, push) run one at a time, in call order, whatever
 * their repositories (src/git/client.ts #networkTurn); one waiting whose signal aborts stops at once (ECANCELED
 * "it did not start, so nothing changed"). Here the first clone takes its 15 MiB and waits; the nine behind it
 * never start.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { GIT_MAX_PACK_BYTES } from "../../../src/git/index.js";
import { cleanupScratch, newWorkspace, rejection } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;

function pkt(data: string | Buffer): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

/** Advertises one branch; answers each upload-pack with `bytes` of side-band pack data, then stays silent, open. */
async function stallingServer(bytes: number): Promise<{ url: string; served(): number; close(): void }> {
  let served = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
      const oid = "a".repeat(40);
      res.end(Buffer.concat([pkt("# service=git-upload-pack\n"), Buffer.from("0000"), pkt(`${oid} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main\n`), pkt(`${oid} refs/heads/main\n`), Buffer.from("0000")]));
      return;
    }
    req.resume();
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
    res.write(pkt("NAK\n"));
    const chunk = pkt(Buffer.concat([Buffer.from([1]), Buffer.alloc(65515, 0x50)]));
    let sent = 0;
    const pump = () => {
      while (sent + chunk.length <= bytes) {
        sent += chunk.length;
        served += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`,
    served: () => served,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

it("ten concurrent clones of 15 MiB responses hold under 128 MiB together (the per-response bound is not per object)", { timeout: 60_000 }, async () => {
  expect(GIT_MAX_PACK_BYTES).toBe(16 * MiB);
  const server = await stallingServer(15 * MiB);
  const controller = new AbortController();
  try {
    const { ws, git } = newWorkspace();
    const base = process.memoryUsage();
    const n = 10;
    const t0 = Date.now();
    const clones = Array.from({ length: n }, (_, i) => rejection(git.clone({ dir: `/c${i}`, url: server.url, signal: controller.signal })));
    let grew = 0;
    while (Date.now() - t0 < 15_000) {
      await new Promise((r) => setTimeout(r, 100));
      const m = process.memoryUsage();
      grew = Math.max(grew, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
      // Everything sent (and, a moment later, read), or past the object's memory already.
      if ((server.served() >= n * 15 * MiB - n * 65520 && Date.now() - t0 > 3000) || grew >= 128 * MiB) break;
    }
    controller.abort();
    const results = await Promise.all(clones);
    for (const result of results) expect(result?.code === "ECANCELED" || result?.code === "ECLONEFAIL").toBe(true);
    // One clone at a time: the first took its 15 MiB and waited; the nine behind it never started.
    expect(results[0]?.code).toBe("ECANCELED");
    expect(results[0]?.message).toMatch(/^git clone cancelled: .*; it removed \/c0, which it had made$/);
    for (const result of results.slice(1)) {
      expect(result?.code).toBe("ECANCELED");
      expect(result?.message).toMatch(/^git clone cancelled: .*; it did not start, so nothing changed$/);
    }
    expect(server.served()).toBeLessThanOrEqual(15 * MiB);
    for (let i = 0; i < n; i++) expect(await ws.fs.lstat(`/c${i}`).then(() => "there", (e: { code?: string }) => e.code)).toBe("ENOENT");
    // Today: ~233 MiB (150 MiB of responses held at once).
    expect(grew).toBeLessThan(128 * MiB);
  } finally {
    server.close();
  }
});
