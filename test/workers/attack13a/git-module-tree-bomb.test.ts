/**
 * Issue 20, thirteenth attack run: `ws:git` checkout of a "git bomb" (a tree whose entries all name ONE subtree,
 * level after level: a few hundred bytes of objects that expand to fan^depth files) written by hand by code in a
 * JavaScript run (loose objects are plain files under its root), then `cli({ argv: ["checkout", "bomb"] })`, the
 * run killed (`handle.kill()`) once the checkout is under way (a timeout does the same).
 *
 * Tried: depth 2 and 3 (100 and 1,000 files: checked out whole, ~2 ms a file); depth 4 with the run's timeout
 * passing mid-checkout. Found (high — unbounded storage and CPU from a tiny input, and it cannot be stopped):
 * - nothing bounds the expansion: object-size limits (GIT_MAX_OBJECT_BYTES) see only ~100-byte trees, and a
 *   checkout writes every path; depth 8 of fan 10 is 10^8 files from about 1 KB of objects;
 * - the checkout ignores the host call's `ctx.signal`: the run is cancelled (exit 130) and the Durable Object goes
 *   on writing files into the Workspace afterwards — no kill, timeout or close reaches it, and the object is busy
 *   with it meanwhile. Measured (fan 8, depth 4): killed at 254 entries, the run settled when 3,163 existed,
 *   4,372 three seconds later (and with a 4 s timeout instead of a kill, fan 10: settled 15 s late at 469
 *   entries, 6,987 twelve seconds later).
 * Reproduced 3 of 3.
 * Fix: stop git operations at `ctx.signal` (check it between files in checkout/reset/stash/merge), and bound a
 * checkout's expansion (for example refuse a tree that expands past a documented number of entries, or count
 * entries while walking and stop with a clear error) — both for ws:git and workspace.git.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

const ROOT = "/workspace/proj";
const SOURCE = `import { cli } from "ws:git"; import { writeFile, mkdir } from "node:fs/promises";
  const enc = new TextEncoder();
  async function obj(type, body) {
    const head = enc.encode(type + " " + body.length + "\\0");
    const all = new Uint8Array(head.length + body.length); all.set(head); all.set(body, head.length);
    const raw = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
    const hex = [...raw].map((b) => b.toString(16).padStart(2, "0")).join("");
    const z = new Uint8Array(await new Response(new Blob([all]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
    await mkdir(".git/objects/" + hex.slice(0, 2), { recursive: true });
    await writeFile(".git/objects/" + hex.slice(0, 2) + "/" + hex.slice(2), z);
    return { hex, raw };
  }
  /** A tree of n entries e0…e<n-1>, every one naming the same object. */
  async function fan(mode, child, n) {
    const parts = [];
    for (const name of Array.from({ length: n }, (_, i) => "e" + i).sort()) parts.push(...enc.encode(mode + " " + name + "\\0"), ...child.raw);
    return obj("tree", new Uint8Array(parts));
  }
  export default async ({ fanOut, depth }) => {
    await cli({ argv: ["init", "-b", "main"] });
    let t = await fan("100644", await obj("blob", enc.encode("x")), fanOut);
    for (let d = 1; d < depth; d++) t = await fan("40000", t, fanOut);
    const c = await obj("commit", enc.encode("tree " + t.hex + "\\nauthor a <a@a> 0 +0000\\ncommitter a <a@a> 0 +0000\\n\\nx\\n"));
    await writeFile(".git/refs/heads/bomb", c.hex + "\\n");
    return cli({ argv: ["checkout", "bomb"] });
  };`;

it.fails("a checkout stops when its run is killed: nothing is written after the run has settled", { timeout: 120_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: ROOT, modules: { "ws:git": createGitModule() } })],
      git: createGitClient(),
      defaultGitIdentity: { name: "R", email: "r@e.com" },
    });
    await ws.fs.mkdir(ROOT, { recursive: true });
    const count = async () => (await ws.fs.find(ROOT)).length;
    // 8^4 = 4,096 files from ~400 bytes of trees; the run is killed once the checkout is under way
    const handle = await ws.runtime.exec(SOURCE, { encoding: "utf8", input: { fanOut: 8, depth: 4 } });
    for (let i = 0; i < 300 && (await count()) < 100; i++) await new Promise((resolve) => setTimeout(resolve, 200));
    const atKill = await count();
    await handle.kill();
    const result = await handle.result();
    const atSettle = await count();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const later = await count();
    // let the checkout run out before the Workspace closes (it cannot be stopped)
    for (let last = -1, now = later; now !== last; ) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      [last, now] = [now, await count()];
    }
    await ws.close();
    return { atKill, exit: result.exitCode, stderr: result.stderr, atSettle, later };
  });
  expect(out.atKill).toBeGreaterThanOrEqual(100);
  expect({ exit: out.exit, stderr: out.stderr }).toEqual({ exit: 130, stderr: "Execution cancelled.\n" });
  // Found: later > atSettle (e.g. 469 → 1,894): the Workspace keeps changing after the run has ended.
  expect(out.later).toBe(out.atSettle);
});
