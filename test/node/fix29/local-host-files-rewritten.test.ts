// Issue 20, run 29 (lead): the local container host's `GET /containers/<name>/files` of a file that is being
// rewritten (truncated, then written, as a daemon preload's `writeFileSync` every 50 ms does in
// test/workers/attack20c/container-connect-ignore-check-throws-leaves-session.test.ts) took the content-length from
// stat() and then streamed the file: a read after the truncation ended the response short of its length, and the
// client saw "Network connection lost" (that test failed once so in CI). Now the file is read once from one handle and
// sent with the length read. Every answer here must arrive whole, its content-length the length of what was read.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startLocalHost, type LocalHost } from "../../../container/local-host.mjs";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "local-host-rewrite-"));
let host: LocalHost;

beforeAll(async () => {
  host = await startLocalHost({ root: path.join(tmp, "containers"), relayWaitMs: 200 });
});

afterAll(async () => {
  await host?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("a file rewritten while it is read is answered whole, never short of its content-length", { timeout: 60_000 }, async () => {
  const name = `rewrite-${process.pid}`;
  const started = await fetch(`${host.url}/containers/${name}/start`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(started.status).toBe(200);
  const { mountPoint } = (await started.json()) as { mountPoint: string };
  const file = path.join(mountPoint, ".count");
  const contents = ["7", "x".repeat(300_000)];
  fs.writeFileSync(file, contents[1]!);
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      fs.writeFileSync(file, contents[i % 2]!); // truncate, then write: as the daemon preload's writeFileSync
      await new Promise((r) => setImmediate(r));
    }
  })();
  const seen = new Set<string>();
  try {
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${host.url}/containers/${name}/files?path=.count`);
      expect(res.status).toBe(200);
      const body = await res.text(); // rejects ("terminated" / connection lost) when the body ends short
      // The bytes one read found (a read racing a rewrite may mix an old and a new content — that is what the file
      // held as it was read), all of them: the length announced is the length sent.
      expect(body).toMatch(/^[7x]*$/);
      const length = res.headers.get("content-length");
      if (length !== null) expect(Number(length)).toBe(body.length);
      seen.add(body.length > 10 ? "long" : body);
    }
  } finally {
    stop = true;
    await writer;
    await (await fetch(`${host.url}/containers/${name}/stop`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ signal: "SIGKILL" }) })).body?.cancel();
  }
  expect(seen.size).toBeGreaterThan(1); // the file did change under the reads
});
