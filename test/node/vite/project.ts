/**
 * A small Vite project on disk for the computerBundle() tests: an entry that
 * re-exports `computer:bundle/skills`, and a `skills/` directory with nested
 * directories, a script, UTF-8 text, a dot-file, a dot-directory, a
 * `node_modules` directory and an empty directory.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type InlineConfig } from "vite";
import { computerBundle } from "../../../src/vite/index.js";

/** The files of `skills/` the glob picks, relative to it, with their text. */
export const BUNDLED: Readonly<Record<string, string>> = {
  "README.md": "# Skills\n",
  "data.json": '{ "answer": 42 }\n',
  "notes.ts": "export const x: number = 1;\n",
  "pdf/SKILL.md": "---\nname: pdf\n---\nUse pdftotext.\n",
  "pdf/scripts/extract.sh": "#!/bin/sh\npdftotext \"$1\" -\n",
  "unicode.txt": "héllo — ✓ 日本\n",
};

/** Files under `skills/` the glob skips. */
export const SKIPPED: Readonly<Record<string, string>> = {
  ".env": "SECRET=1\n",
  ".cache/state.txt": "cached\n",
  "pdf/.draft.md": "draft\n",
  "node_modules/pkg/index.js": "module.exports = 1;\n",
  "pdf/node_modules/x/y.txt": "nested node_modules\n",
};

export interface Project {
  readonly root: string;
  /** Writes a file relative to the project root, creating its directories. */
  write(path: string, text: string): void;
  remove(path: string): void;
  dispose(): void;
}

/** A fresh project in a temp directory; `entry.js` imports `specifier` (default `computer:bundle/skills`). */
export function createProject(specifier = "computer:bundle/skills"): Project {
  const root = mkdtempSync(join(tmpdir(), "vite-bundle-"));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("package.json", '{ "type": "module", "private": true }\n');
  write("entry.js", `import bundle from ${JSON.stringify(specifier)};\nexport default bundle;\n`);
  for (const [path, text] of Object.entries({ ...BUNDLED, ...SKIPPED })) write(`skills/${path}`, text);
  mkdirSync(join(root, "skills/empty"), { recursive: true });
  return {
    root,
    write,
    remove: (path) => rmSync(join(root, path), { recursive: true, force: true }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Vite config of the tests: no config file, quiet, the plugin. */
export function viteConfig(root: string, extra: InlineConfig = {}): InlineConfig {
  return { root, configFile: false, logLevel: "silent", plugins: [computerBundle()], ...extra };
}

/** The bundle's shape as the virtual module exports it. */
export interface BuiltBundle {
  readonly files: Record<string, () => Promise<string>>;
  readonly version: string;
}

let builds = 0;

/** Builds `entry.js` (SSR build: an ES module and its chunks) into `outDir` and imports it. */
export async function buildAndImport(project: Project, outDir = `dist-${++builds}`): Promise<{ bundle: BuiltBundle; outDir: string }> {
  await build(viteConfig(project.root, { build: { ssr: "entry.js", outDir, emptyOutDir: true, minify: false } }));
  const entry = join(project.root, outDir, "entry.js");
  const module = (await import(pathToFileURL(entry).href)) as { default: BuiltBundle };
  return { bundle: module.default, outDir: join(project.root, outDir) };
}

/**
 * The version the plugin documents, computed here from the files on disk:
 * `sha256:<hex>` over `<path> NUL <byte length> NUL <bytes>` per file, paths in code-unit order.
 */
export function expectedVersion(dir: string, paths: readonly string[]): string {
  const hash = createHash("sha256");
  for (const path of [...paths].sort()) {
    const bytes = readFileSync(join(dir, path));
    hash.update(`${path}\0${bytes.byteLength}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}
