/**
 * `computerBundle()` (spec 01 §6.6): the Vite plugin behind
 * `import bundle from "computer:bundle/<dir>"`, whose default export is a
 * {@link WorkerBundleSource} for `WorkerBundle(bundle)`.
 *
 * Imports only Vite's types: the entry has no runtime dependency on `vite`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import type { WorkerBundleSource } from "../mounts/types.js";
import { BUNDLE_PREFIX, checkBundleDirectory, isBundled, parseBundleSpecifier, scanBundle } from "./scan.js";

/** The plugin's name, as in 0.8.0 (it prefixes the plugin's errors in Vite's output). */
export const PLUGIN_NAME = "@cloudflare/computer:bundle";

/** Resolved ids of the virtual modules: `\0computer:bundle/<dir>`. */
const VIRTUAL_PREFIX = `\0${BUNDLE_PREFIX}/`;

/**
 * Import ids of the files whose path in the bundle has `#` or `?` (issue 20, run 38, fixer TS):
 * `computer:bundle-file/<sha256 of the absolute path, 32 hex>`, resolved to `\0` + that; the plugin loads them itself.
 */
const FILE_PREFIX = "computer:bundle-file/";

/**
 * A path in the bundle that `import.meta.glob`'s generated `import("./<path>?raw")` would cut: Vite reads `?` as the
 * start of a query and `#` as a fragment, so `a?x.md` imported `a`'s bytes and `#notes.md#` failed the build with
 * UNRESOLVED_IMPORT (issue 20, run 38, fixer TS).
 */
