/**
 * Issue 20, thirtieth attack run: a pack object that is an ofs-delta on itself (offset 0) sends the clone's pack
 * indexing (isomorphic-git's GitPackIndex.readSlice, run by fromPack for every object listpack could not resolve)
 * into an endless async recursion — readSlice(start) → readSlice(start - 0) → … — that never charges the index
 * bounds nor looks at the signal, so `clone` never settles and memory grows until the isolate dies.
 *
 * Tried: a hostile smart-HTTP server on 127.0.0.1 (attack17b's shape) whose pack holds the commit, its tree, the
 * blob, and one extra ofs-delta object whose base offset is 0 (its own start); `git.clone({ dir, url, timeoutMs })`
 * and `git.clone({ signal })`. Real git 2.39.5 refuses the same pack at once (`git index-pack --stdin`: `fatal: pack has bad
 * object at offset 27: delta base offset is out of bound`, exit 128). The clone runs in a child process killed after
 * 20 s, since the loop also starves this process's timers (vitest's own test timeout never fires).
 * Held: the same pack without the self-based delta clones (the control test, same child set-up).
 *
 * Found (high — a hang with unbounded memory from a 300-byte download: timeoutMs and the signal are not seen,
 * the whole isolate's event loop is starved, so in a Durable Object every other request stalls too; 3 of 3 runs).
 * Suggested fix: scripts/gen-git.mjs patch of GitPackIndex.readSlice: refuse a delta whose base offset is 0 or
 * before the pack header (`delta base offset is out of bound`), bound readDepth (git: 10,000 … or a visited set of
 * starts), and charge the index bounds (signal) on each step of the recursion, so the clone fails ECLONEFAIL.
 *
 * Fixed: scripts/gen-git.mjs (marker GP) — readSlice reads an ofs-delta's base offset as git does and refuses one that
 * is not strictly before the object and after the pack header (`git clone failed: pack has bad object at offset <n>: delta
 * base offset is out of bound`); every read of a delta chain carries the chain (a base met twice is a cycle, deeper than
 * GIT_MAX_DELTA_DEPTH, 10,000, is refused) and charges the indexing bounds (signal) at each step; fromPack no longer
 * leaves an object it could not resolve out of the index but fails, as git's index-pack does, so the clone fails
 * ECLONEFAIL at once and removes /c. Siblings in test/node/fix30/git-pack-deltas.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { header, oidOf, servePack, sha1 } from "../git/pack-helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
/** commit → tree → blob "hello\n", then an ofs-delta whose base offset is 0 (itself). */
function selfDeltaPack(withSelf = true): { pack: Buffer; commit: string } {
  const blob = Buffer.from("hello\n");
  const tree = Buffer.concat([Buffer.from("100644 a.txt\0"), oidOf("blob", blob)]);
  const commitBody = Buffer.from(`tree ${oidOf("tree", tree).toString("hex")}\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nm\n`);
  const delta = Buffer.from([6, 6, 0x90, 6]); // source 6, target 6, copy(0, 6)
  const parts = [
    Buffer.concat([header(1, commitBody.length), deflateSync(commitBody)]),
    Buffer.concat([header(2, tree.length), deflateSync(tree)]),
    Buffer.concat([header(3, blob.length), deflateSync(blob)]),
    Buffer.concat([header(6, delta.length), Buffer.from([0x00]), deflateSync(delta)]),
  ].slice(0, withSelf ? 4 : 3);
  const head = Buffer.alloc(12);
  head.write("PACK");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(parts.length, 8);
  const body = Buffer.concat([head, ...parts]);
  return { pack: Buffer.concat([body, sha1(body)]), commit: oidOf("commit", commitBody).toString("hex") };
}
/**
 * Runs `git.clone({ dir: "/c", url, timeoutMs })` on a fresh Workspace in a child Node process (src bundled by
 * esbuild), because the hang is a microtask loop that also freezes this process's timers: the child is killed after
 * `killAfterMs`. Resolves with the clone's outcome line, or "killed".
 */
async function cloneInChild(url: string, timeoutMs: number, killAfterMs: number): Promise<{ outcome: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), "attack30c-"));
  const entry = `
    import { Workspace } from ${JSON.stringify(resolve(HERE, "../../../src/workspace.ts"))};
    import { nodeSqliteStorage } from ${JSON.stringify(resolve(HERE, "../../../src/storage/index.ts"))};
    import { createGitClient } from ${JSON.stringify(resolve(HERE, "../../../src/git/index.ts"))};
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@b" } });
    const out = await git.clone({ dir: "/c", url: process.argv[2], timeoutMs: Number(process.argv[3]) }).then(
      () => ({ ok: true }),
      (e) => ({ code: e.code, message: e.message }),
    );
    out.left = await ws.fs.lstat("/c").then(() => true, () => false);
    console.log(JSON.stringify(out));
    process.exit(0);
  `;
  writeFileSync(join(dir, "entry.mjs"), entry);
  await build({ entryPoints: [join(dir, "entry.mjs")], bundle: true, platform: "node", format: "esm", outfile: join(dir, "bundle.mjs"), logLevel: "silent", banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(dir, "bundle.mjs"), url, String(timeoutMs)], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("exit", () => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      done({ outcome: stdout.trim() || (stderr.trim() ? `stderr: ${stderr.trim().slice(0, 500)}` : "killed"), ms: Date.now() - started });
    });
  });
}

describe("attack30c: a pack whose ofs-delta is based on itself", () => {
  it("(control) the same pack without the self-based delta clones in the child", { timeout: 60_000 }, async () => {
    const { pack, commit } = selfDeltaPack(false);
    const server = await servePack(pack, commit);
    try {
      const { outcome } = await cloneInChild(server.url, 3_000, 20_000);
      expect(JSON.parse(outcome)).toEqual({ ok: true, left: true });
    } finally {
      server.close();
    }
  });

  it("clone fails ECLONEFAIL within its timeoutMs, nothing left", { timeout: 60_000 }, async () => {
    const { pack, commit } = selfDeltaPack();
    const server = await servePack(pack, commit);
    try {
      const { outcome, ms } = await cloneInChild(server.url, 3_000, 20_000);
      const parsed: unknown = outcome.startsWith("{") ? JSON.parse(outcome) : outcome;
      expect(parsed).toEqual({ code: "ECLONEFAIL", message: expect.stringMatching(/^git clone failed: /), left: false }); // Was: "killed" (no answer in 20 s)
      expect(ms).toBeLessThan(10_000);
    } finally {
      server.close();
    }
  });
});
