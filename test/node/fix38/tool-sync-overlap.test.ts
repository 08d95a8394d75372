/**
 * Issue 20, run 38, fixer TS — sibling of test/node/attack38g/sync-overlapping-leaves-tool-broken-for-good.test.ts.
 * syncToolDirectories stages each call in its own `<to>/.<name>.sync-<start>-<id>` (aside `<staging>.old`), checks the
 * staged copy against what it wrote before the swap, removes its staging when it fails, and a later sync removes a
 * dead call's leftovers (10 minutes after the start its name records) and the shared `.<name>.sync[.old]` of older
 * releases. This file forces the orderings of two overlapping calls with holds (each hold waits on a step of the other
 * call, no timers), on one Workspace and on two Workspaces over one SQLite file, a call that throws mid-copy, a staged
 * copy that loses a file before the swap, the leftover cleanup, and the decision that a target at the seed's version is
 * kept even when its files differ. Every outcome is checked by the bytes in storage: the target is always either the
 * old tool or the seed tool, byte for byte, and `to` holds no hidden entries afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { syncToolDirectories } from "../../../src/tool-dirs/index.js";

const TO = "/workspace/tools";
const TARGET = `${TO}/greet`;
const md = (v: number) => `---\nname: greet\ndescription: Greets.\nversion: ${v}\nlanguage: bash\n---\nbody\n`;
const SEED: Record<string, string> = {
  "TOOL.md": md(2),
  "index.sh": "echo hello\n",
  ...Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`lib/f${i}.sh`, `echo ${i}${"x".repeat(i * 100)}\n`])),
};
const OLD: Record<string, string> = { "TOOL.md": md(1), "index.sh": "echo old\n", "old-only.txt": "gone after a copy\n" };
const STAGING = /^\/workspace\/tools\/\.greet\.sync-[0-9a-z]+-[0-9a-z]{8}$/;

type Fs = Workspace["fs"];
/** `fs` with a hook awaited before each call, as a client whose calls take their time. */
function hooked(fs: Fs, before: (method: string, args: unknown[]) => Promise<void> | void): Workspace {
  return {
    fs: new Proxy(fs, {
      get(target, key) {
        const value = (target as unknown as Record<string | symbol, unknown>)[key];
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          await before(String(key), args);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }),
  } as unknown as Workspace;
}

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

async function writeTree(fs: Fs, dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${dir}/${rel}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await fs.writeFile(path, text);
  }
}

async function readTree(fs: Fs, dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.find(dir)) if (e.type === "file") out[e.path.slice(dir.length + 1)] = await fs.readFile(e.path, "utf8");
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const sorted = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
const hidden = async (fs: Fs) => (await fs.readdir(TO)).map((e) => e.name).filter((n) => n.startsWith("."));

const open: Workspace[] = [];
let dbDir: string | undefined;
afterEach(async () => {
  for (const w of open.splice(0)) await w.close();
  if (dbDir) rmSync(dbDir, { recursive: true, force: true });
  dbDir = undefined;
});

async function setup(): Promise<Workspace> {
  const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  open.push(workspace);
  await writeTree(workspace.fs, "/seed/greet", SEED);
  await writeTree(workspace.fs, TARGET, OLD);
  return workspace;
}

