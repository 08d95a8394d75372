/**
 * Issue 20, run 39 (lead; sibling of test/node/attack39j/vite-backslash-file-name.test.ts): computerBundle() with a
 * `\` in a bundled file or directory name (legal on Linux and macOS). Vite reads `\` in a generated import as `/`
 * (`a\b.md` beside `a/b.md` shipped `a/b.md`'s bytes; alone it failed with Vite's raw ENOENT), and a WorkerBundle
 * tree's keys read `\` as `/` (spec 01), so such a file can never ship under its own name: the build and the dev
 * import fail with the plugin's message naming the path (src/vite/scan.ts). Dot-files and node_modules, which the
 * glob skips, are not refused; other hard names still ship their own bytes (real Vite builds, SSR, as
 * test/node/vite does, and a dev server).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "vite";
import { buildAndImport, createProject, viteConfig, type BuiltBundle } from "../vite/project.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const message = (path: string) =>
  `computer:bundle/odd: ${path} has a backslash in its name, which Vite and a WorkerBundle tree read as "/", so it would ship as ${JSON.stringify(path.replaceAll("\\", "/"))} (or clash with it); rename it, or move it out of the bundle directory`;

function project(files: Record<string, string>) {
  const p = createProject("computer:bundle/odd");
  cleanups.push(p.dispose);
  for (const [path, text] of Object.entries(files)) p.write(`odd/${path}`, text);
  return p;
}

describe("computerBundle: a backslash in a name (issue 20, run 39, lead)", () => {
  const refused: Array<[string, Record<string, string>, string]> = [
    ["beside its slash twin", { "a\\b.md": "backslash\n", "a/b.md": "a/b's bytes\n" }, "a\\b.md"],
    ["alone", { "lone\\x.md": "no neighbour\n", "plain.md": "plain\n" }, "lone\\x.md"],
    ["leading", { "\\lead.md": "x\n" }, "\\lead.md"],
    ["trailing", { "end\\": "x\n" }, "end\\"],
    ["in a directory name", { "x\\y/c.md": "x\n", "x/y/c.md": "y\n" }, "x\\y"],
    ["deep", { "d/e/f\\g.txt": "x\n" }, "d/e/f\\g.txt"],
  ];
  for (const [name, files, path] of refused) {
    it(`vite build fails naming the path: ${name}`, async () => {
      await expect(buildAndImport(project(files))).rejects.toThrow(message(path));
    });
  }

  it("vite dev fails the import with the same message", async () => {
    const p = project({ "a\\b.md": "backslash\n", "a/b.md": "a/b's bytes\n" });
    const server = await createServer(viteConfig(p.root, { server: { middlewareMode: true, hmr: false, watch: null }, appType: "custom" }));
    try {
      await expect(server.ssrLoadModule("/entry.js")).rejects.toThrow(message("a\\b.md"));
    } finally {
      await server.close();
    }
  });

  it("names the glob skips are not refused, and other hard names still ship their own bytes", async () => {
    const files = { ".a\\b": "dot\n", "node_modules/x\\y.js": "nm\n", "a/b.md": "a/b\n", "p%5C.md": "percent\n", "a?x.md": "q\n" };
    const { bundle } = await buildAndImport(project(files));
    const texts: Record<string, string> = {};
    for (const key of Object.keys((bundle as BuiltBundle).files).sort()) texts[key] = await bundle.files[key]();
    expect(texts).toEqual({ "./a/b.md": "a/b\n", "./a?x.md": "q\n", "./p%5C.md": "percent\n" });
  });
});
