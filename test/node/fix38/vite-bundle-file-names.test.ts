/**
 * Issue 20, run 38, fixer TS (odd list of attacker 38g): computerBundle() checked bundle DIRECTORY names for `#`/`?`
 * but not the names of the files in them. `import.meta.glob` generates `import("./<path>?raw")`, and Vite reads `?` as
 * a query and `#` as a fragment, so `a?x.md` beside `a` shipped a's bytes, `b#c.md` beside `b` shipped b's,
 * `lib#v1.md` shipped `lib/index.js`, and without such a neighbour (an Emacs autosave `#notes.md#`) the build failed
 * with Vite's raw UNRESOLVED_IMPORT. Now such files are left out of the glob and imported through the plugin's own
 * ids (src/vite/plugin.ts), so each ships its own text. Real Vite builds (SSR, as test/node/vite does) and a dev
 * server (ssrLoadModule); the bytes expected are the files on disk, read back with node:fs, and the version is the
 * one test/node/vite computes over every file.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "vite";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { buildAndImport, createProject, viteConfig, type BuiltBundle, type Project } from "../vite/project.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Files with `#`/`?` in their path, each beside the neighbour Vite used to read in its place. */
const ODD: Readonly<Record<string, string>> = {
  a: "A's bytes\n",
  "a?x.md": "a?x's own bytes\n",
  b: "B's bytes\n",
  "b#c.md": "b#c's own bytes\n",
  "lib/index.js": "export const lib = 1;\n",
  "lib#v1.md": "lib v1 notes\n",
  "#notes.md#": "emacs autosave\n",
  "notes.md": "notes\n",
  "sub#x/f.md": "under a # directory\n",
  "q?/g.md": "under a ? directory\n",
  "plain/x#.txt": "# at the end\n",
  "both?#.md": "both\n",
};

function project(): Project {
  const p = createProject("computer:bundle/odd");
  cleanups.push(p.dispose);
  for (const [path, text] of Object.entries(ODD)) p.write(`odd/${path}`, text);
  return p;
}

function versionOver(dir: string, paths: string[]): string {
  const hash = createHash("sha256");
  for (const path of [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const bytes = readFileSync(join(dir, path));
    hash.update(`${path}\0${bytes.byteLength}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}

async function texts(bundle: BuiltBundle): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(bundle.files).sort()) out[key] = await bundle.files[key]();
  return out;
}

const expected = (p: Project) =>
  Object.fromEntries(
    Object.keys(ODD)
      .sort()
      .map((path) => [`./${path}`, readFileSync(join(p.root, "odd", path), "utf8")]),
  );

describe("computerBundle: file names with # or ? (issue 20, run 38, fixer TS)", () => {
  it("vite build ships every file under its own name with its own bytes; the version covers them all", async () => {
    const p = project();
    const { bundle } = await buildAndImport(p);
    expect(await texts(bundle)).toEqual(expected(p));
    expect(bundle.version).toBe(versionOver(join(p.root, "odd"), Object.keys(ODD)));
    // mounted, each file reads back with its own bytes
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), mounts: { "/odd": WorkerBundle(bundle) } });
    try {
      await workspace.ready();
      for (const path of Object.keys(ODD)) expect([path, await workspace.fs.readFile(`/odd/${path}`, "utf8")]).toEqual([path, ODD[path]]);
    } finally {
      await workspace.close();
    }
  });

  it("an Emacs autosave alone in a bundle directory does not break the build", async () => {
    const p = createProject("computer:bundle/docs");
    cleanups.push(p.dispose);
    p.write("docs/guide.md", "guide\n");
    p.write("docs/#guide.md#", "autosave\n");
    const { bundle } = await buildAndImport(p);
    expect(await texts(bundle)).toEqual({ "./#guide.md#": "autosave\n", "./guide.md": "guide\n" });
  });

  it("vite dev serves the same texts, and an edit of an odd file is seen on the next load", async () => {
    const p = project();
    const server = await createServer(viteConfig(p.root, { server: { middlewareMode: true, hmr: false, watch: null }, appType: "custom" }));
    try {
      const load = async () => ((await server.ssrLoadModule("/entry.js")) as { default: BuiltBundle }).default;
      const first = await load();
      expect(await texts(first)).toEqual(expected(p));
      p.write("odd/a?x.md", "edited\n");
      // no watcher in this test: report the change as the watcher would
      server.watcher.emit("change", join(p.root, "odd/a?x.md"));
      await server.pluginContainer.watchChange(join(p.root, "odd/a?x.md"), { event: "update" });
      const second = await load();
      expect(await second.files["./a?x.md"]()).toBe("edited\n");
      expect(second.version).toBe(versionOver(join(p.root, "odd"), Object.keys(ODD)));
    } finally {
      await server.close();
    }
  });
});
