/**
 * Issue 20, fifteenth attack run: the link-target check of confined runs (src/backends/worker-javascript/paths.ts
 * `checkLinkTarget` → `leadsTo`, the fix of issue 20 #4; called by the JavaScript backend's `node:fs` `symlink` in a
 * run with a root, by the `ws:git` client confined to a root (src/git/confine.ts: every link a checkout, clone,
 * merge, reset or stash writes) and by src/runtime/sync.ts).
 *
 * Tried: link targets of many short components, within the filesystem's 256 KiB target limit: `"a/".repeat(n) + "x"`
 * (relative, under the root, `a` missing). `leadsTo` builds each component's path as
 * `"/" + [...current, name].join("/")` — a copy of every component so far, per component — and once a component is
 * missing the rest is walked with no await at all.
 *
 * Found (high — one sandbox call freezes the Durable Object): the check is quadratic in the target's components.
 * Measured on Node: n = 5,000 (10 KB) 0.3 s, 10,000 1.2 s, 20,000 8.7 s, 40,000 (80 KB) 40 s; a 256 KiB target
 * (~130,000 components) is minutes — synchronous CPU in the object that owns the Workspace (no timeout, kill or
 * maxHostCallMs reaches it), from one `symlink("a/".repeat(40_000) + "x", "l")` in a JavaScript run with a `root`
 * (or one crafted link entry checked out with `ws:git`). In this repository's workerd pool, a run confined to
 * /workspace/proj doing `await symlink("a/".repeat(30_000) + "x", "l")` with `timeoutMs: 1000` settled ("JavaScript
 * execution timed out") only after 9.2 s: the object was busy in the check meanwhile. Reproduced 3 of 3.
 * Reproduction (what the sandbox's symlink runs on the host):
 *   await checkLinkTarget(ws.fs, "/workspace/proj", "/workspace/proj/l", "a/".repeat(40_000) + "x");   // ~40 s
 * Suggested fix: keep the resolved path as a string (or a stack with a running length) and append/pop per
 * component instead of re-joining, and bound the components walked (as MAX_LINK_SEGMENTS bounds the filesystem's
 * own resolution), refusing a longer target with ENAMETOOLONG/ELOOP.
 *
 * Fixed: `leadsTo` keeps the path of each component so far (one concatenation per component), counts the
 * components from the target and the links it goes through against MAX_LINK_SEGMENTS (16,384, the filesystem's
 * own bound: a longer one would never resolve) and refuses past it with ELOOP, and refuses a check that would look
 * up more than 32 Mi characters of paths with ENAMETOOLONG.
 *
 * The check runs in a worker thread (attack13b's worker-run.ts) so the bounded wait can see the freeze.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runInWorker } from "../attack13b/worker-run.js";

const PATHS = resolve(import.meta.dirname, "../../../src/backends/worker-javascript/paths.ts");

describe("attack15a: checking a link target of many components", () => {
  it("a 40,000-component (80 KB) target is refused ELOOP and a 16,000-component one is stored, within 10 s", { timeout: 120_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/workspace/proj", { recursive: true });
post("ready");
for (const n of [40_000, 16_000, 16_383]) {
  const stored = await checkLinkTarget(ws.fs as never, "/workspace/proj", "/workspace/proj/l", "a/".repeat(n) + "x").then(
    (s) => "stored " + s.length,
    (e) => "error: " + String(e.code) + " " + e.message,
  );
  post(stored);
}
// links on the way count too: "b" leads to 10,000 components, then 10,000 more
await ws.fs.symlink("c/".repeat(9_999) + "d", "/workspace/proj/b");
post(await checkLinkTarget(ws.fs as never, "/workspace/proj", "/workspace/proj/l2", "b/" + "e/".repeat(9_999) + "f").then(
  (s) => "stored " + s.length,
  (e) => "error: " + String(e.code) + " " + e.message,
));`,
      10_000,
      `import { checkLinkTarget } from ${JSON.stringify(PATHS)};`,
    );
    // Found: settled false (the worker was still in leadsTo after 10 s; ~40 s on its own).
    const refused = (target: string) =>
      `error: ELOOP symlink target ${target.slice(0, 60)}… takes more than 16384 components (its own and those of the links it goes through) to resolve, which the filesystem refuses; use a shorter target`;
    expect(run.settled).toBe(true);
    expect(run.messages).toEqual([
      "ready",
      refused("a/".repeat(40_000)),
      `stored ${16_000 * 2 + 1}`,
      `stored ${16_383 * 2 + 1}`,
      refused("b/" + "e/".repeat(40)),
    ]);
  });
});
