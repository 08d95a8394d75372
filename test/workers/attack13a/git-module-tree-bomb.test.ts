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
 * Fixed: git operations take a `signal` (ws:git passes the call's `ctx.signal`, `cli` hands it to every operation),
 * checked before each file a checkout, merge, reset, stash or clone's checkout reads, writes or removes, and before
 * an operation starts (`ECANCELED`, HEAD and the index left as they were); and a tree that expands past
 * GIT_MAX_TREE_ENTRIES (100,000 files and directories) is refused before anything is written (counted per distinct
 * tree, level by level, so a bomb costs one tree read per level).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { GIT_MAX_TREE_ENTRIES } from "../../../src/git/limits.js";
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
    return { commit: c.hex, ...(await cli({ argv: ["checkout", "bomb"] })) };
  };`;

const enc = new TextEncoder();

/** Writes one loose object under `<root>/.git/objects` (as the run above does) and returns its id. */
async function writeObject(ws: Workspace, root: string, type: string, body: Uint8Array): Promise<{ hex: string; raw: Uint8Array }> {
  const head = enc.encode(`${type} ${body.length}\0`);
  const all = new Uint8Array(head.length + body.length);
  all.set(head);
  all.set(body, head.length);
  const raw = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
  const hex = [...raw].map((b) => b.toString(16).padStart(2, "0")).join("");
  const z = new Uint8Array(await new Response(new Blob([all]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  await ws.fs.mkdir(`${root}/.git/objects/${hex.slice(0, 2)}`, { recursive: true });
  await ws.fs.writeFile(`${root}/.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`, z);
  return { hex, raw };
}

/** A commit whose tree has `fanOut` entries per level, `depth` levels, every entry of a level naming one object; its branch is `branch`. */
async function writeBomb(ws: Workspace, root: string, branch: string, fanOut: number, depth: number): Promise<string> {
  const fan = async (mode: string, child: { raw: Uint8Array }) => {
    const parts: number[] = [];
    for (const name of Array.from({ length: fanOut }, (_, i) => `e${i}`).sort()) parts.push(...enc.encode(`${mode} ${name}\0`), ...child.raw);
    return writeObject(ws, root, "tree", new Uint8Array(parts));
  };
  let tree = await fan("100644", await writeObject(ws, root, "blob", enc.encode("x")));
  for (let d = 1; d < depth; d++) tree = await fan("40000", tree);
  const commit = await writeObject(ws, root, "commit", enc.encode(`tree ${tree.hex}\nauthor a <a@a> 0 +0000\ncommitter a <a@a> 0 +0000\n\nx\n`));
  await ws.fs.writeFile(`${root}/.git/refs/heads/${branch}`, `${commit.hex}\n`);
  return commit.hex;
}

function workspaceIn(state: DurableObjectState): Workspace {
  return new Workspace({
    storage: state.storage,
    backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: ROOT, modules: { "ws:git": createGitModule() } })],
    git: createGitClient(),
    defaultGitIdentity: { name: "R", email: "r@e.com" },
  });
}

it("a checkout stops when its run is killed: nothing is written after the run has settled", { timeout: 120_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = workspaceIn(state);
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
    const head = await ws.fs.readFile(`${ROOT}/.git/HEAD`, "utf8");
    const gitFiles = (await ws.fs.find(`${ROOT}/.git`)).map((e) => e.path.slice(`${ROOT}/.git/`.length)).filter((p) => !p.startsWith("objects"));
    await ws.close();
    return { atKill, exit: result.exitCode, stderr: result.stderr, atSettle, later, head, gitFiles: gitFiles.sort() };
  });
  expect(out.atKill).toBeGreaterThanOrEqual(100);
  expect({ exit: out.exit, stderr: out.stderr }).toEqual({ exit: 130, stderr: "Execution cancelled.\n" });
  // Found: later > atSettle (e.g. 469 → 1,894): the Workspace keeps changing after the run has ended.
  expect(out.later).toBe(out.atSettle);
  expect(out.atSettle).toBeLessThan(8 ** 4);
  // HEAD, the branches and the index are as they were: no index was ever written, no lock is left behind.
  expect(out.head).toBe("ref: refs/heads/main\n");
  expect(out.gitFiles).toEqual(["HEAD", "config", "hooks", "info", "refs", "refs/heads", "refs/heads/bomb", "refs/tags"]);
});

it("a checkout of a tree that expands past GIT_MAX_TREE_ENTRIES is refused before anything is written (ws:git cli)", { timeout: 120_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = workspaceIn(state);
    await ws.fs.mkdir(ROOT, { recursive: true });
    // 10^5 files and 11,110 directories from five 140-byte trees
    const result = await (await ws.runtime.exec(SOURCE, { encoding: "utf8", input: { fanOut: 10, depth: 5 } })).result();
    const outside = (await ws.fs.find(ROOT)).map((e) => e.path).filter((p) => !p.startsWith(`${ROOT}/.git`));
    const head = await ws.fs.readFile(`${ROOT}/.git/HEAD`, "utf8");
    await ws.close();
    return { exit: result.exitCode, value: result.value as { commit: string; stdout: string; stderr: string; exitCode: number }, outside, head };
  });
  expect(GIT_MAX_TREE_ENTRIES).toBe(100_000);
  expect(out.exit).toBe(0);
  const commit = out.value.commit;
  expect(out.value).toEqual({
    commit,
    stdout: "",
    stderr: `git checkout: tree too large: commit ${commit} expands to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not write a tree this large\n`,
    exitCode: 1,
  });
  expect(commit).toMatch(/^[0-9a-f]{40}$/);
  expect(out.outside).toEqual([]);
  expect(out.head).toBe("ref: refs/heads/main\n");
});

it("workspace.git: checkout stops at its signal (ECANCELED) and refuses a tree past GIT_MAX_TREE_ENTRIES (ECHECKOUTFAIL)", { timeout: 120_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = workspaceIn(state);
    const dir = "/repo";
    await ws.git.init({ dir, defaultBranch: "main" });
    const small = await writeBomb(ws, dir, "small", 8, 4);
    const big = await writeBomb(ws, dir, "big", 10, 5);
    const files = async () => (await ws.fs.find(dir)).filter((e) => !e.path.startsWith(`${dir}/.git`) && e.type !== "dir").length;
    const refused = await ws.git.checkout({ dir, ref: "big" }).then(
      () => "resolved",
      (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
    );
    const afterRefused = await files();

    const controller = new AbortController();
    const started = ws.git.checkout({ dir, ref: "small", signal: controller.signal }).then(
      () => "resolved",
      (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
    );
    for (let i = 0; i < 300 && (await files()) < 20; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error("stopped by the test"));
    const cancelled = await started;
    const atCancel = await files();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const later = await files();
    // An operation whose signal has aborted does not start; a bad signal is a usage error.
    const notStarted = await ws.git.status({ dir, signal: controller.signal }).then(() => "resolved", (e: { code?: string }) => e.code);
    const bad = await ws.git.status({ dir, signal: "x" as unknown as AbortSignal }).then(() => "resolved", (e: { code?: string; message?: string }) => `${e.code} ${e.message}`);
    const head = await ws.fs.readFile(`${dir}/.git/HEAD`, "utf8");
    const index = await ws.fs.lstat(`${dir}/.git/index`).then(() => true, () => false);
    await ws.close();
    return { small, big, refused, afterRefused, cancelled, atCancel, later, notStarted, bad, head, index };
  });
  expect(out.refused).toEqual({
    code: "ECHECKOUTFAIL",
    message: `git checkout failed: tree too large: commit ${out.big} expands to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not write a tree this large`,
  });
  expect(out.afterRefused).toBe(0);
  expect(out.cancelled).toEqual({
    code: "ECANCELED",
    message:
      "git checkout cancelled: stopped by the test; it stopped before its next file: HEAD, the branches and the index are as they were, and the files it had written stay in the working tree (`git status` shows them; `git reset --hard` and `git clean` undo them)",
  });
  expect(out.atCancel).toBeGreaterThanOrEqual(20);
  expect(out.atCancel).toBeLessThan(8 ** 4);
  expect(out.later).toBe(out.atCancel);
  expect(out.notStarted).toBe("ECANCELED");
  expect(out.bad).toBe("EUSAGE git status: signal must be an AbortSignal, got string");
  expect(out.head).toBe("ref: refs/heads/main\n");
  expect(out.index).toBe(false);
});
