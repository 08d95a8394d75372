/**
 * computerBundle() under the Vite dev server (spec 01 §6.6): the virtual
 * module's code, and its version recomputed after an edit, an addition or a
 * removal in the directory (createServer in middleware mode, ssrLoadModule),
 * with and without HMR, and the HMR update carrying the bundle module. The
 * tests wait for an edit to reach Vite through probe plugins whose
 * watchChange / hotUpdate hooks resolve when Vite reports the file.
 */
import { join } from "node:path";
import { createServer, type Plugin, type ViteDevServer } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { computerBundle } from "../../../src/vite/index.js";
import { BUNDLED, createProject, expectedVersion, type BuiltBundle, type Project } from "./project.js";

const PATHS = Object.keys(BUNDLED).sort();

/** A plugin that tells the test when Vite's watcher reported a file (its watchChange runs after computerBundle's). */
function watchProbe(root: string) {
  const waiting = new Map<string, () => void>();
  const plugin: Plugin = {
    name: "test:watch-probe",
    watchChange(file) {
      waiting.get(file)?.();
      waiting.delete(file);
    },
  };
  /** Runs `change` on a project file and resolves once Vite has seen it. */
  const change = async (path: string, action: () => void) => {
    const file = join(root, path);
    const seen = new Promise<void>((resolve) => waiting.set(file, resolve));
    action();
    await seen;
  };
  return { plugin, change };
}

interface Dev {
  project: Project;
  server: ViteDevServer;
  change: (path: string, action: () => void) => Promise<void>;
  load(): Promise<BuiltBundle>;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function dev(hmr: boolean, specifier?: string): Promise<Dev> {
  const project = createProject(specifier);
  const probe = watchProbe(project.root);
  const server = await createServer({
    root: project.root,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    plugins: [computerBundle(), probe.plugin],
    server: { middlewareMode: true, ws: false, hmr },
  });
  open.push(async () => {
    await server.close();
    project.dispose();
  });
  // Edits made before the watcher's first scan ends would go unreported. The scan usually ends
  // before createServer resolves; chokidar (bundled in the pinned vite) records that in _readyEmitted.
  if (!(server.watcher as { _readyEmitted?: boolean })._readyEmitted) {
    await new Promise<void>((resolve) => server.watcher.once("ready", () => resolve()));
  }
  return {
    project,
    server,
    change: probe.change,
    load: async () => ((await server.ssrLoadModule("/entry.js")) as { default: BuiltBundle }).default,
  };
}

describe("computerBundle() under vite dev", () => {
  it("resolves computer:bundle/<dir> to a virtual module of import.meta.glob and the version", async () => {
    const { project, server } = await dev(false);
    const container = server.environments.ssr.pluginContainer;
    const resolved = await container.resolveId("computer:bundle/skills");
    expect(resolved?.id).toBe("\0computer:bundle/skills");
    const loaded = await container.load(resolved!.id);
    const code = typeof loaded === "string" ? loaded : loaded?.code;
    expect(code).toBe(
      [
        'const files = import.meta.glob("./**/*", { base: "/skills", query: "?raw", import: "default" });',
        `export default { files, version: ${JSON.stringify(expectedVersion(join(project.root, "skills"), PATHS))} };`,
        "",
      ].join("\n"),
    );
  });

  for (const hmr of [true, false]) {
    it(`the version is recomputed after an edit, an addition and a removal (hmr: ${hmr})`, async () => {
      const { project, change, load } = await dev(hmr);
      const skills = join(project.root, "skills");
      const first = await load();
      expect(Object.keys(first.files).sort()).toEqual(PATHS.map((path) => `./${path}`));
      expect(await first.files["./README.md"]()).toBe(BUNDLED["README.md"]);
      expect(first.version).toBe(expectedVersion(skills, PATHS));
      expect((await load()).version).toBe(first.version);

      await change("skills/README.md", () => project.write("skills/README.md", "# Skills, edited\n"));
      const edited = await load();
      expect(edited.version).not.toBe(first.version);
      expect(edited.version).toBe(expectedVersion(skills, PATHS));
      expect(await edited.files["./README.md"]()).toBe("# Skills, edited\n");

      await change("skills/pdf/added.md", () => project.write("skills/pdf/added.md", "added\n"));
      const added = await load();
      expect(Object.keys(added.files)).toContain("./pdf/added.md");
      expect(added.version).toBe(expectedVersion(skills, [...PATHS, "pdf/added.md"]));

      await change("skills/pdf/added.md", () => project.remove("skills/pdf/added.md"));
      const removed = await load();
      expect(Object.keys(removed.files)).not.toContain("./pdf/added.md");
      expect(removed.version).toBe(edited.version);

      // A dot-file is not part of the bundle: editing it leaves the version alone.
      await change("skills/.env", () => project.write("skills/.env", "SECRET=changed\n"));
      expect((await load()).version).toBe(edited.version);

      // The mount follows: a Workspace with the new bundle replaces the old copy.
      const storage = nodeSqliteStorage();
      try {
        await new Workspace({ storage, mounts: { "/skills": WorkerBundle(first) } }).ready();
        const ws = new Workspace({ storage, mounts: { "/skills": WorkerBundle(removed) } });
        await ws.ready();
        expect(await ws.fs.readFile("/skills/README.md", "utf8")).toBe("# Skills, edited\n");
      } finally {
        storage.close();
      }
    });
  }

  it("with HMR, the update of a file in the directory carries the bundle module (Vite reloads it where it was cached)", async () => {
    const project = createProject();
    const updates = new Map<string, (ids: string[]) => void>();
    // Sorted after computerBundle's hotUpdate (enforce "post"): sees the modules it returned.
    const probe: Plugin = {
      name: "test:hot-update-probe",
      enforce: "post",
      hotUpdate({ file, modules }) {
        if (this.environment.name !== "ssr") return;
        updates.get(file)?.(modules.map((m) => m.id ?? m.url));
        updates.delete(file);
      },
    };
    const server = await createServer({
      root: project.root,
      configFile: false,
      logLevel: "silent",
      appType: "custom",
      plugins: [computerBundle(), probe],
      server: { middlewareMode: true, ws: false, hmr: true },
    });
    open.push(async () => {
      await server.close();
      project.dispose();
    });
    if (!(server.watcher as { _readyEmitted?: boolean })._readyEmitted) {
      await new Promise<void>((resolve) => server.watcher.once("ready", () => resolve()));
    }
    await server.ssrLoadModule("/entry.js");
    const update = async (path: string, action: () => void) => {
      const seen = new Promise<string[]>((resolve) => updates.set(join(project.root, path), resolve));
      action();
      return seen;
    };
    expect(await update("skills/notes.ts", () => project.write("skills/notes.ts", "export const x = 2;\n"))).toContain("\0computer:bundle/skills");
    expect(await update("skills/pdf/new.md", () => project.write("skills/pdf/new.md", "new\n"))).toContain("\0computer:bundle/skills");
    expect(await update("skills/.env", () => project.write("skills/.env", "X=1\n"))).not.toContain("\0computer:bundle/skills");
  });

  it("a missing directory fails the import with the plugin's message", async () => {
    const { project, server } = await dev(false, "computer:bundle/missing");
    await expect(server.ssrLoadModule("/entry.js")).rejects.toThrow(
      `computer:bundle/missing: no directory at ${project.root}/missing (the path after "computer:bundle/" is relative to the Vite root, ${project.root}); create it or correct the import`,
    );
  });
});