describe("syncToolDirectories: overlapping calls (issue 20, run 38, fixer TS)", () => {
  it("the second runs whole while the first waits before moving the old target aside: both copy, the seed tool is in place", async () => {
    const workspace = await setup();
    const held = gate();
    const release = gate();
    const first = hooked(workspace.fs, async (method, args) => {
      if (method === "rename" && args[0] === TARGET) {
        held.open();
        await release.wait;
      }
    });
    const a = syncToolDirectories({ workspace: first, from: "/seed", to: TO });
    await held.wait;
    const rb = await syncToolDirectories({ workspace, from: "/seed", to: TO });
    release.open();
    const ra = await a;
    expect([ra.copied.length, ra.skipped, rb.copied.length, rb.skipped]).toEqual([1, [], 1, []]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(SEED));
    expect(await hidden(workspace.fs)).toEqual([]);
  });

  it("the second runs whole while the first has moved the old target aside: the first fails its swap, the second's copy stays", async () => {
    const workspace = await setup();
    const held = gate();
    const release = gate();
    const first = hooked(workspace.fs, async (method, args) => {
      if (method === "rename" && STAGING.test(String(args[0])) && args[1] === TARGET) {
        held.open();
        await release.wait;
      }
    });
    const a = syncToolDirectories({ workspace: first, from: "/seed", to: TO });
    await held.wait;
    expect((await workspace.fs.readdir(TO)).map((e) => e.name).filter((n) => !n.startsWith("."))).toEqual([]); // the old target is aside
    const rb = await syncToolDirectories({ workspace, from: "/seed", to: TO });
    expect(rb.copied.map((c) => [c.name, c.previousVersion, c.reason])).toEqual([["greet", null, "new"]]);
    release.open();
    const ra = await a;
    expect(ra.copied).toEqual([]);
    expect(ra.skipped).toEqual([{ dir: "/seed/greet", reason: `copy failed: ENOTEMPTY: directory not empty, rename: ${TARGET}` }]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(SEED));
    expect(await hidden(workspace.fs)).toEqual([]);
  });

  it("the first runs whole while the second is half-way through its copy: both copy, the seed tool is in place", async () => {
    const workspace = await setup();
    const held = gate();
    const release = gate();
    const second = hooked(workspace.fs, async (method, args) => {
      if (method === "writeFile" && String(args[0]).endsWith("/lib/f2.sh") && STAGING.test(String(args[0]).slice(0, -"/lib/f2.sh".length))) {
        held.open();
        await release.wait;
      }
    });
    const b = syncToolDirectories({ workspace: second, from: "/seed", to: TO });
    await held.wait;
    const ra = await syncToolDirectories({ workspace, from: "/seed", to: TO });
    expect(ra.copied.map((c) => c.previousVersion)).toEqual([1]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(SEED));
    release.open();
    const rb = await b;
    expect([rb.copied.map((c) => c.previousVersion), rb.skipped]).toEqual([[1], []]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(SEED));
    expect(await hidden(workspace.fs)).toEqual([]);
  });

  it("two Workspaces over one SQLite file, the second syncing while the first waits with its copy staged", async () => {
    dbDir = mkdtempSync(join(tmpdir(), "fix38-ts-"));
    const file = join(dbDir, "ws.sqlite");
    const one = new Workspace({ storage: nodeSqliteStorage(file) });
    open.push(one);
    await writeTree(one.fs, "/seed/greet", SEED);
    await writeTree(one.fs, TARGET, OLD);
    const two = new Workspace({ storage: nodeSqliteStorage(file) });
    open.push(two);
    expect(await readTree(two.fs, TARGET)).toEqual(sorted(OLD));
    const held = gate();
    const release = gate();
    const first = hooked(one.fs, async (method, args) => {
      if (method === "rename" && args[0] === TARGET) {
        held.open();
        await release.wait;
      }
    });
    const a = syncToolDirectories({ workspace: first, from: "/seed", to: TO });
    await held.wait;
    expect((await hidden(two.fs)).filter((n) => STAGING.test(`${TO}/${n}`))).toHaveLength(1); // the first's staging, untouched
    const rb = await syncToolDirectories({ workspace: two, from: "/seed", to: TO });
    expect(rb.copied.map((c) => c.previousVersion)).toEqual([1]);
    release.open();
    const ra = await a;
    expect([ra.copied.length, ra.skipped]).toEqual([1, []]);
    expect(await readTree(one.fs, TARGET)).toEqual(sorted(SEED));
    expect(await readTree(two.fs, TARGET)).toEqual(sorted(SEED));
    expect(await hidden(two.fs)).toEqual([]);
  });
});

