/**
 * Issue 20, thirty-eighth attack run: two syncToolDirectories calls that overlap on one Workspace (two requests each
 * syncing on its turn, as docs/tool-directories.md's Durable Object example does, through a getWorkspace() client
 * whose every fs call is an RPC) share the staging directory `<to>/.<name>.sync`: the later call's `rm(staging)` +
 * `mkdir(staging)` empties the earlier call's finished copy, and the earlier call then renames the later call's
 * half-written staging into place and reports `copied`. The target can be left holding the new TOOL.md and nothing
 * else: the tool's old files are gone, its entry is missing (the loader skips it as `no-entry`), and every later sync
 * KEEPS it ("the target's version 2 is not lower than the seed's 2") — the tool is lost until the seed's version is
 * bumped again.
 * Tried: 300 seeded interleavings (each fs call delayed 1–3 event-loop turns, as an RPC client is; the second sync
 * started 0–39 turns after the first), a seed tool of TOOL.md, index.sh and lib/f0–f4.sh replacing a v1 target; then
 * the one interleaving pinned down below (the second call's first staged file lands between the first call's last
 * copied file and its renames).
 * Held: most interleavings end with the complete v2 tool (one sync fails with ENOENT/EEXIST, the other copies); a
 * target left empty is repaired by the next sync (its missing TOOL.md counts as version 0).
 * Found (medium — a tool the agent relies on disappears for good while sync reports `copied`): 2–5 of the 300
 * interleavings in each of 3 runs (seeds varied: 9, 23, 87, 214, 278 / 9, 278 / 103, 167, 173, 243) left
 * /workspace/tools/greet with only TOOL.md, kept by a third sync; the pinned interleaving below does it every time
 * (3 of 3 runs): first `copied`, second `copy failed: ENOENT`, target `TOOL.md` only, a third sync `kept`; released
 * before the second's TOOL.md lands, the target is left empty instead (repaired by the next sync).
 * Suggested fix: src/tool-dirs/sync.ts copyTool — give each call its own staging and aside names
 * (`.<name>.sync-<uuid>`), so no call removes or renames another's staging; and/or list the staging before the
 * rename and fail the copy when it does not hold every seed file.
 *
 * Fixed: src/tool-dirs/sync.ts copyTool stages each call in its own `<to>/.<name>.sync-<start>-<id>` (aside
 * `<staging>.old`), checks the staged copy holds every seed file and directory with its byte length before the swap,
 * removes its staging when it fails, and a later sync removes a dead call's leftovers (issue 20, run 38, fixer TS).
 * The hooks below matched the shared names `.greet.sync` / `.greet.sync.old`, which no longer exist; they now hold the
 * same steps under the per-call names (the first waits before moving the old target aside — the step the removed
 * `rm(<staging>.old)` preceded; the second's writes are any under `/workspace/tools/.greet.sync-`). Assertions
 * unchanged. Siblings: test/node/fix38/tool-sync-overlap.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { syncToolDirectories } from "../../../src/tool-dirs/index.js";

const md = (v: number) => `---\nname: greet\ndescription: Greets.\nversion: ${v}\nlanguage: bash\n---\nbody\n`;
const SEED_FILES = ["TOOL.md", "index.sh", ...[0, 1, 2, 3, 4].map((i) => `lib/f${i}.sh`)].sort();

/** `fs` with hooks awaited before and run after each call, as a client whose calls take their time. */
function hooked(fs: Workspace["fs"], before: (method: string, args: unknown[]) => Promise<void> | void, after: (method: string, args: unknown[]) => void = () => {}): Workspace {
  return {
    fs: new Proxy(fs, {
      get(target, key) {
        const value = (target as unknown as Record<string | symbol, unknown>)[key];
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          await before(String(key), args);
          const result = await (value as (...a: unknown[]) => unknown).apply(target, args);
          after(String(key), args);
          return result;
        };
      },
    }),
  } as unknown as Workspace;
}

describe("syncToolDirectories: two overlapping syncs of one seed tool", () => {
  it("leave the whole seed tool in place, and a later sync never keeps a partial copy", { timeout: 60_000 }, async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const fs = workspace.fs;
    await fs.mkdir("/seed/greet/lib", { recursive: true });
    await fs.writeFile("/seed/greet/TOOL.md", md(2));
    await fs.writeFile("/seed/greet/index.sh", "echo hello\n");
    for (let i = 0; i < 5; i++) await fs.writeFile(`/seed/greet/lib/f${i}.sh`, `echo ${i}\n`);
    await fs.mkdir("/workspace/tools/greet", { recursive: true });
    await fs.writeFile("/workspace/tools/greet/TOOL.md", md(1));
    await fs.writeFile("/workspace/tools/greet/index.sh", "echo old\n");

    // The interleaving: the first sync has copied every file into /workspace/tools/.greet.sync; before it moves the
    // old target aside, the second sync starts its own copy in the same staging directory (rm, mkdir, TOOL.md); the
    // first then renames that staging into place; the second goes on writing into the staging path.
    let releaseFirst!: () => void;
    const firstMayRename = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstDone!: Promise<unknown>;
    let atGate!: () => void;
    const firstAtGate = new Promise<void>((resolve) => (atGate = resolve));
    let secondStaged = false;
    const first = hooked(fs, async (method, args) => {
      if (method === "rename" && String(args[0]) === "/workspace/tools/greet") {
        atGate();
        await firstMayRename;
      }
    });
    const second = hooked(
      fs,
      async (method, args) => {
        if (method === "writeFile" && /^\/workspace\/tools\/\.greet\.sync-[^/]+\//.test(String(args[0])) && secondStaged) await firstDone;
      },
      (method, args) => {
        if (method === "writeFile" && /^\/workspace\/tools\/\.greet\.sync-[^/]+\/TOOL\.md$/.test(String(args[0]))) {
          secondStaged = true;
          releaseFirst(); // its TOOL.md has landed in the staging directory
        }
      },
    );
    const a = syncToolDirectories({ workspace: first, from: "/seed", to: "/workspace/tools" });
    firstDone = a;
    // the second starts once the first waits at its rename step (all its files staged)
    await firstAtGate;
    const b = syncToolDirectories({ workspace: second, from: "/seed", to: "/workspace/tools" });
    const [ra, rb] = await Promise.all([a, b]);
    const listed = async () => (await fs.find("/workspace/tools/greet")).filter((e) => e.type === "file").map((e) => e.path.slice("/workspace/tools/greet/".length)).sort();
    const files = await listed();
    const third = await syncToolDirectories({ workspace, from: "/seed", to: "/workspace/tools" });
    const afterThird = await listed();
    const outcome = {
      first: ra.copied.map((c) => c.reason),
      second: rb.skipped.map((s) => s.reason.slice(0, 40)),
      files,
      afterThird,
      third: third.copied.length > 0 ? "copied" : third.kept.length > 0 ? "kept" : "skipped",
    };
    await workspace.close();
    // Was: { first: ["the seed's version 2 is higher than the target's 1"], second: ["copy failed: ENOENT: no such file or dir"],
    //        files: ["TOOL.md"], afterThird: ["TOOL.md"], third: "kept" } — only the tool's TOOL.md, kept by every later sync
    expect(outcome.files).toEqual(SEED_FILES);
    expect(outcome.afterThird).toEqual(SEED_FILES);
  });
});
