/**
 * Mount cases (spec 01 §6), written once and run on Node (node:sqlite) and in
 * workerd (Durable Object SQLite): registration checks, materialisation,
 * versions, failure and retry, limits, and EROFS for every mutation at, under
 * or above a read-only root, directly and through links.
 */
import { expect, it } from "vitest";
import { Workspace, WorkerBundle, type Mount, type WorkspaceOptions } from "../../../src/index.js";
import type { DurableObjectStorageLike } from "../../../src/storage/types.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

export interface MountHarness {
  readonly suite: "node" | "workers";
  /** Runs `body` with a fresh, empty storage. */
  run(body: (storage: DurableObjectStorageLike) => Promise<void>): Promise<void>;
}

const ROOT = "/workspace/data";

/** A tree bundle of three files and two directories. */
function docs(version?: string) {
  return WorkerBundle({
    files: {
      "README.md": "# Data\n",
      "./guide/intro.md": "intro v1\n",
      "/bin\\run.sh": "#!/bin/sh\necho hi\n",
    },
    ...(version !== undefined ? { version } : {}),
  });
}

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: { code?: string; message?: string }) => error.code ?? `no code: ${error.message}`,
  );
}

async function message(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "(resolved)",
    (error: Error) => error.message,
  );
}

function open(storage: DurableObjectStorageLike, options: Partial<WorkspaceOptions> = {}): Workspace {
  return new Workspace({ storage, now: () => 1_700_000_000_000, ...options });
}
const open_ = open;

function rows(storage: DurableObjectStorageLike, query: string): Record<string, unknown>[] {
  return storage.sql.exec(query).toArray() as Record<string, unknown>[];
}