describe("syncToolDirectories: failed and dead calls (issue 20, run 38, fixer TS)", () => {
  it("a call that throws mid-copy leaves the old tool whole and removes its staging", async () => {
    const workspace = await setup();
    let writes = 0;
    const failing = hooked(workspace.fs, (method) => {
      if (method === "writeFile" && ++writes === 3) throw Object.assign(new Error("EIO: the store went away"), { code: "EIO" });
    });
    const report = await syncToolDirectories({ workspace: failing, from: "/seed", to: TO });
    expect(report.skipped).toEqual([{ dir: "/seed/greet", reason: "copy failed: EIO: the store went away" }]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(OLD));
    expect(await hidden(workspace.fs)).toEqual([]);
    // and the next sync copies
    expect((await syncToolDirectories({ workspace, from: "/seed", to: TO })).copied.map((c) => c.previousVersion)).toEqual([1]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(SEED));
  });

  it("a staged copy that lost a file before the swap is not put in place", async () => {
    const workspace = await setup();
    const losing = hooked(workspace.fs, async (method, args) => {
      // another actor removes a staged file just before this call checks its copy
      if (method === "readdir" && STAGING.test(String(args[0]))) await workspace.fs.rm(`${args[0]}/lib/f3.sh`, { force: true });
    });
    const report = await syncToolDirectories({ workspace: losing, from: "/seed", to: TO });
    expect(report.copied).toEqual([]);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0].reason).toMatch(
      new RegExp(`^copy failed: the staged copy /workspace/tools/\\.greet\\.sync-[0-9a-z]+-[0-9a-z]{8} does not match the seed: lib/f3\\.sh is missing, the seed's is ${Buffer.byteLength(SEED["lib/f3.sh"])} bytes$`),
    );
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(OLD));
    expect(await hidden(workspace.fs)).toEqual([]);
  });

  it("removes a dead call's leftovers and older releases' shared names, but not a live call's or other names", async () => {
    const workspace = await setup();
    const fs = workspace.fs;
    const fresh = `.greet.sync-${Date.now().toString(36)}-abcdefgh`;
    const dead = [".greet.sync", ".greet.sync.old", ".greet.sync-0-abcdefgh", ".greet.sync-0-abcdefgh.old", `.greet.sync-${(Date.now() - 11 * 60_000).toString(36)}-zz00zz00`];
    const keep = [fresh, `${fresh}.old`, ".other.sync-0-abcdefgh", ".greet.syncnotes", ".greet.sync-0-ABCDEFGH"];
    for (const name of [...dead, ...keep]) await writeTree(fs, `${TO}/${name}`, { "TOOL.md": "half\n" });
    // the target is at the seed's version: kept, and the leftovers are removed all the same
    await writeTree(fs, TARGET, { "TOOL.md": md(2) });
    const report = await syncToolDirectories({ workspace, from: "/seed", to: TO });
    expect(report.kept.map((k) => k.reason)).toEqual(["the target's version 2 is not lower than the seed's 2"]);
    expect((await hidden(fs)).sort()).toEqual([...keep].sort());
  });

  it("a target at the seed's version whose files differ from the seed's is kept (local edits), a bumped seed replaces it", async () => {
    const workspace = await setup();
    const edited = { "TOOL.md": md(2), "index.sh": "echo edited\n" };
    await workspace.fs.rm(TARGET, { recursive: true });
    await writeTree(workspace.fs, TARGET, edited);
    expect((await syncToolDirectories({ workspace, from: "/seed", to: TO })).kept).toHaveLength(1);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted(edited));
    await workspace.fs.writeFile("/seed/greet/TOOL.md", md(3));
    expect((await syncToolDirectories({ workspace, from: "/seed", to: TO })).copied.map((c) => c.previousVersion)).toEqual([2]);
    expect(await readTree(workspace.fs, TARGET)).toEqual(sorted({ ...SEED, "TOOL.md": md(3) }));
  });
});
