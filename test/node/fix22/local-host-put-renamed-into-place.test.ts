/**
 * Fix22 FCD2 (leftover of attack22c/container-push-enospc-torn-file-pulled-over-workspace): the local container
 * host's test-support `PUT /containers/<name>/files?path=<rel>` (container/local-host.mjs) wrote the body in place
 * (`open "w"`, then the body): a disk that fills up part way (ENOSPC), a client that goes away mid-body, or a host
 * that dies left a torn file — a prefix of the new bytes, the old ones gone — where the daemon's scan then found it
 * and the pull copied it into the Workspace.
 *
 * Tried: a local host (`startLocalHost`, real daemons) whose root is a 64 KiB tmpfs (root only; skipped elsewhere);
 * PUT old.txt (4,000 bytes), PUT a 40,000-byte filler, PUT old.txt again with 30,000 bytes.
 * Found (before): the second PUT answered 500, and old.txt held the first 12 KiB or so of the new bytes.
 *
 * Fixed: the PUT goes through the daemon's own `writeWhole` (container/lib/sync.mjs, exported): the body streams into
 * `.ws-sync-write-<16 hex>` beside the file, renamed into place once it is all written; on any failure the temporary
 * is removed and the old file stays whole (bytes, inode, mode). The answer is 507 with the code and the path for
 * ENOSPC/EDQUOT. Siblings: a fifo there is replaced (the in-place open blocked on it), a hard link's other names keep
 * their bytes, an existing file keeps its mode unless `mode` is given, a body cut off mid-way leaves the old file.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalHost, type LocalHost } from "../../../container/local-host.mjs";
import { tinyDisk } from "../container/tiny-disk.js";

const probe = tinyDisk();
probe?.release();

const SECRET = "fix22-put-secret";
/** The names in `dir` (sorted). */
const names = (dir: string): string[] => fs.readdirSync(dir).sort();