const CUT_BY_VITE = /[#?]/;

/** Options of {@link computerBundle}. */
export interface ComputerBundleOptions {
  /**
   * Most files one bundle directory may hold, and most subdirectories walked
   * in it (a directory reached by several paths through symbolic links counts
   * once per path); more fails the import with an error naming this option.
   * @defaultValue 10000
   */
  maxFiles?: number;
  /**
   * Most bytes one bundle directory may hold, all files together (they are
   * read to compute the version); more fails the import.
   * @defaultValue 67108864 (64 MiB)
   */
  maxBytes?: number;
}

/** Default of {@link ComputerBundleOptions.maxFiles}. */
const DEFAULT_MAX_FILES = 10_000;
/** Default of {@link ComputerBundleOptions.maxBytes}: 64 MiB. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The Vite plugin `@cloudflare/computer:bundle` (spec 01 §6.6). It resolves
 * `computer:bundle/<dir>` — `<dir>` relative to the Vite root — to a virtual
 * module whose default export is a {@link WorkerBundleSource}:
 *
 * - `files`: `import.meta.glob("./**\/*", { base: "/<dir>", query: "?raw", import: "default" })`
 *   — keys `./<path>`, values lazy loaders of the file's text. Files only;
 *   dot-files, dot-directories and `node_modules` are skipped (the glob's
 *   defaults). Text only: `?raw` reads a file as UTF-8, so a binary file's
 *   bytes change (the plugin warns about each one; ship binaries with a
 *   wrangler `Data` rule and `WorkerBundle("<dir>")` instead). A path with
 *   `#` or `?` (`a?x.md`, `#notes.md#`), which Vite would cut as a fragment
 *   or query in the glob's imports, is left out of the glob and gets the
 *   same kind of loader through the plugin's own id
 *   `computer:bundle-file/<hash>` (issue 20, run 38, fixer TS).
 * - `version`: `sha256:<hex>` over, for each of those files in code-unit
 *   order of path, `<path> NUL <byte length> NUL <bytes>`; computed when the
 *   module loads, and under `vite dev` again after any file of the directory
 *   is edited, added or removed (the module is invalidated, so the next
 *   import or request sees the new version and `WorkerBundle` re-copies).
 *
 * Declare the module for TypeScript with `<pkg>/vite/client`
 * (`"types": ["agent-computer/vite/client"]` in tsconfig.json).
 *
 * Errors (reported by Vite as plugin errors, failing the build or the import):
 * an empty `<dir>` (`computer:bundle/`), a `..` segment, glob characters or
 * `#` in the name, a missing directory or a file, a directory that resolves
 * through a symbolic link to outside the Vite root, a symbolic link in the
 * directory (at any depth) whose real path is outside the root or a path the
 * glob skips (a dot-file, dot-directory or `node_modules`; issue 20, run 35,
 * fixer VT), more than `maxFiles`
 * files or subdirectory paths, or `maxBytes` bytes. Each message names the import and what to change.
 *
 * @param options limits of a bundle directory (an addition to 0.8.0, whose
 * `computerBundle()` takes no options).
 * @throws TypeError when an option is not a positive integer.
 */
export function computerBundle(options: ComputerBundleOptions = {}): Plugin {
  if (options === null || typeof options !== "object") throw new TypeError("computerBundle(options): options must be an object");
  const limits = {
    maxFiles: limit(options.maxFiles, DEFAULT_MAX_FILES, "maxFiles"),
    maxBytes: limit(options.maxBytes, DEFAULT_MAX_BYTES, "maxBytes"),
  };
  let root = "";
  let server: ViteDevServer | undefined;
  /** Bundle directories loaded so far: `<dir>` → absolute path (`/`-separated). */
  const loaded = new Map<string, string>();
  /** The plugin's own file ids (`computer:bundle-file/<hash>`) → absolute path (`/`-separated) (run 38, fixer TS). */
  const ownFiles = new Map<string, string>();
  /** The resolved ids of the own file modules a change of `file` alters. */
  const ownAffected = (file: string): string[] => [...ownFiles].filter(([, absolute]) => absolute === file).map(([id]) => `\0${id}`);

  /** The `<dir>`s whose listing a change of `file` (absolute, `/`-separated) may alter. */
  const affected = (file: string): string[] => {
    const dirs: string[] = [];
    for (const [dir, absolute] of loaded) {
      if (file === absolute || absolute.startsWith(`${file}/`)) dirs.push(dir);
      else if (file.startsWith(`${absolute}/`) && isBundled(file.slice(absolute.length + 1))) dirs.push(dir);
    }
    return dirs;
  };

  return {
    name: PLUGIN_NAME,
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    configureServer(devServer) {
      server = devServer;
    },
    resolveId(source) {
      if (source.startsWith(FILE_PREFIX) && ownFiles.has(source)) return `\0${source}`; // run 38, fixer TS
      const dir = attempt(this, () => parseBundleSpecifier(source));
      if (dir === undefined) return null;
      attempt(this, () => checkBundleDirectory(source, posix.join(root, dir), root));
      return `${VIRTUAL_PREFIX}${dir}`;
    },
    load(id) {
      // A file whose path has `#` or `?`: its text, as `?raw` would give it (UTF-8) (run 38, fixer TS).
      if (id.startsWith(`\0${FILE_PREFIX}`)) {
        const absolute = ownFiles.get(id.slice(1));
        if (absolute === undefined) return null;
        if (!server) this.addWatchFile(absolute);
        const text = attempt(this, () => {
          try {
            return readFileSync(absolute, "utf8");
          } catch (error) {
            throw new Error(`cannot read the bundled file ${absolute}: ${error instanceof Error ? error.message : String(error)}`);
          }
        });
        return `export default ${JSON.stringify(text)};\n`;
      }
      if (!id.startsWith(VIRTUAL_PREFIX)) return null;
      const dir = id.slice(VIRTUAL_PREFIX.length);
      const specifier = `${BUNDLE_PREFIX}/${dir}`;
      const absolute = posix.join(root, dir);
      loaded.set(dir, absolute);
      attempt(this, () => checkBundleDirectory(specifier, absolute, root));
      const scan = attempt(this, () => scanBundle(specifier, absolute, limits, root)); // links must stay in the root (issue 20, run 35, fixer VT)
      for (const path of scan.binary) {
        this.warn(
          `${specifier}: ${path} is not UTF-8 text; its ?raw import is text, so the mounted bytes will differ. ` +
            `Ship binary files with a wrangler Data rule and WorkerBundle("<dir>") instead`,
        );
      }
      // A build in watch mode rebuilds when a listed file changes or a file appears in a walked
      // directory (`vite dev` is handled in watchChange).
      if (!server) for (const path of [...scan.directories, ...scan.files.map((file) => file.absolute)]) this.addWatchFile(path);
      // Files whose path has `#` or `?` are imported through the plugin's own ids (run 38, fixer TS).
      const own: Array<{ path: string; id: string }> = [];
      for (const file of scan.files) {
        if (!CUT_BY_VITE.test(file.path)) continue;
        const id = `${FILE_PREFIX}${createHash("sha256").update(file.absolute).digest("hex").slice(0, 32)}`;
        ownFiles.set(id, file.absolute.replaceAll("\\", "/"));
        own.push({ path: file.path, id });
      }
      return bundleModuleCode(dir, scan.version, own);
    },
    // `vite dev`: an edit, addition or removal under a bundle directory invalidates its module in
    // every environment, so the next import loads it again and recomputes the version (HMR or not).
    watchChange(file) {
      if (!server) return;
      for (const id of [...affected(file).map((dir) => `${VIRTUAL_PREFIX}${dir}`), ...ownAffected(file)]) {
        for (const environment of Object.values(server.environments)) {
          const module = environment.moduleGraph.getModuleById(id);
          if (module) environment.moduleGraph.invalidateModule(module);
        }
      }
    },
    // With HMR, the update carries the bundle module too, so runners that cached it (a Worker under
    // @cloudflare/vite-plugin, a browser page) reload it.
    hotUpdate(update) {
      const modules = [...update.modules];
      for (const id of [...affected(update.file).map((dir) => `${VIRTUAL_PREFIX}${dir}`), ...ownAffected(update.file)]) {
        const module = this.environment.moduleGraph.getModuleById(id);
        if (module && !modules.includes(module)) modules.push(module);
      }
      return modules.length === update.modules.length ? undefined : modules;
    },
  };
}

/**
 * The code of the virtual module of `computer:bundle/<dir>` (`dir` already checked; all values JSON-escaped).
 *
 * @param own the files whose path has `#` or `?` (issue 20, run 38, fixer TS): the glob leaves them out (negative
 * patterns `!./**\/*#*`, `!./**\/*#*\/**`, `!./**\/*[?]*`, `!./**\/*[?]*\/**`) and each gets the same lazy
 * loader shape through the plugin's own id `computer:bundle-file/<hash>`, so `./a?x.md` ships its own text.
 */
export function bundleModuleCode(dir: string, version: string, own: ReadonlyArray<{ path: string; id: string }> = []): string {
  const options = `{ base: ${JSON.stringify(`/${dir}`)}, query: "?raw", import: "default" }`;
  if (own.length === 0) {
    return [
      `const files = import.meta.glob("./**/*", ${options});`,
      `export default { files, version: ${JSON.stringify(version)} };`,
      "",
    ].join("\n");
  }
  const patterns = ["./**/*", "!./**/*#*", "!./**/*#*/**", "!./**/*[?]*", "!./**/*[?]*/**"];
  return [
    `const files = import.meta.glob(${JSON.stringify(patterns)}, ${options});`,
    ...own.map(({ path, id }) => `files[${JSON.stringify(`./${path}`)}] = () => import(${JSON.stringify(id)}).then((m) => m.default);`),
    `export default { files, version: ${JSON.stringify(version)} };`,
    "",
  ].join("\n");
}

/** Runs `work`; an error it throws is reported as this plugin's error (Vite fails the build or the import with its message). */
function attempt<T>(context: { error(message: string): never }, work: () => T): T {
  try {
    return work();
  } catch (error) {
    return context.error(error instanceof Error ? error.message : String(error));
  }
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`computerBundle: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}
