/**
 * computerBundle() in `vite build` (spec 01 §6.6): a small project is built
 * with Vite's build() API (an SSR build: an ES module plus a chunk per file),
 * the built module is imported, and its default export is mounted as a
 * WorkerBundle on a Workspace over node:sqlite — the files and bytes the
 * Workspace sees are the ones on disk the glob picks.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, createLogger } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { computerBundle } from "../../../src/vite/index.js";
import { BUNDLED, buildAndImport, createProject, expectedVersion, viteConfig, type Project } from "./project.js";

const projects: Project[] = [];
const project = (specifier?: string) => {
  const created = createProject(specifier);
  projects.push(created);
  return created;
};
afterEach(() => {
  for (const p of projects.splice(0)) p.dispose();
});

const PATHS = Object.keys(BUNDLED).sort();

function mountVersion(storage: ReturnType<typeof nodeSqliteStorage>): unknown {
  return storage.sql.exec("SELECT version FROM __ws_mounts").toArray()[0]?.version;
}

describe("computerBundle() in vite build", () => {
  it("is the plugin @cloudflare/computer:bundle", () => {
    expect(computerBundle().name).toBe("@cloudflare/computer:bundle");
  });

  it("exports files (lazy text loaders keyed ./<path>, dot-files and node_modules skipped) and a content version", async () => {
    const p = project();
    const { bundle, outDir } = await buildAndImport(p);
    expect(Object.keys(bundle.files).sort()).toEqual(PATHS.map((path) => `./${path}`));
    for (const path of PATHS) {
      expect(typeof bundle.files[`./${path}`]).toBe("function");
      expect(await bundle.files[`./${path}`]()).toBe(BUNDLED[path]);
    }
    expect(bundle.version).toBe(expectedVersion(join(p.root, "skills"), PATHS));
    // Lazy: each file is its own chunk, loaded on demand, not inlined in the entry.
    const entry = readFileSync(join(outDir, "entry.js"), "utf8");
    expect(entry).not.toContain("pdftotext");
    expect(entry).toContain(bundle.version);
    expect(readdirSync(outDir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".js")).length).toBe(PATHS.length + 1);
  });

  it("mounts as a WorkerBundle: the Workspace sees the directory's files, bytes and modes", async () => {
    const p = project();
    const { bundle } = await buildAndImport(p);
    const storage = nodeSqliteStorage();
    try {
      const ws = new Workspace({ storage, mounts: { "/skills": WorkerBundle(bundle) } });
      await ws.ready();
      expect((await ws.fs.find("/skills")).map((e) => `${e.type} ${e.path}`)).toEqual([
        "file /skills/README.md",
        "file /skills/data.json",
        "file /skills/notes.ts",
        "dir /skills/pdf",
        "file /skills/pdf/SKILL.md",
        "dir /skills/pdf/scripts",
        "file /skills/pdf/scripts/extract.sh",
        "file /skills/unicode.txt",
      ]);
      for (const path of PATHS) {
        const bytes = new Uint8Array(await new Response(await ws.fs.readFile(`/skills/${path}`)).arrayBuffer());
        expect(Buffer.from(bytes).equals(readFileSync(join(p.root, "skills", path))), path).toBe(true);
      }
      expect((await ws.fs.stat("/skills/pdf/scripts/extract.sh")).mode).toBe(0o755);
      expect((await ws.fs.stat("/skills/README.md")).mode).toBe(0o644);
      expect(mountVersion(storage)).toBe(bundle.version);
      await expect(ws.fs.writeFile("/skills/README.md", "x")).rejects.toMatchObject({ code: "EROFS" });
    } finally {
      storage.close();
    }
  });

  it("the version is the same for identical builds and changes on an edit, an addition and a removal; the mount follows", async () => {
    const p = project();
    const first = await buildAndImport(p);
    const again = await buildAndImport(p);
    expect(again.bundle.version).toBe(first.bundle.version);

    const storage = nodeSqliteStorage();
    try {
      const v1 = new Workspace({ storage, mounts: { "/skills": WorkerBundle(first.bundle) } });
      await v1.ready();
      const inode = (await v1.fs.stat("/skills/README.md")).inode;

      // A skipped file changing changes nothing.
      p.write("skills/.env", "SECRET=2\n");
      p.write("skills/node_modules/pkg/index.js", "module.exports = 2;\n");
      expect((await buildAndImport(p)).bundle.version).toBe(first.bundle.version);

      p.write("skills/README.md", "# Skills v2\n");
      const edited = await buildAndImport(p);
      expect(edited.bundle.version).not.toBe(first.bundle.version);
      expect(edited.bundle.version).toBe(expectedVersion(join(p.root, "skills"), PATHS));

      // A Workspace over the same store with the same bundle keeps its copy; the edited one replaces it.
      const same = new Workspace({ storage, mounts: { "/skills": WorkerBundle(again.bundle) } });
      await same.ready();
      expect((await same.fs.stat("/skills/README.md")).inode).toBe(inode);
      const v2 = new Workspace({ storage, mounts: { "/skills": WorkerBundle(edited.bundle) } });
      await v2.ready();
      expect(await v2.fs.readFile("/skills/README.md", "utf8")).toBe("# Skills v2\n");
      expect(mountVersion(storage)).toBe(edited.bundle.version);

      p.write("skills/pdf/new.md", "new\n");
      const added = await buildAndImport(p);
      expect(Object.keys(added.bundle.files)).toContain("./pdf/new.md");
      expect(added.bundle.version).toBe(expectedVersion(join(p.root, "skills"), [...PATHS, "pdf/new.md"]));

      p.remove("skills/pdf/new.md");
      p.remove("skills/notes.ts");
      const removed = await buildAndImport(p);
      const remaining = PATHS.filter((path) => path !== "notes.ts");
      expect(Object.keys(removed.bundle.files).sort()).toEqual(remaining.map((path) => `./${path}`));
      expect(removed.bundle.version).toBe(expectedVersion(join(p.root, "skills"), remaining));
      const v3 = new Workspace({ storage, mounts: { "/skills": WorkerBundle(removed.bundle) } });
      await v3.ready();
      await expect(v3.fs.stat("/skills/notes.ts")).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      storage.close();
    }
  });

  it("vite build --watch rebuilds with a new version when a bundled file changes or is added", async () => {
    const p = project();
    const outDir = join(p.root, "dist-watch");
    const ends: Array<() => void> = [];
    let built = 0;
    const nextBuild = () => new Promise<void>((resolve) => ends.push(resolve));
    const first = nextBuild();
    const watcher = (await build(viteConfig(p.root, { build: { ssr: "entry.js", outDir, minify: false, watch: {} } }))) as unknown as {
      on(event: "event", listener: (e: { code: string; result?: { close(): Promise<void> } }) => void): void;
      close(): Promise<void>;
    };
    watcher.on("event", (e) => {
      if (e.code === "BUNDLE_END") void e.result?.close();
      if (e.code === "END") ends.shift()?.();
    });
    try {
      await first;
      const load = async () =>
        ((await import(`${pathToFileURL(join(outDir, "entry.js")).href}?build=${++built}`)) as { default: { version: string } }).default.version;
      const before = await load();
      expect(before).toBe(expectedVersion(join(p.root, "skills"), PATHS));
      const second = nextBuild();
      p.write("skills/pdf/SKILL.md", "---\nname: pdf\n---\nUse pdftotext -layout.\n");
      await second;
      const after = await load();
      expect(after).not.toBe(before);
      expect(after).toBe(expectedVersion(join(p.root, "skills"), PATHS));
      // A new file in a nested directory is seen too.
      const third = nextBuild();
      p.write("skills/pdf/scripts/new.sh", "#!/bin/sh\n");
      await third;
      expect(await load()).toBe(expectedVersion(join(p.root, "skills"), [...PATHS, "pdf/scripts/new.sh"]));
    } finally {
      await watcher.close();
    }
  });

  it("the path is relative to the Vite root; ./, a trailing / and \\ are normalised", async () => {
    const p = project("computer:bundle/./skills/pdf/");
    const { bundle } = await buildAndImport(p);
    expect(Object.keys(bundle.files).sort()).toEqual(["./SKILL.md", "./scripts/extract.sh"]);
    expect(bundle.version).toBe(expectedVersion(join(p.root, "skills/pdf"), ["SKILL.md", "scripts/extract.sh"]));
  });

  it("warns for a file that is not UTF-8 text (?raw imports text, so its bytes change on the way)", async () => {
    const p = project();
    p.write("skills/logo.png", "placeholder");
    writeFileSync(join(p.root, "skills/logo.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xfe]));
    const warnings: string[] = [];
    const logger = createLogger("silent");
    logger.warn = (message) => void warnings.push(message);
    logger.warnOnce = logger.warn;
    await build({ ...viteConfig(p.root, { build: { ssr: "entry.js", outDir: "dist", write: false } }), logLevel: "warn", customLogger: logger });
    expect(warnings.filter((w) => w.includes("computer:bundle/"))).toEqual([
      expect.stringContaining(
        "computer:bundle/skills: logo.png is not UTF-8 text; its ?raw import is text, so the mounted bytes will differ. Ship binary files with a wrangler Data rule and WorkerBundle(\"<dir>\") instead",
      ),
    ]);
  });

  describe("errors", () => {
    const failure = async (specifier: string) => {
      const p = project(specifier);
      return build(viteConfig(p.root, { build: { ssr: "entry.js", outDir: "dist", write: false } })).then(
        () => ({ root: p.root, message: "(built)" }),
        (error: Error) => ({ root: p.root, message: error.message }),
      );
    };

    it('a ".." segment', async () => {
      const { message } = await failure("computer:bundle/../outside");
      expect(message).toContain(
        'computer:bundle/../outside: ".." segments are not allowed; the directory must be inside the Vite root — name it relative to the root, e.g. "computer:bundle/skills"',
      );
      expect((await failure("computer:bundle/skills/../../x")).message).toContain('computer:bundle/skills/../../x: ".." segments are not allowed');
    });

    it("an empty directory name", async () => {
      for (const specifier of ["computer:bundle/", "computer:bundle", "computer:bundle/./"]) {
        expect((await failure(specifier)).message).toContain(
          `${specifier}: no directory named; import "computer:bundle/<dir>" with <dir> relative to the Vite root, e.g. "computer:bundle/skills"`,
        );
      }
    });

    it("a missing directory, and a file", async () => {
      const missing = await failure("computer:bundle/nope");
      expect(missing.message).toContain(
        `computer:bundle/nope: no directory at ${missing.root}/nope (the path after "computer:bundle/" is relative to the Vite root, ${missing.root}); create it or correct the import`,
      );
      const file = await failure("computer:bundle/skills/README.md");
      expect(file.message).toContain(
        `computer:bundle/skills/README.md: ${file.root}/skills/README.md is a file, not a directory; name a directory relative to the Vite root (${file.root})`,
      );
    });

    it("glob characters in the name", async () => {
      expect((await failure("computer:bundle/skills/*")).message).toContain(
        "computer:bundle/skills/*: the directory name has characters import.meta.glob reads as a pattern (* ? [ ] { } ( ) !); rename the directory",
      );
    });

    it("more files or bytes than the limits", async () => {
      const p = project();
      const limited = (options: Parameters<typeof computerBundle>[0]) =>
        build({ ...viteConfig(p.root, { build: { ssr: "entry.js", outDir: "dist", write: false } }), plugins: [computerBundle(options)] }).then(
          () => "(built)",
          (error: Error) => error.message,
        );
      expect(await limited({ maxFiles: PATHS.length })).toBe("(built)");
      expect(await limited({ maxFiles: PATHS.length - 1 })).toContain(
        `computer:bundle/skills: more than ${PATHS.length - 1} files; bundle a smaller directory or raise computerBundle({ maxFiles })`,
      );
      const bytes = PATHS.reduce((sum, path) => sum + Buffer.byteLength(BUNDLED[path]), 0);
      expect(await limited({ maxBytes: bytes })).toBe("(built)");
      expect(await limited({ maxBytes: bytes - 1 })).toContain(
        `computer:bundle/skills: more than ${bytes - 1} bytes; bundle a smaller directory or raise computerBundle({ maxBytes })`,
      );
      expect(() => computerBundle({ maxFiles: 0 })).toThrow("computerBundle: maxFiles must be a positive integer, got 0");
    });
  });
});