/** A local host over `root` with container `box` started; its mount point. */
async function hostOn(root: string): Promise<{ host: LocalHost; mountPoint: string; url: (rel: string, more?: string) => string }> {
  const host = await startLocalHost({ root });
  const res = await fetch(`${host.url}/containers/box/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ env: { COMPUTERD_SECRET: SECRET } }) });
  const started = (await res.json()) as { mountPoint: string };
  expect(res.status, JSON.stringify(started)).toBe(200);
  return { host, mountPoint: started.mountPoint, url: (rel, more = "") => `${host.url}/containers/box/files?path=${encodeURIComponent(rel)}${more}` };
}
const put = async (url: string, body: string | Uint8Array): Promise<[number, unknown]> => {
  const res = await fetch(url, { method: "PUT", body });
  return [res.status, await res.json()];
};

describe("fix22: the local host's PUT writes a new file renamed into place", () => {
  (probe ? it : it.skip)("ENOSPC: 507, the old file stays whole (bytes, inode, mode), no new file, no temporary left", { timeout: 60_000 }, async () => {
    const disk = tinyDisk()!;
    let host: LocalHost | undefined;
    try {
      const h = await hostOn(disk.dir);
      host = h.host;
      expect(await put(h.url("old.txt", "&mode=640"), "o".repeat(4000))).toEqual([200, { written: 4000 }]);
      const before = fs.statSync(path.join(h.mountPoint, "old.txt"));
      expect(await put(h.url("filler"), new Uint8Array(40_000))).toEqual([200, { written: 40_000 }]);
      expect(await put(h.url("old.txt"), "n".repeat(30_000))).toEqual([507, { error: "ENOSPC: no space left on device (old.txt)" }]);
      expect(await put(h.url("new.txt"), "n".repeat(30_000))).toEqual([507, { error: "ENOSPC: no space left on device (new.txt)" }]);
      const after = fs.statSync(path.join(h.mountPoint, "old.txt"));
      expect({ bytes: fs.readFileSync(path.join(h.mountPoint, "old.txt"), "utf8"), ino: after.ino, mode: after.mode & 0o7777 }).toEqual({ bytes: "o".repeat(4000), ino: before.ino, mode: 0o640 });
      expect(names(h.mountPoint)).toEqual(["filler", "old.txt"]);
      // Once there is room, the same PUT replaces it (its mode kept).
      fs.rmSync(path.join(h.mountPoint, "filler"));
      expect(await put(h.url("old.txt"), "n".repeat(30_000))).toEqual([200, { written: 30_000 }]);
      expect(fs.statSync(path.join(h.mountPoint, "old.txt")).mode & 0o7777).toBe(0o640);
      expect(names(h.mountPoint)).toEqual(["old.txt"]);
    } finally {
      await host?.close();
      disk.release();
    }
  });

  describe("on an ordinary disk", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fix22-put-"));
    let h: Awaited<ReturnType<typeof hostOn>>;
    beforeAll(async () => {
      h = await hostOn(path.join(tmp, "containers"));
    });
    afterAll(async () => {
      await h?.host.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it("a body cut off mid-way leaves the old file whole and no temporary", async () => {
      const dir = path.join(h.mountPoint, "cut");
      fs.mkdirSync(dir);
      const file = path.join(dir, "cut.txt");
      fs.writeFileSync(file, "old bytes\n");
      const target = new URL(h.url("cut/cut.txt"));
      await new Promise<void>((resolve) => {
        const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: "PUT", headers: { "content-length": "100000" } });
        req.on("error", () => resolve());
        req.write("x".repeat(50_000), () => setTimeout(() => (req.destroy(), resolve()), 300));
      });
      // The host notices the abort; give it a moment (seconds at most on a loaded machine).
      for (let i = 0; i < 100 && names(dir).length > 1; i++) await new Promise((r) => setTimeout(r, 50));
      expect(fs.readFileSync(file, "utf8")).toBe("old bytes\n");
      expect(names(dir)).toEqual(["cut.txt"]);
    });

    it("a fifo there is replaced (never opened for writing, which blocked); a hard link's other names keep their bytes", async () => {
      execFileSync("mkfifo", [path.join(h.mountPoint, "fifo")]);
      expect(await put(h.url("fifo"), "now a file")).toEqual([200, { written: 10 }]);
      expect(fs.lstatSync(path.join(h.mountPoint, "fifo")).isFile()).toBe(true);
      expect(fs.readFileSync(path.join(h.mountPoint, "fifo"), "utf8")).toBe("now a file");
      const outside = path.join(tmp, "outside.txt");
      fs.writeFileSync(outside, "outside");
      fs.linkSync(outside, path.join(h.mountPoint, "hard"));
      expect(await put(h.url("hard"), "new")).toEqual([200, { written: 3 }]);
      expect(fs.readFileSync(outside, "utf8")).toBe("outside");
      expect(fs.readFileSync(path.join(h.mountPoint, "hard"), "utf8")).toBe("new");
    });

    it("an existing file keeps its mode unless mode is given; a new one is 0644 less the umask, or mode exactly", async () => {
      const file = path.join(h.mountPoint, "mode-kept");
      fs.writeFileSync(file, "v1");
      fs.chmodSync(file, 0o751);
      expect(await put(h.url("mode-kept"), "v2")).toEqual([200, { written: 2 }]);
      expect(fs.statSync(file).mode & 0o7777).toBe(0o751);
      expect(await put(h.url("mode-kept", "&mode=600"), "v3")).toEqual([200, { written: 2 }]);
      expect(fs.statSync(file).mode & 0o7777).toBe(0o600);
      expect(await put(h.url("mode-new/x", "&mode=0666"), "")).toEqual([200, { written: 0 }]);
      expect(fs.statSync(path.join(h.mountPoint, "mode-new/x")).mode & 0o7777).toBe(0o666);
      const ref = path.join(tmp, "ref");
      fs.writeFileSync(ref, "", { mode: 0o644 });
      expect(await put(h.url("mode-new/y"), "y")).toEqual([200, { written: 1 }]);
      expect(fs.statSync(path.join(h.mountPoint, "mode-new/y")).mode & 0o7777).toBe(fs.statSync(ref).mode & 0o7777);
      expect(names(path.join(h.mountPoint, "mode-new"))).toEqual(["x", "y"]);
    });
  });
});
