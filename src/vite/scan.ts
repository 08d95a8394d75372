/**
 * The directory side of `computerBundle()` (spec 01 §6.6): parsing the `<dir>`
 * of `computer:bundle/<dir>`, listing the files `import.meta.glob("./**\/*")`
 * picks there, and hashing them into the bundle's version. Runs in Node (the
 * Vite process), never in a Worker.
 *
 * @module
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";

/** The import prefix the plugin answers: `computer:bundle/<dir>`. */
export const BUNDLE_PREFIX = "computer:bundle";

/** Characters `import.meta.glob` would read as pattern syntax in its `base` option. */
const GLOB_CHARACTERS = /[*?[\]{}()!]/;

/** Limits of one bundle directory. */
export interface ScanLimits {
  /**
   * Most files listed; also the most subdirectories walked (a directory
   * reached by several paths through symbolic links counts once per path).
   */
  readonly maxFiles: number;
  /** Most bytes read, all files together. */
  readonly maxBytes: number;
}

/** A file of the bundle: its `/`-separated path relative to the bundle directory, and where it is on disk. */
export interface ScannedFile {
  readonly path: string;
  readonly absolute: string;
}

/** What a scan found: the files in code-unit order of path, and the version over them. */
export interface ScanResult {
  readonly files: readonly ScannedFile[];
  readonly version: string;
  /** Files whose bytes are not UTF-8 text (`?raw` imports them as text, so their bytes will differ). */
  readonly binary: readonly string[];
  /** The directories walked (absolute, the bundle directory first): a build in watch mode watches them for new files. */
  readonly directories: readonly string[];
}

/**
 * The `<dir>` of an import specifier `computer:bundle/<dir>`, normalised
 * (`\` read as `/`, empty and `.` segments dropped), or `undefined` when the
 * specifier is not one of the plugin's.
 *
 * @throws Error when the directory is empty, has a `..` segment, a NUL, a `#`
 * (Vite cuts the generated imports there), or characters `import.meta.glob`
 * would read as a pattern.
 */
export function parseBundleSpecifier(specifier: string): string | undefined {
  if (specifier !== BUNDLE_PREFIX && !specifier.startsWith(`${BUNDLE_PREFIX}/`)) return undefined;
  const raw = specifier.slice(BUNDLE_PREFIX.length + 1);
  const parts = raw.replaceAll("\\", "/").split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) {
    throw new Error(
      `${specifier}: ".." segments are not allowed; the directory must be inside the Vite root — name it relative to the root, e.g. "computer:bundle/skills"`,
    );
  }
  if (parts.length === 0) {
    throw new Error(`${specifier}: no directory named; import "computer:bundle/<dir>" with <dir> relative to the Vite root, e.g. "computer:bundle/skills"`);
  }
  const dir = parts.join("/");
  if (dir.includes("\0")) throw new Error(`${JSON.stringify(specifier)}: the directory contains NUL, which no path may hold`);
  if (dir.includes("#")) {
    throw new Error(
      `${specifier}: the directory name has "#", which Vite reads as the start of a URL fragment in the imports import.meta.glob generates; rename the directory`,
    );
  }
  if (GLOB_CHARACTERS.test(dir)) {
    throw new Error(
      `${specifier}: the directory name has characters import.meta.glob reads as a pattern (* ? [ ] { } ( ) !); rename the directory`,
    );
  }
  return dir;
}

/**
 * Whether a path relative to the bundle directory is one `import.meta.glob`
 * picks by default: no segment starts with `.` and none is `node_modules`.
 */
export function isBundled(relative: string): boolean {
  return relative.split("/").every((part) => part !== "" && !part.startsWith(".") && part !== "node_modules");
}

/**
 * Checks that `absolute` (the directory `<dir>` names under the Vite root) is
 * a directory whose real path (symbolic links resolved) is inside the real
 * path of the Vite root — a link out of the root is the same escape as `..`.
 *
 * @throws Error naming the path and the root when it is missing, not a
 * directory, or resolves outside the root.
 */
export function checkBundleDirectory(specifier: string, absolute: string, root: string): void {
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new Error(
      `${specifier}: no directory at ${absolute} (the path after "computer:bundle/" is relative to the Vite root, ${root}); create it or correct the import`,
    );
  }
  if (!stats.isDirectory()) {
    throw new Error(`${specifier}: ${absolute} is a file, not a directory; name a directory relative to the Vite root (${root})`);
  }
  const real = realpathSync(absolute);
  const inside = relative(realpathSync(root), real);
  if (inside === ".." || inside.startsWith("../") || inside.startsWith("..\\") || isAbsolute(inside)) {
    throw new Error(
      `${specifier}: ${absolute} resolves through a symbolic link to ${real}, outside the Vite root (${root}); the directory must be inside the root — move or copy the files into it, or import a directory that is`,
    );
  }
}

