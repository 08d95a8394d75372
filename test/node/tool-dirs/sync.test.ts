/**
 * Seed sync of tool directories (seed 001 "Sync and Discovery", spec 03 §9,
 * issue 19): higher seed versions replace, equal or lower keep, a missing
 * version is 0, local edits under a lower seed survive, and whole
 * directories are copied, bytes and modes included.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, syncToolDirectories } from "../../../src/tool-dirs/index.js";
import { WorkerBundle } from "../../../src/index.js";
import { FIXTURES, copyFixtures } from "./dir-fixtures.js";

let ws: Workspace;
beforeEach(async () => {
  ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
});

const SEED = "/seed/tools";
const DATA = "/workspace/tools";

/** Writes a tool directory `<root>/<name>` with TOOL.md at `version` (omitted when null) and the given files. */
async function toolAt(root: string, name: string, version: number | null, files: Record<string, string> = {}): Promise<void> {
  await ws.fs.mkdir(`${root}/${name}`, { recursive: true });
  const v = version === null ? "" : `version: ${version}\n`;
  await ws.fs.writeFile(`${root}/${name}/TOOL.md`, `---\nname: ${name}\ndescription: d\n${v}---\n`);
  for (const [file, text] of Object.entries(files)) {
    if (file.includes("/")) await ws.fs.mkdir(`${root}/${name}/${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
    await ws.fs.writeFile(`${root}/${name}/${file}`, text);
  }
}

/** Every file under `dir` (relative path → text), sorted. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await ws.fs.find(dir)) {
    if (entry.type === "file") out[entry.path.slice(dir.length + 1)] = await ws.fs.readFile(entry.path, "utf8");
  }
  return out;
}

const sync = () => syncToolDirectories({ workspace: ws, from: SEED, to: DATA });

describe("syncToolDirectories", () => {
  it("copies every seed tool into a missing data directory, bytes and modes included", async () => {
    await copyFixtures(ws, "tools", SEED);
    const report = await sync();
    expect(report.copied.map((c) => [c.name, c.version, c.previousVersion, c.reason])).toEqual([
      ["all_inputs", 1, null, "new"],
      ["export_rows", 1, null, "new"],
      ["fetch_status", 2, null, "new"],
      ["fetch_status_copy", 9, null, "new"],
      ["greet", 1, null, "new"],
      ["no_entry", 0, null, "new"],
      ["py_hello", 1, null, "new"],
      ["read_clash", 0, null, "new"],
      ["slow_count", 1, null, "new"],
      ["unknown_type", 0, null, "new"],
    ]);
    expect(report.copied[2]).toEqual({
      name: "fetch_status",
      from: `${SEED}/fetch_status`,
      to: `${DATA}/fetch_status`,
      version: 2,
      previousVersion: null,
      reason: "new",
    });
    expect(report.kept).toEqual([]);
    expect(report.skipped).toEqual([
      {
        dir: `${SEED}/bad_yaml`,
        reason:
          "TOOL.md front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4 of TOOL.md",
      },
    ]);
    expect(await tree(`${DATA}/fetch_status`)).toEqual(await tree(`${SEED}/fetch_status`));
    expect(Object.keys(await tree(`${DATA}/fetch_status`)).sort()).toEqual(["TOOL.md", "format.ts", "index.ts"]);
    expect((await ws.fs.stat(`${DATA}/greet/index.sh`)).mode).toBe(0o755);
    expect((await ws.fs.stat(`${DATA}/greet/TOOL.md`)).mode).toBe(0o644);
    expect((await ws.fs.readdir(DATA)).map((e) => e.name)).not.toContain(".fetch_status.sync");

    // The synced directory loads like the seed.
    const fromSeed = await loadToolDirectories({ workspace: ws, dirs: [SEED] });
    const fromData = await loadToolDirectories({ workspace: ws, dirs: [DATA] });
    expect(fromData.tools.map((t) => [t.name, t.version, t.entry])).toEqual(
      fromSeed.tools.map((t) => [t.name, t.version, t.entry.replace(SEED, DATA)]),
    );

    // A second run keeps everything.
    const again = await sync();
    expect(again.copied).toEqual([]);
    expect(again.kept.map((k) => [k.name, k.reason])).toContainEqual(["fetch_status", "the target's version 2 is not lower than the seed's 2"]);
    expect(again.kept).toHaveLength(10);
  });

  it("a higher seed version replaces the whole target; its old files are gone", async () => {
    await toolAt(SEED, "web", 3, { "index.ts": "seed v3", "lib/util.ts": "util v3" });
    await toolAt(DATA, "web", 2, { "index.ts": "local v2", "stale.txt": "from v2", "lib/old.ts": "old" });
    const report = await sync();
    expect(report).toEqual({
      copied: [
        {
          name: "web",
          from: `${SEED}/web`,
          to: `${DATA}/web`,
          version: 3,
          previousVersion: 2,
          reason: "the seed's version 3 is higher than the target's 2",
        },
      ],
      kept: [],
      skipped: [],
    });
    expect(await tree(`${DATA}/web`)).toEqual({
      "TOOL.md": "---\nname: web\ndescription: d\nversion: 3\n---\n",
      "index.ts": "seed v3",
      "lib/util.ts": "util v3",
    });
  });

  it("an equal or lower seed version keeps the target, local edits included", async () => {
    await toolAt(SEED, "same", 2, { "index.ts": "seed" });
    await toolAt(DATA, "same", 2, { "index.ts": "local edit" });
    await toolAt(SEED, "older", 1, { "index.ts": "seed" });
    await toolAt(DATA, "older", 4, { "index.ts": "local edit", "notes.md": "mine" });
    const report = await sync();
    expect(report.copied).toEqual([]);
    expect(report.kept).toEqual([
      {
        name: "older",
        from: `${SEED}/older`,
        to: `${DATA}/older`,
        version: 1,
        previousVersion: 4,
        reason: "the target's version 4 is not lower than the seed's 1",
      },
      {
        name: "same",
        from: `${SEED}/same`,
        to: `${DATA}/same`,
        version: 2,
        previousVersion: 2,
        reason: "the target's version 2 is not lower than the seed's 2",
      },
    ]);
    expect(await ws.fs.readFile(`${DATA}/same/index.ts`, "utf8")).toBe("local edit");
    expect(await tree(`${DATA}/older`)).toEqual({
      "TOOL.md": "---\nname: older\ndescription: d\nversion: 4\n---\n",
      "index.ts": "local edit",
      "notes.md": "mine",
    });
  });

  it("a missing version is 0 on either side", async () => {
    await toolAt(SEED, "both_missing", null, { "index.ts": "seed" });
    await toolAt(DATA, "both_missing", null, { "index.ts": "local" });
    await toolAt(SEED, "seed_v1", 1, { "index.ts": "seed" });
    await toolAt(DATA, "seed_v1", null, { "index.ts": "local" });
    await toolAt(SEED, "seed_missing", null, { "index.ts": "seed" });
    await toolAt(DATA, "seed_missing", 1, { "index.ts": "local" });
    await toolAt(SEED, "zero", 0, { "index.ts": "seed" });
    await toolAt(DATA, "zero", null, { "index.ts": "local" });
    const report = await sync();
    expect(report.copied.map((c) => [c.name, c.version, c.previousVersion])).toEqual([["seed_v1", 1, 0]]);
    expect(report.kept.map((k) => [k.name, k.version, k.previousVersion])).toEqual([
      ["both_missing", 0, 0],
      ["seed_missing", 0, 1],
      ["zero", 0, 0],
    ]);
    expect(await ws.fs.readFile(`${DATA}/seed_v1/index.ts`, "utf8")).toBe("seed");
    expect(await ws.fs.readFile(`${DATA}/both_missing/index.ts`, "utf8")).toBe("local");
    expect(await ws.fs.readFile(`${DATA}/zero/index.ts`, "utf8")).toBe("local");
  });

  it("a target with a broken or missing TOOL.md counts as version 0", async () => {
    await toolAt(SEED, "broken", 1, { "index.ts": "seed" });
    await ws.fs.mkdir(`${DATA}/broken`, { recursive: true });
    await ws.fs.writeFile(`${DATA}/broken/TOOL.md`, "---\nname: [\n---\n");
    await toolAt(SEED, "bare", 1, { "index.ts": "seed" });
    await ws.fs.mkdir(`${DATA}/bare`);
    await ws.fs.writeFile(`${DATA}/bare/index.ts`, "local");
    const report = await sync();
    expect(report.copied.map((c) => [c.name, c.previousVersion, c.reason])).toEqual([
      ["bare", 0, "the seed's version 1 is higher than the target's 0"],
      ["broken", 0, "the seed's version 1 is higher than the target's 0"],
    ]);
    expect(await tree(`${DATA}/bare`)).toEqual(await tree(`${SEED}/bare`));
  });

  it("leaves data tools without a seed alone and passes over hidden seed entries and files", async () => {
    await toolAt(SEED, "a", 1);
    await ws.fs.writeFile(`${SEED}/README.md`, "seed readme");
    await ws.fs.mkdir(`${SEED}/.cache`);
    await toolAt(DATA, "mine", 7, { "index.ts": "agent-written" });
    const report = await sync();
    expect(report.copied.map((c) => c.name)).toEqual(["a"]);
    expect(report.skipped).toEqual([]);
    expect((await ws.fs.readdir(DATA)).map((e) => e.name)).toEqual(["a", "mine"]);
    expect(await ws.fs.readFile(`${DATA}/mine/index.ts`, "utf8")).toBe("agent-written");
  });

  it("skips seeds without TOOL.md, with a bad version, holding a link, or over the bounds", async () => {
    await ws.fs.mkdir(`${SEED}/no_md`, { recursive: true });
    await ws.fs.writeFile(`${SEED}/no_md/index.ts`, "x");
    await ws.fs.mkdir(`${SEED}/bad_version`);
    await ws.fs.writeFile(`${SEED}/bad_version/TOOL.md`, "---\nname: bad_version\nversion: two\n---\n");
    await toolAt(SEED, "linked", 1);
    await ws.fs.symlink("/etc/passwd", `${SEED}/linked/passwd`);
    await toolAt(SEED, "many", 1, { "a.ts": "a", "b.ts": "b", "c.ts": "c" });
    await toolAt(SEED, "ok", 1);
    const report = await syncToolDirectories({ workspace: ws, from: SEED, to: DATA, maxFiles: 3 });
    expect(report.copied.map((c) => c.name)).toEqual(["ok"]);
    expect(report.skipped).toEqual([
      { dir: `${SEED}/bad_version`, reason: 'TOOL.md: version must be a non-negative integer; got "two"' },
      { dir: `${SEED}/linked`, reason: "holds a symbolic link (passwd); sync copies only files and directories" },
      { dir: `${SEED}/many`, reason: "has more than 3 files (maxFiles)" },
      { dir: `${SEED}/no_md`, reason: "no TOOL.md in the seed directory" },
    ]);
    expect((await ws.fs.readdir(DATA)).map((e) => e.name)).toEqual(["ok"]);
    const bytes = await syncToolDirectories({ workspace: ws, from: SEED, to: "/workspace/other", maxBytes: 10 });
    expect(bytes.skipped.find((s) => s.dir === `${SEED}/ok`)).toEqual({ dir: `${SEED}/ok`, reason: "holds more than 10 bytes (maxBytes)" });
  });

  it("a leftover staging directory from an interrupted sync is replaced", async () => {
    await toolAt(SEED, "t", 2, { "index.ts": "seed" });
    await toolAt(DATA, "t", 1, { "index.ts": "local" });
    await ws.fs.mkdir(`${DATA}/.t.sync/half`, { recursive: true });
    const report = await sync();
    expect(report.copied.map((c) => c.name)).toEqual(["t"]);
    expect((await ws.fs.readdir(DATA)).map((e) => e.name)).toEqual(["t"]);
    expect(await tree(`${DATA}/t`)).toEqual(await tree(`${SEED}/t`));
  });

  it("a write failure skips that tool and leaves its target as it was", async () => {
    await toolAt(SEED, "a", 2, { "index.ts": "seed a" });
    await toolAt(SEED, "b", 2, { "index.ts": "seed b" });
    await toolAt(DATA, "a", 1, { "index.ts": "local a" });
    const failing = {
      fs: {
        ...Object.fromEntries(
          (["readdir", "stat", "lstat", "readFile", "mkdir", "rm", "rename"] as const).map((m) => [m, (ws.fs[m] as Function).bind(ws.fs)]),
        ),
        writeFile: ((path: string, ...rest: unknown[]) => {
          if (path.startsWith(`${DATA}/.a.sync-`)) return Promise.reject(new Error("ENOSPC: no space left")); // per-call staging (run 38, fixer TS)
          return (ws.fs.writeFile as Function).call(ws.fs, path, ...rest);
        }) as typeof ws.fs.writeFile,
      },
    } as unknown as Parameters<typeof syncToolDirectories>[0]["workspace"];
    const report = await syncToolDirectories({ workspace: failing, from: SEED, to: DATA });
    expect(report.copied.map((c) => c.name)).toEqual(["b"]);
    expect(report.skipped).toEqual([{ dir: `${SEED}/a`, reason: "copy failed: ENOSPC: no space left" }]);
    expect(await ws.fs.readFile(`${DATA}/a/index.ts`, "utf8")).toBe("local a");
  });

  it("a swap that fails puts the old target back (issue 20, run 31: it was removed before the rename)", async () => {
    await toolAt(SEED, "a", 2, { "index.ts": "seed a" });
    await toolAt(DATA, "a", 1, { "index.ts": "local a" });
    const failing = {
      fs: {
        ...Object.fromEntries(
          (["readdir", "stat", "lstat", "readFile", "mkdir", "rm", "writeFile"] as const).map((m) => [m, (ws.fs[m] as Function).bind(ws.fs)]),
        ),
        rename: ((from: string, to: string) => {
          if (/^\/workspace\/tools\/\.a\.sync-[0-9a-z-]+$/.test(from) && to === `${DATA}/a`) return Promise.reject(new Error("EIO: the swap failed")); // run 38, fixer TS
          return ws.fs.rename(from, to);
        }) as typeof ws.fs.rename,
      },
    } as unknown as Parameters<typeof syncToolDirectories>[0]["workspace"];
    const report = await syncToolDirectories({ workspace: failing, from: SEED, to: DATA });
    expect(report.copied).toEqual([]);
    expect(report.skipped).toEqual([{ dir: `${SEED}/a`, reason: "copy failed: EIO: the swap failed" }]);
    // Was: ENOENT — the target had been removed before the failed rename.
    expect(await tree(`${DATA}/a`)).toEqual({ "TOOL.md": "---\nname: a\ndescription: d\nversion: 1\n---\n", "index.ts": "local a" });
    // The failed call removed its own staging directory (run 38, fixer TS; it was left as `.a.sync`).
    expect((await ws.fs.readdir(DATA)).map((e) => e.name).sort()).toEqual(["a"]);
    // The next sync (the store working again) replaces it and leaves no staging or aside directory.
    expect((await sync()).copied.map((c) => c.name)).toEqual(["a"]);
    expect((await ws.fs.readdir(DATA)).map((e) => e.name)).toEqual(["a"]);
    expect(await tree(`${DATA}/a`)).toEqual(await tree(`${SEED}/a`));
  });

  it("a missing seed directory gives one skip; bad options throw", async () => {
    const report = await sync();
    expect(report.copied).toEqual([]);
    expect(report.kept).toEqual([]);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0].dir).toBe(SEED);
    expect(report.skipped[0].reason).toMatch(/^cannot list the seed tools directory: ENOENT: /);
    await expect(syncToolDirectories({ workspace: ws, from: "seed", to: DATA })).rejects.toThrow(
      new TypeError('syncToolDirectories: from must be an absolute Workspace path; got "seed"'),
    );
    await expect(syncToolDirectories({ workspace: ws, from: DATA, to: `${DATA}/sub` })).rejects.toThrow(
      new TypeError(`syncToolDirectories: from (${DATA}) and to (${DATA}/sub) must not be the same directory or contain each other`),
    );
    await expect(syncToolDirectories({ workspace: ws, from: SEED, to: DATA, maxFiles: 1.5 })).rejects.toThrow(
      new TypeError("syncToolDirectories: maxFiles must be a positive integer; got 1.5"),
    );
  });

  it("syncs from a read-only WorkerBundle mount of the fixtures, then a bumped seed replaces its copy", async () => {
    const mounted = new Workspace({ storage: nodeSqliteStorage(":memory:"), mounts: { "/bundle": WorkerBundle(FIXTURES) } });
    await mounted.ready();
    const first = await syncToolDirectories({ workspace: mounted, from: "/bundle/tools", to: DATA });
    expect(first.copied).toHaveLength(10);
    expect(first.skipped.map((s) => s.dir)).toEqual(["/bundle/tools/bad_yaml"]);
    for (const file of ["greet/index.sh", "fetch_status/format.ts", "all_inputs/TOOL.md"]) {
      expect(await mounted.fs.readFile(`${DATA}/${file}`, "utf8")).toBe(await mounted.fs.readFile(`/bundle/tools/${file}`, "utf8"));
      expect((await mounted.fs.stat(`${DATA}/${file}`)).mode).toBe((await mounted.fs.stat(`/bundle/tools/${file}`)).mode);
    }
    // The agent edits its copy; the next sync from the same bundle keeps the edit.
    await mounted.fs.writeFile(`${DATA}/greet/index.sh`, "echo edited\n");
    const second = await syncToolDirectories({ workspace: mounted, from: "/bundle/tools", to: DATA });
    expect(second.copied).toEqual([]);
    expect(await mounted.fs.readFile(`${DATA}/greet/index.sh`, "utf8")).toBe("echo edited\n");
    // A copy at version 0 (as an older release would have left it) is replaced by the bundle's version 1.
    const md = await mounted.fs.readFile(`${DATA}/greet/TOOL.md`, "utf8");
    await mounted.fs.writeFile(`${DATA}/greet/TOOL.md`, md.replace("version: 1\n", "version: 0\n"));
    const third = await syncToolDirectories({ workspace: mounted, from: "/bundle/tools", to: DATA });
    expect(third.copied.map((c) => [c.name, c.previousVersion, c.version])).toEqual([["greet", 0, 1]]);
    expect(await mounted.fs.readFile(`${DATA}/greet/index.sh`, "utf8")).toBe(await mounted.fs.readFile("/bundle/tools/greet/index.sh", "utf8"));
    await mounted.close();
  });
});