export function defineMountCases(h: MountHarness): void {
  it("materialises a WorkerBundle tree on ready(): paths normalised, directories before children, modes", () =>
    h.run(async (storage) => {
      const ws = open(storage, { mounts: { [ROOT]: docs() } });
      await expect(ws.fs.stat(ROOT)).rejects.toMatchObject({ code: "ENOENT" }); // not on fs calls
      await ws.ready();
      expect((await ws.fs.readdir(ROOT)).map((e) => [e.name, e.isDirectory])).toEqual([
        ["README.md", false],
        ["bin", true],
        ["guide", true],
      ]);
      expect(await ws.fs.readFile(`${ROOT}/guide/intro.md`, "utf8")).toBe("intro v1\n");
      expect((await ws.fs.stat(`${ROOT}/bin/run.sh`)).mode).toBe(0o755);
      expect((await ws.fs.stat(`${ROOT}/README.md`)).mode).toBe(0o644);
      // Depth-first, code-unit order, directory before its children: inode numbers follow creation.
      const inode = async (p: string) => (await ws.fs.stat(`${ROOT}${p}`)).inode;
      const order = ["/README.md", "/bin", "/bin/run.sh", "/guide", "/guide/intro.md"];
      const inodes = await Promise.all(order.map(inode));
      expect([...inodes].sort((a, b) => a - b)).toEqual(inodes);
      expect(ws.mounts()).toEqual(new Map([[ROOT, expect.objectContaining({ kind: "worker-bundle", mode: "read-only", strategy: "eager" })]]));
      expect(rows(storage, "SELECT root, kind, mode, complete FROM __ws_mounts")).toEqual([{ root: ROOT, kind: "worker-bundle", mode: "read-only", complete: 1 }]);
    }));

  it("rejects every mutation at, under or above a read-only root with EROFS and changes nothing", () =>
    h.run(async (storage) => {
      const ws = open(storage, { mounts: { [ROOT]: docs() } });
      await ws.ready();
      const fs = ws.fs;
      await fs.writeFile("/workspace/notes.txt", "mine");
      const file = `${ROOT}/README.md`;
      const attempts: [string, Promise<unknown>][] = [
        ["writeFile under", fs.writeFile(file, "changed")],
        ["writeFile new", fs.writeFile(`${ROOT}/new.txt`, "x")],
        ["writeFile stream", fs.writeFile(`${ROOT}/s.txt`, new Blob(["x"]).stream())],
        ["mkdir under", fs.mkdir(`${ROOT}/d`)],
        // mkdir -p of the existing root or an ancestor creates nothing and resolves, checked below (run 33, fixer MB).
        ["mkdir new under -p", fs.mkdir(`${ROOT}/guide/new`, { recursive: true })],
        ["mkdir new deeper -p", fs.mkdir(`${ROOT}/a/b`, { recursive: true })],
        ["rm file", fs.rm(file)],
        ["rm root", fs.rm(ROOT, { recursive: true, force: true })],
        ["rm ancestor", fs.rm("/workspace", { recursive: true, force: true })],
        ["rename out", fs.rename(file, "/workspace/out.md")],
        ["rename in", fs.rename("/workspace/notes.txt", `${ROOT}/notes.txt`)],
        ["rename ancestor", fs.rename("/workspace", "/elsewhere")],
        ["chmod", fs.chmod(file, 0o600)],
        ["chmod ancestor", fs.chmod("/workspace", 0o700)],
        ["symlink", fs.symlink("/tmp", `${ROOT}/link`)],
      ];
      for (const [what, attempt] of attempts) expect([what, await code(attempt)]).toEqual([what, "EROFS"]);
      expect(await message(fs.writeFile(file, "x"))).toBe(`EROFS: read-only file system (mount at ${ROOT}), writeFile: ${file}`);
      // Nothing changed.
      expect(await fs.readFile(file, "utf8")).toBe("# Data\n");
      expect((await fs.stat(file)).mode).toBe(0o644);
      expect((await fs.readdir(ROOT)).map((e) => e.name)).toEqual(["README.md", "bin", "guide"]);
      expect(await fs.readFile("/workspace/notes.txt", "utf8")).toBe("mine");
      // A mkdir that creates nothing is not refused, as on Linux (mkdir(2) answers EEXIST before EROFS;
      // mkdir -p of an existing directory is a no-op) — issue 20, run 33, fixer MB.
      await fs.mkdir(ROOT, { recursive: true });
      await fs.mkdir("/workspace", { recursive: true });
      await fs.mkdir(`${ROOT}/guide`, { recursive: true });
      expect(await code(fs.mkdir(ROOT))).toBe("EEXIST");
      expect(await code(fs.mkdir("/workspace"))).toBe("EEXIST");
      // Outside the mount (siblings, other trees) everything works.
      await fs.writeFile("/workspace/other.txt", "ok");
      await fs.mkdir("/workspace/sub");
      await fs.rename("/workspace/other.txt", "/workspace/sub/other.txt");
      await fs.rm("/workspace/sub", { recursive: true });
      await fs.writeFile("/workspace/data2", "not under /workspace/data");
      expect(await fs.readFile("/workspace/data2", "utf8")).toBe("not under /workspace/data");
      // Checks that come first still win.
      expect(await code(fs.writeFile("/", "x"))).toBe("EISDIR");
      expect(await code(fs.rm("/", { recursive: true }))).toBe("EPERM");
      expect(await code(fs.writeFile("relative", "x"))).toBe("EINVAL");
    }));

  it("follows links to the place they reach: writes through a link into a read-only mount are EROFS", () =>
    h.run(async (storage) => {
      const ws = open(storage, { mounts: { [ROOT]: docs() } });
      await ws.ready();
      const fs = ws.fs;
      await fs.symlink(ROOT, "/into");
      await fs.symlink(`${ROOT}/README.md`, "/readme");
      await fs.symlink("/workspace", "/ws");
      expect(await code(fs.writeFile("/into/new.txt", "x"))).toBe("EROFS");
      expect(await code(fs.writeFile("/readme", "x"))).toBe("EROFS"); // final link followed by writeFile
      expect(await code(fs.writeFile("/into/missing/deeper.txt", "x"))).toBe("EROFS"); // link target met before ENOENT
      expect(await code(fs.mkdir("/into/d"))).toBe("EROFS");
      expect(await code(fs.mkdir("/into/a/b", { recursive: true }))).toBe("EROFS");
      expect(await code(fs.rm("/into/README.md"))).toBe("EROFS");
      expect(await code(fs.rm("/ws/data", { recursive: true }))).toBe("EROFS");
      expect(await code(fs.rename("/ws/data", "/moved"))).toBe("EROFS");
      expect(await code(fs.rename("/into/guide", "/guide"))).toBe("EROFS");
      expect(await fs.readFile("/readme", "utf8")).toBe("# Data\n"); // reads are unaffected
      expect((await fs.readdir(`${ROOT}/guide`)).map((e) => e.name)).toEqual(["intro.md"]);
      // The links themselves live outside the mount: removing them is fine.
      await fs.rm("/readme");
      await fs.rm("/into");
      expect(await fs.readFile(`${ROOT}/README.md`, "utf8")).toBe("# Data\n");
      // A link to a sibling of the mount is not protected.
      await fs.writeFile("/ws/free.txt", "free");
      expect(await fs.readFile("/workspace/free.txt", "utf8")).toBe("free");
    }));

  it("the write and edit tools get EROFS as readable error results", () =>
    h.run(async (storage) => {
      const ws = open(storage, { mounts: { [ROOT]: docs() } });
      await ws.ready();
      const tools = createAITools({ workspace: ws });
      const call = (name: string, input: unknown) =>
        (tools[name] as { execute: (input: unknown, options: unknown) => Promise<unknown> }).execute(input, { toolCallId: "t", messages: [] });
      const write = (await call("write", { path: `${ROOT}/x.md`, content: "x" })) as { error?: string };
      // write creates the parent first; that mkdir -p of the existing root creates nothing, so the refusal is the
      // writeFile's, naming the file (was `mkdir: ${ROOT}` until issue 20, run 33, fixer MB).
      expect(write.error).toBe(`EROFS: read-only file system (mount at ${ROOT}), writeFile: ${ROOT}/x.md`);
      const edit = (await call("edit", { path: `${ROOT}/README.md`, edits: [{ oldText: "Data", newText: "Mine" }] })) as { error?: string };
      expect(edit.error).toBe(`EROFS: read-only file system (mount at ${ROOT}), writeFile: ${ROOT}/README.md`);
      const del = (await call("delete", { path: ROOT, recursive: true })) as { error?: string };
      expect(del.error).toMatch(/^EROFS/);
      expect(await ws.fs.readFile(`${ROOT}/README.md`, "utf8")).toBe("# Data\n");
    }));

  it("a read-write mount only disables EROFS", () =>
    h.run(async (storage) => {
      const rw: Mount = {
        kind: "custom",
        strategy: "eager",
        mode: "read-write",
        async materialize(api) {
          await api.writeFile(`${api.root}/seed.txt`, new Blob(["seed"]).stream());
        },
      };
      const ws = open(storage, { mounts: { "/scratch": rw } });
      await ws.ready();
      await ws.fs.writeFile("/scratch/seed.txt", "changed");
      await ws.fs.rm("/scratch", { recursive: true });
      expect(await code(ws.fs.stat("/scratch"))).toBe("ENOENT");
      // Unversioned: it ran once for this store, so a new Workspace does not refill it.
      const again = open(storage, { mounts: { "/scratch": rw } });
      await again.ready();
      expect(await code(again.fs.stat("/scratch"))).toBe("ENOENT");
    }));

  it("checks roots at construction: absolute, canonical, no trailing slash, no nesting; factories run once", () =>
    h.run(async (storage) => {
      const bad: [Record<string, Mount>, RegExp][] = [
        [{ "data": docs() }, /root "data" must be an absolute path/],
        [{ "/data/": docs() }, /root "\/data\/" must not end with "\/"/],
        [{ "/a//b": docs() }, /root "\/a\/\/b" must be canonical/],
        [{ "/a/../b": docs() }, /must be canonical/],
        [{ "/a": docs(), "/a/b": docs() }, /\/a\/b lies inside mount \/a; mount roots must not nest/],
        [{ "/": docs(), "/x": docs() }, /\/x lies inside mount \/; mount roots must not nest/],
        [{ "/x": { strategy: "lazy" } as unknown as Mount }, /\/x must be a mount/],
      ];
      for (const [mounts, pattern] of bad) expect(() => open(storage, { mounts })).toThrow(pattern);
      expect(() => open(storage, { mounts: [] as never })).toThrow(/mounts must be an object/);
      const seen: unknown[] = [];
      const ws = open(storage, {
        sessionId: "s1",
        mounts: {
          "/a": (ctx) => {
            seen.push({ sessionId: ctx.sessionId, root: ctx.root, hasFs: typeof ctx.vfs.readFile === "function" });
            return docs();
          },
          "/ab": docs(), // a sibling with a shared prefix is not nested
        },
      });
      expect(seen).toEqual([{ sessionId: "s1", root: "/a", hasFs: true }]);
      await ws.ready();
      await ws.ready();
      expect(seen).toHaveLength(1);
      expect(await ws.fs.readFile("/ab/README.md", "utf8")).toBe("# Data\n");
    }));

  it("replaces the copy when the version changes, keeps it when it does not, and clears files placed at the root", () =>
    h.run(async (storage) => {
      const before = open(storage);
      await before.fs.mkdir(ROOT, { recursive: true });
      await before.fs.writeFile(`${ROOT}/user-file.txt`, "placed before the mount");
      const v1 = open(storage, { mounts: { [ROOT]: docs() } });
      await v1.ready();
      expect(await code(v1.fs.stat(`${ROOT}/user-file.txt`))).toBe("ENOENT");
      const inode = (await v1.fs.stat(`${ROOT}/README.md`)).inode;
      const version = rows(storage, "SELECT version FROM __ws_mounts")[0].version as string;
      expect(version).toMatch(/^sha256:[0-9a-f]{64}$/);
      // Same contents (a new but equal tree): nothing is rewritten.
      const same = open(storage, { mounts: { [ROOT]: docs() } });
      await same.ready();
      expect((await same.fs.stat(`${ROOT}/README.md`)).inode).toBe(inode);
      // Changed contents: the old copy is replaced.
      const changed = WorkerBundle({ "README.md": "# Data v2\n", "new/file.txt": "new" });
      const v2 = open(storage, { mounts: { [ROOT]: changed } });
      await v2.ready();
      expect((await v2.fs.readdir(ROOT)).map((e) => e.name)).toEqual(["README.md", "new"]);
      expect(await v2.fs.readFile(`${ROOT}/README.md`, "utf8")).toBe("# Data v2\n");
      expect(await code(v2.fs.stat(`${ROOT}/guide`))).toBe("ENOENT");
      expect(rows(storage, "SELECT version FROM __ws_mounts")[0].version).not.toBe(version);
      // Declared versions win over the content; version: false means once per store.
      const declared = open(storage, { mounts: { [ROOT]: WorkerBundle({ files: { "a.txt": "A" }, version: "v7" }) } });
      await declared.ready();
      expect(rows(storage, "SELECT version FROM __ws_mounts")[0].version).toBe("v7");
      const sameDeclared = open(storage, { mounts: { [ROOT]: WorkerBundle({ files: { "a.txt": "B" }, version: "v7" }) } });
      await sameDeclared.ready();
      expect(await sameDeclared.fs.readFile(`${ROOT}/a.txt`, "utf8")).toBe("A");
      const pinned = open(storage, { mounts: { [ROOT]: WorkerBundle({ "a.txt": "C" }, { version: "v7" }) } });
      await pinned.ready();
      expect(await pinned.fs.readFile(`${ROOT}/a.txt`, "utf8")).toBe("A");
      const unversioned = open(storage, { mounts: { [ROOT]: WorkerBundle({ "a.txt": "D" }, { version: false }) } });
      await unversioned.ready();
      expect(await unversioned.fs.readFile(`${ROOT}/a.txt`, "utf8")).toBe("A");
      // Protection follows the stored record, even with the mount dropped from the options.
      const dropped = open(storage);
      expect(await code(dropped.fs.writeFile(`${ROOT}/a.txt`, "x"))).toBe("EROFS");
    }));

  it("filter skips entries and whole subtrees; fileMode sets modes; both feed the version", () =>
    h.run(async (storage) => {
      const files = { "keep/a.txt": "a", "skip/b.txt": "b", "keep/drop.log": "log", "tool": "#!x" };
      const filtered = WorkerBundle({ files, version: "v1" }, {
        filter: (entry) => entry.path !== "skip" && !entry.path.endsWith(".log"),
        fileMode: (path) => (path === "keep/a.txt" ? 0o600 : undefined),
      });
      const ws = open(storage, { mounts: { "/b": filtered } });
      await ws.ready();
      expect((await ws.fs.find("/b")).map((e) => e.path)).toEqual(["/b/keep", "/b/keep/a.txt", "/b/tool"]);
      expect((await ws.fs.stat("/b/keep/a.txt")).mode).toBe(0o600);
      expect((await ws.fs.stat("/b/tool")).mode).toBe(0o755);
      // fileMode set: the declared version is not trusted, the content hash is used.
      expect(rows(storage, "SELECT version FROM __ws_mounts")[0].version).toMatch(/^sha256:/);
      const onlyFilter = WorkerBundle({ files, version: "v1" }, { filter: (entry) => entry.path !== "skip" });
      const other = typeof onlyFilter.version === "function" ? await onlyFilter.version() : onlyFilter.version;
      expect(other).toMatch(/^sha256:[0-9a-f]{64}$/);
      const noCallbacks = WorkerBundle({ files, version: "v1" });
      expect(noCallbacks.version).toBe("v1");
    }));

  it("rejects bad bundle trees at construction", () =>
    h.run(async () => {
      expect(() => WorkerBundle({ "../etc/passwd": "x" })).toThrow(/contains a "\.\." segment/);
      expect(() => WorkerBundle({ "": "x" })).toThrow(/is empty/);
      expect(() => WorkerBundle({ "./": "x" })).toThrow(/is empty/);
      expect(() => WorkerBundle({ "a.txt": "x", "./a.txt": "y" })).toThrow(/both name a\.txt/);
      expect(() => WorkerBundle({ "a": "x", "a/b": "y" })).toThrow(/a is used as both a file and a directory/);
      expect(() => WorkerBundle({ "a/b": "y", "a": "x" })).toThrow(/a is used as both a file and a directory/);
      expect(() => WorkerBundle({ "a": 5 as never })).toThrow("WorkerBundle: a must be a string, bytes (Uint8Array, ArrayBuffer) or an async loader, got number");
      expect(() => WorkerBundle({ "a": "x" }, { version: 3 as never })).toThrow(/version must be a string or false/);
      expect(() => WorkerBundle({ "a": "x" }, { maxBytes: 0 })).toThrow(/maxBytes must be a positive integer, got 0/);
      expect(() => WorkerBundle("")).toThrow(/dir is empty/);
      expect(() => WorkerBundle("a/../../b")).toThrow(/must not contain "\.\." segments/);
    }));

  it("a failing mount rejects ready(), leaves its root empty and writable, and is retried by the next ready()", () =>
    h.run(async (storage) => {
      let fail = true;
      // A declared version, so the loader runs while materialising (not while hashing).
      const flaky = WorkerBundle({
        version: "v1",
        files: {
          "one.txt": "1",
          "two.txt": async () => {
            if (fail) throw new Error("loader failed");
            return "2";
          },
        },
      });
      const ws = open(storage, { mounts: { [ROOT]: flaky, "/ok": docs() } });
      await expect(ws.ready()).rejects.toThrow("loader failed");
      // The other mount completed; the failed one is empty and not protected.
      expect(await ws.fs.readFile("/ok/README.md", "utf8")).toBe("# Data\n");
      expect(await ws.fs.readdir(ROOT)).toEqual([]); // cleared; the root directory itself stays
      expect(rows(storage, "SELECT root, mode, complete FROM __ws_mounts ORDER BY root")).toEqual([
        { root: "/ok", mode: "read-only", complete: 1 },
        { root: ROOT, mode: "read-write", complete: 0 },
      ]);
      fail = false;
      await ws.ready();
      expect(await ws.fs.readFile(`${ROOT}/two.txt`, "utf8")).toBe("2");
      expect(await code(ws.fs.writeFile(`${ROOT}/two.txt`, "x"))).toBe("EROFS");
      // Without a declared version the loaders run to hash the content: a failure there touches nothing.
      const hashed = open(storage, { mounts: { "/hashed": WorkerBundle({ "x.txt": async () => Promise.reject(new Error("hash-time failure")) }) } });
      await expect(hashed.ready()).rejects.toThrow("hash-time failure");
      expect(rows(storage, "SELECT count(*) AS n FROM __ws_mounts WHERE root = '/hashed'")).toEqual([{ n: 0 }]);
    }));

  it("enforces maxEntries and maxBytes with the spec's messages, and confines writes to the root", () =>
    h.run(async (storage) => {
      const many = WorkerBundle({ "a": "1", "b": "2", "c": "3" }, { maxEntries: 2 });
      const big = WorkerBundle({ "a": "12345", "b": "67890" }, { maxBytes: 8 });
      const escape: Mount = {
        kind: "custom",
        strategy: "eager",
        mode: "read-only",
        async materialize(api) {
          await api.writeFile("/etc/passwd", new Blob(["x"]).stream());
        },
      };
      const ws = open(storage, { mounts: { "/many": many } });
      await expect(ws.ready()).rejects.toThrow("mount /many: maxEntries=2 exceeded");
      const ws2 = open(storage, { mounts: { "/big": big } });
      await expect(ws2.ready()).rejects.toThrow("mount /big: maxBytes=8 exceeded");
      const ws3 = open(storage, { mounts: { "/esc": escape } });
      await expect(ws3.ready()).rejects.toThrow('mount /esc: "/etc/passwd" is outside the mount root');
      expect(await code(ws3.fs.stat("/etc"))).toBe("ENOENT");
      expect(await ws3.fs.readdir("/big")).toEqual([]);
    }));

  it("an empty mount still creates its root; a mount at / replaces every top-level entry", () =>
    h.run(async (storage) => {
      const seed = open(storage);
      await seed.fs.writeFile("/old.txt", "old");
      const ws = open(storage, { mounts: { "/": WorkerBundle({ "top.txt": "top" }), } });
      await ws.ready();
      expect((await ws.fs.readdir("/")).map((e) => e.name)).toEqual(["top.txt"]);
      expect(await code(ws.fs.writeFile("/anything.txt", "x"))).toBe("EROFS");
      const other = h.suite; // keep the harness in scope for both suites
      expect(other === "node" || other === "workers").toBe(true);
    }));

  it("ready() runs the mount pass once; close() forgets it, so a changed version() is seen by the next ready()", () =>
    h.run(async (storage) => {
      let version = "v1";
      let runs = 0;
      const live: Mount = {
        kind: "custom",
        strategy: "eager",
        mode: "read-only",
        version: async () => version,
        async materialize(api) {
          runs++;
          await api.writeFile(`${api.root}/version.txt`, new Blob([version]).stream());
        },
      };
      const ws = open(storage, { mounts: { "/live": live } });
      await Promise.all([ws.ready(), ws.ready(), ws.ensureMountsIndexed()]);
      expect(runs).toBe(1);
      version = "v2";
      await ws.ready(); // the pass is remembered
      expect(await ws.fs.readFile("/live/version.txt", "utf8")).toBe("v1");
      await ws.close();
      await ws.ready();
      expect(runs).toBe(2);
      expect(await ws.fs.readFile("/live/version.txt", "utf8")).toBe("v2");
      await ws.close();
      await ws.ready(); // same version: nothing rewritten
      expect(runs).toBe(2);
    }));

  it("refuses a root reached through a symbolic link (EROFS is enforced on paths), touching nothing", () =>
    h.run(async (storage) => {
      const pre = open(storage);
      await pre.fs.mkdir("/real", { recursive: true });
      await pre.fs.writeFile("/real/keep.txt", "mine");
      await pre.fs.symlink("/real", "/ws");
      const ws = open(storage, { mounts: { "/ws/data": docs() } });
      await expect(ws.ready()).rejects.toThrow(
        "mount /ws/data: /ws is a symbolic link; a mount root must not be reached through a link (remove the link or choose another root)",
      );
      expect(await ws.fs.readdir("/real")).toHaveLength(1);
      expect(rows(storage, "SELECT count(*) AS n FROM __ws_mounts")).toEqual([{ n: 0 }]);
      // Writable as before: nothing was recorded.
      await ws.fs.writeFile("/real/keep.txt", "still mine");
    }));

  it("runs on one store are serialised: concurrent ready() of two Workspaces, and close() during ready(), leave one complete copy", () =>
    h.run(async (storage) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let runs = 0;
      const slow: Mount = {
        kind: "custom",
        strategy: "eager",
        mode: "read-only",
        version: "v1",
        async materialize(api) {
          runs++;
          await api.writeFile(`${api.root}/a.md`, new Blob(["a"]).stream());
          await gate;
          await api.writeFile(`${api.root}/b.md`, new Blob(["b"]).stream());
          await api.writeFile(`${api.root}/c.md`, new Blob(["c"]).stream());
        },
      };
      const one = open(storage, { mounts: { "/docs": slow } });
      const two = open(storage, { mounts: { "/docs": slow } });
      const first = one.ready();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await one.close(); // while the pass runs
      const joined = one.ready();
      const second = two.ready();
      release();
      await Promise.all([first, joined, second]);
      expect(runs).toBe(1);
      expect((await two.fs.readdir("/docs")).map((e) => e.name)).toEqual(["a.md", "b.md", "c.md"]);
      expect(rows(storage, "SELECT mode, complete, version FROM __ws_mounts")).toEqual([{ mode: "read-only", complete: 1, version: "v1" }]);
    }));

  it("a mount whose root overlaps a recorded mount no longer in the options supersedes it", () =>
    h.run(async (storage) => {
      await open(storage, { mounts: { "/workspace/data": docs() } }).ready();
      // Moved up: /workspace now holds the mount; the old record is dropped, its files cleared with the rest.
      const up = open(storage, { mounts: { "/workspace": WorkerBundle({ "b.txt": "b" }) } });
      await up.ready();
      expect((await up.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["b.txt"]);
      expect(rows(storage, "SELECT root FROM __ws_mounts")).toEqual([{ root: "/workspace" }]);
      // Moved down again.
      const down = open(storage, { mounts: { "/workspace/sub": WorkerBundle({ "c.txt": "c" }) } });
      await down.ready();
      expect(rows(storage, "SELECT root FROM __ws_mounts")).toEqual([{ root: "/workspace/sub" }]);
      expect(await down.fs.readFile("/workspace/sub/c.txt", "utf8")).toBe("c");
      // The old mount's files above the new root stay, now writable.
      await down.fs.writeFile("/workspace/b.txt", "writable again");
    }));

  it("unmount(root) ends the protection of a dropped mount and keeps its files", () =>
    h.run(async (storage) => {
      await open(storage, { mounts: { [ROOT]: docs() } }).ready();
      const ws = open(storage);
      expect(await code(ws.fs.writeFile(`${ROOT}/README.md`, "x"))).toBe("EROFS");
      expect(await ws.unmount(ROOT)).toBe(true);
      expect(await ws.unmount(ROOT)).toBe(false);
      await ws.fs.writeFile(`${ROOT}/README.md`, "mine now");
      expect(await ws.fs.readFile(`${ROOT}/guide/intro.md`, "utf8")).toBe("intro v1\n");
      await expect(ws.unmount("relative")).rejects.toThrow('unmount(root): root must be an absolute canonical path such as "/workspace/data", got "relative"');
      // A root still in the options is copied in again by the next ready().
      const again = open(storage, { mounts: { [ROOT]: docs() } });
      await again.ready();
      expect(await again.fs.readFile(`${ROOT}/README.md`, "utf8")).toBe("# Data\n");
    }));

  it("a loader may resolve to a module namespace: its default export is used", () =>
    h.run(async (storage) => {
      const ws = open(storage, {
        mounts: { "/m": WorkerBundle({ "t.txt": async () => ({ default: "text" }), "b.bin": async () => ({ default: new Uint8Array([1, 2]) }) }) },
      });
      await ws.ready();
      expect(await ws.fs.readFile("/m/t.txt", "utf8")).toBe("text");
      expect((await ws.fs.stat("/m/b.bin")).size).toBe(2);
    }));

  it("while a mount is copied in, its root and the directories above it cannot be removed or moved (no swapping it away)", () =>
    h.run(async (storage) => {
      let open!: () => void;
      let at!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const reached = new Promise<void>((resolve) => (at = resolve));
      const slow: Mount = {
        kind: "slow",
        strategy: "eager",
        mode: "read-only",
        version: "v1",
        async materialize(api) {
          await api.writeFile(`${api.root}/f1.txt`, new Blob(["one"]).stream());
          at();
          await gate;
          await api.writeFile(`${api.root}/f2.txt`, new Blob(["two"]).stream());
        },
      };
      const pre = open_(storage);
      await pre.fs.mkdir("/home/u/data", { recursive: true });
      await pre.fs.writeFile("/home/u/data/notes.txt", "precious");
      const ws = open_(storage, { mounts: { "/a/b/c": slow } });
      const ready = ws.ready();
      await reached;
      const copying = "EROFS: read-only file system (mount at /a/b/c is being copied in; its root and the directories above it cannot be removed or moved until ready() finishes)";
      expect(await message(ws.fs.rename("/a", "/z"))).toBe(`${copying}, rename: /a`);
      expect(await message(ws.fs.rename("/a/b/c", "/c"))).toBe(`${copying}, rename: /a/b/c`);
      expect(await message(ws.fs.rm("/a/b", { recursive: true }))).toBe(`${copying}, rm: /a/b`);
      expect(await code(ws.fs.rename("/home", "/a/b/c/home"))).toBeUndefined(); // into the root's contents: allowed while copying
      await ws.fs.rename("/a/b/c/home", "/home");
      await ws.fs.mkdir("/a", { recursive: true }); // a no-op mkdir -p of an ancestor stays allowed
      open();
      await ready;
      expect((await ws.fs.readdir("/a/b/c")).map((e) => e.name)).toEqual(["f1.txt", "f2.txt"]);
      expect(await code(ws.fs.writeFile("/a/b/c/f1.txt", "x"))).toBe("EROFS");
      expect(await ws.fs.readFile("/home/u/data/notes.txt", "utf8")).toBe("precious");
      // Once done, only the read-only rules apply: siblings of the ancestors are free again.
      await ws.fs.rename("/home", "/home2");
    }));

  it("a mount callback that calls back into ready(), ensureMountsIndexed() or unmount() is refused instead of deadlocking", () =>
    h.run(async (storage) => {
      let ws!: Workspace;
      const viaVersion: Mount = { kind: "k", strategy: "eager", mode: "read-only", version: async () => (await ws.ready(), "v"), async materialize() {} };
      ws = open_(storage, { mounts: { "/v": viaVersion } });
      await expect(ws.ready()).rejects.toThrow(
        "mount /v: its version() or materialize() called ready(), ensureMountsIndexed() or unmount() of the Workspace it is filling, which would wait for itself",
      );
      let other!: Workspace;
      const viaUnmount: Mount = { kind: "k", strategy: "eager", mode: "read-only", async materialize() { await other.unmount("/u"); } };
      other = open_(storage, { mounts: { "/u": viaUnmount } });
      await expect(other.ready()).rejects.toThrow("mount /u: its version() or materialize() got ready, unmounted or mounted /u on the same storage, which would wait for itself");
      // Nothing is left half-done: the run failed and can be retried with a well-behaved mount.
      const fixed = open_(storage, { mounts: { "/u": docs() } });
      await fixed.ready();
      expect(await fixed.fs.readFile("/u/README.md", "utf8")).toBe("# Data\n");
    }));

  it("errors name the mount: a parent that is a file, a factory that throws", () =>
    h.run(async (storage) => {
      const pre = open_(storage);
      await pre.fs.writeFile("/ws", "a file");
      const ws = open_(storage, { mounts: { "/ws/data": docs() } });
      await expect(ws.ready()).rejects.toThrow("mount /ws/data: /ws is a file; a mount root must lie in directories (remove the file or choose another root)");
      expect(() =>
        open_(storage, {
          mounts: {
            "/f": () => {
              throw new Error("no bucket binding");
            },
          },
        }),
      ).toThrow("Workspace mounts: the factory for /f threw: no bucket binding");
    }));

  it("runs on overlapping roots from two Workspaces are serialised; a superseded run does not report success", () =>
    h.run(async (storage) => {
      let openA!: () => void;
      let atA!: () => void;
      const gateA = new Promise<void>((resolve) => (openA = resolve));
      const reachedA = new Promise<void>((resolve) => (atA = resolve));
      const aMount: Mount = {
        kind: "a",
        strategy: "eager",
        mode: "read-only",
        async materialize(api) {
          await api.writeFile(`${api.root}/f1.txt`, new Blob(["1"]).stream());
          atA();
          await gateA;
          await api.writeFile(`${api.root}/sub/f2.txt`, new Blob(["2"]).stream());
        },
      };
      const A = open_(storage, { mounts: { "/a/b": aMount } });
      const B = open_(storage, { mounts: { "/a": WorkerBundle({ "x.txt": "x" }) } });
      const pa = A.ready();
      await reachedA;
      const pb = B.ready(); // waits for A's run on the overlapping root
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(rows(storage, "SELECT root FROM __ws_mounts")).toEqual([{ root: "/a/b" }]);
      openA();
      await pa;
      await pb; // then supersedes A's record and replaces /a
      expect(rows(storage, "SELECT root, complete FROM __ws_mounts")).toEqual([{ root: "/a", complete: 1 }]);
      expect((await B.fs.readdir("/a")).map((e) => e.name)).toEqual(["x.txt"]);
      expect(await code(A.fs.writeFile("/a/b/f1.txt", "x"))).toBe("EROFS");
    }));

  it("bundle bytes may be an ArrayBuffer or any view (a Data module's default export is an ArrayBuffer); NUL in a key is refused", () =>
    h.run(async (storage) => {
      const buffer = new Uint8Array([7, 8, 9]).buffer;
      const ws = open_(storage, {
        mounts: {
          "/d": WorkerBundle({
            "raw.bin": buffer,
            "mod.bin": async () => ({ default: buffer }),
            "view.bin": async () => new DataView(new Uint8Array([0, 1, 2, 3]).buffer, 1, 2),
          }),
        },
      });
      await ws.ready();
      expect((await ws.fs.stat("/d/raw.bin")).size).toBe(3);
      expect((await ws.fs.stat("/d/mod.bin")).size).toBe(3);
      expect([...new Uint8Array(await new Response(await ws.fs.readFile("/d/view.bin")).arrayBuffer())]).toEqual([1, 2]);
      expect(() => WorkerBundle({ "a\u0000b": "x" })).toThrow('WorkerBundle: path "a\\u0000b" contains NUL, which no file name may hold');
    }));

  it("an empty bundle mount exists as an empty directory", () =>
    h.run(async (storage) => {
      const ws = open(storage, { mounts: { "/empty": WorkerBundle({}) } });
      await ws.ready();
      expect(await ws.fs.readdir("/empty")).toEqual([]);
      expect(await code(ws.fs.writeFile("/empty/x", "x"))).toBe("EROFS");
    }));
}