/**
 * Lists the files `import.meta.glob("./**\/*")` picks under `dir` (files only;
 * dot-files, dot-directories and `node_modules` skipped; symbolic links
 * followed, a link back to a directory being walked skipped) and computes the
 * version: `sha256:<hex>` of, for each file in code-unit order of its relative
 * path, `<path> NUL <byte length> NUL <bytes>`.
 *
 * Every symbolic link met (to a file or a directory, at any depth) is checked
 * by its real path (all links resolved, `fs.realpathSync`), since the glob
 * ships whatever a link leads to (issue 20, run 35, fixer VT):
 * - the real path must be inside the real path of `root` (the Vite root) — a
 *   link out of the root is the same escape as a `..` segment or a bundle
 *   directory that is itself such a link ({@link checkBundleDirectory});
 * - the real path must not be one the glob itself skips: relative to the real
 *   bundle directory when inside it, else to the real root, no segment may
 *   start with `.` or be `node_modules` ({@link isBundled}) — so a link
 *   `notes.md -> ../.env` cannot ship the root's `.env`.
 * A chain of links is judged by where it ends: one that leaves the root and
 * comes back to a bundled path is followed.
 *
 * A directory reached by several paths (links to it from several places) is
 * walked once per path, as `import.meta.glob` lists its files once per path;
 * so links can multiply the paths (a "diamond" chain of n levels has 2^n).
 * The walk is therefore bounded: at most `limits.maxFiles` subdirectories
 * walked, counting each path, besides at most `limits.maxFiles` files.
 *
 * @param root the Vite root links must stay inside (default `dir`: links
 *   must then stay inside the bundle directory).
 * @throws Error when the directory holds more than `limits.maxFiles` files,
 * more than `limits.maxFiles` subdirectory paths, or `limits.maxBytes` bytes,
 * naming what to change and the option to raise; or when a symbolic link in
 * it resolves outside the root or to a path the glob skips, naming the link
 * and where it leads; or when a file or directory name holds `\`, which Vite
 * and a WorkerBundle tree read as `/` (issue 20, run 39).
 */
export function scanBundle(specifier: string, dir: string, limits: ScanLimits, root: string = dir): ScanResult {
  const files: ScannedFile[] = [];
  const directories: string[] = [];
  const realRoot = realpathSync(root);
  const realDir = realpathSync(dir);
  // A link's real path must stay inside the root, at a path the glob would pick itself (issue 20, run 35, fixer VT).
  const checkLink = (link: string, real: string) => {
    const fromRoot = relative(realRoot, real);
    if (fromRoot === ".." || fromRoot.startsWith("../") || fromRoot.startsWith("..\\") || isAbsolute(fromRoot)) {
      throw new Error(
        `${specifier}: ${link} resolves through a symbolic link to ${real}, outside the Vite root (${root}); a link in the directory must stay inside the root — move or copy the files into it, or remove the link`,
      );
    }
    const fromDir = relative(realDir, real);
    const inDir = !(fromDir === ".." || fromDir.startsWith("../") || fromDir.startsWith("..\\") || isAbsolute(fromDir));
    const path = (inDir ? fromDir : fromRoot).replaceAll("\\", "/");
    if (path !== "" && !isBundled(path)) {
      throw new Error(
        `${specifier}: ${link} resolves through a symbolic link to ${real}, a dot-file, dot-directory or node_modules path, which import.meta.glob skips; a link must not ship it either — copy the files to a path the glob picks, or remove the link`,
      );
    }
  };
  const walk = (absolute: string, prefix: string, ancestors: ReadonlySet<string>) => {
    directories.push(absolute);
    for (const dirent of readdirSync(absolute, { withFileTypes: true })) {
      const name = dirent.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      const child = join(absolute, name);
      const path = prefix ? `${prefix}/${name}` : name;
      // Vite reads `\` in a generated import as `/` (`a\b.md` shipped `a/b.md`'s bytes), and a WorkerBundle tree reads
      // it as `/` too (spec 01, WorkerBundle tree keys), so such a name cannot ship as itself (issue 20, run 39, lead).
      if (name.includes("\\")) {
        throw new Error(
          `${specifier}: ${path} has a backslash in its name, which Vite and a WorkerBundle tree read as "/", so it would ship as ${JSON.stringify(path.replaceAll("\\", "/"))} (or clash with it); rename it, or move it out of the bundle directory`,
        );
      }
      let isDir = dirent.isDirectory();
      let isFile = dirent.isFile();
      if (dirent.isSymbolicLink()) {
        try {
          const target = statSync(child);
          isDir = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue; // a dangling link: the glob lists nothing for it either
        }
        if (isDir || isFile) checkLink(child, realpathSync(child));
      }
      if (isDir) {
        const real = realpathSync(child);
        if (ancestors.has(real)) continue;
        // directories[0] is the bundle directory itself: count the subdirectories walked.
        if (directories.length > limits.maxFiles) {
          throw new Error(
            `${specifier}: more than ${limits.maxFiles} directories walked (a directory linked from several places is walked once per path, as import.meta.glob lists it); ` +
              `bundle a smaller directory, remove symbolic links that reach the same directory by several paths, or raise computerBundle({ maxFiles })`,
          );
        }
        walk(child, path, new Set([...ancestors, real]));
      } else if (isFile) {
        files.push({ path, absolute: child });
        if (files.length > limits.maxFiles) {
          throw new Error(`${specifier}: more than ${limits.maxFiles} files; bundle a smaller directory or raise computerBundle({ maxFiles })`);
        }
      }
    }
  };
  walk(dir, "", new Set([realpathSync(dir)]));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const hash = createHash("sha256");
  const binary: string[] = [];
  let total = 0;
  const tooMany = () => new Error(`${specifier}: more than ${limits.maxBytes} bytes; bundle a smaller directory or raise computerBundle({ maxBytes })`);
  for (const file of files) {
    // The size first: a file past the budget is refused before any of it is read (a 3 GiB file was
    // read whole, or failed with Node's own ERR_FS_FILE_TOO_LARGE — issue 20, thirteenth attack run).
    if (total + statSync(file.absolute).size > limits.maxBytes) throw tooMany();
    const bytes = readFileSync(file.absolute);
    total += bytes.byteLength;
    if (total > limits.maxBytes) throw tooMany();
    hash.update(`${file.path}\0${bytes.byteLength}\0`);
    hash.update(bytes);
    if (!isUtf8(bytes)) binary.push(file.path);
  }
  return { files, version: `sha256:${hash.digest("hex")}`, binary, directories };
}
