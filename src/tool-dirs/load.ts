/**
 * The tool-directory loader (spec 03 §9, seed 001): discovers
 * `<dir>/<name>/TOOL.md` plus an entry file in an ordered list of Workspace
 * directories, validates each, and reports every directory it did not load
 * with the reason. Nothing malformed throws out of it.
 * @module
 */
import { normalizePath } from "../util/path.js";
import { toolExportName } from "../modules/tools.js";
import { FrontMatterError, MAX_TOOL_FILE_BYTES, parseFrontMatter, splitFrontMatter } from "./frontmatter.js";
import type {
  SkippedToolDirectory,
  ToolDirectory,
  ToolDirectorySkipCode,
  ToolDirsReadWorkspace,
  ToolLanguage,
} from "./types.js";
import { TOOL_LANGUAGES, frontMatterName, validateFrontMatter } from "./validate.js";

/** The built-in tool names a directory tool may not take (spec 03 §2.2). */
export const BUILTIN_TOOL_NAMES: readonly string[] = ["read", "ls", "find", "grep", "write", "edit", "delete", "exec", "publish"];

/** The languages the loader accepts by default: all but `python`, which needs a container backend. */
export const DEFAULT_TOOL_LANGUAGES: readonly ToolLanguage[] = ["typescript", "javascript", "bash"];

/** The entry files each language looks for, first found wins. */
export const TOOL_ENTRY_FILES: Readonly<Record<ToolLanguage, readonly string[]>> = {
  typescript: ["index.ts", "index.js"],
  javascript: ["index.js", "index.ts"],
  bash: ["index.sh"],
  python: ["index.py"],
};

/** Options of {@link loadToolDirectories}. */
export interface LoadToolDirectoriesOptions {
  /** A `Workspace`, a `getWorkspace()` client, or anything with `fs.readdir/stat/readFile`. */
  workspace: ToolDirsReadWorkspace;
  /**
   * The tools directories, earlier first (an earlier directory wins a name):
   * an array of absolute Workspace paths, or one string of paths separated
   * by `:` (the `PI_TOOLS_DIRS` form). Empty entries and repeats are
   * ignored; a directory that does not exist is ignored too (sync may not
   * have run yet).
   */
  dirs: string | readonly string[];
  /** Names a directory tool may not take. Default {@link BUILTIN_TOOL_NAMES}. */
  builtinNames?: readonly string[];
  /**
   * The languages the caller can run; tools in other languages are skipped
   * with code `language-unavailable`. Default {@link DEFAULT_TOOL_LANGUAGES}
   * (add `"python"` when a container backend is configured).
   */
  languages?: readonly ToolLanguage[];
  /** Most tools loaded; later directories are skipped with code `limit`. Default `256`. */
  maxTools?: number;
  /** Most entries read from each tools directory; the rest are reported as one `limit` skip. Default `1024`. */
  maxEntries?: number;
}

/** What {@link loadToolDirectories} returns. */
export interface LoadedToolDirectories {
  /** The tools that loaded, in discovery order (directory order, then entry name in UTF-8 byte order). */
  tools: ToolDirectory[];
  /** Every tool directory not loaded, with the reason, in discovery order. */
  skipped: SkippedToolDirectory[];
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`loadToolDirectories: ${name} must be a positive integer; got ${String(value)}`);
  }
  return value;
}

/** Splits and checks `dirs`: absolute paths, normalised, first occurrence kept. */
export function toolDirList(dirs: unknown, caller: string): string[] {
  const list = typeof dirs === "string" ? dirs.split(":") : dirs;
  if (!Array.isArray(list)) {
    throw new TypeError(`${caller}: dirs must be an array of absolute Workspace paths or a ":"-separated string`);
  }
  const out: string[] = [];
  for (const dir of list) {
    if (typeof dir !== "string") throw new TypeError(`${caller}: dirs must hold strings; got ${typeof dir}`);
    if (dir === "") continue;
    if (!dir.startsWith("/")) throw new TypeError(`${caller}: dirs must be absolute Workspace paths; got "${dir}"`);
    const path = normalizePath(dir);
    if (!out.includes(path)) out.push(path);
  }
  return out;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function errorCode(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** `true` when the path is a regular file (links followed), `false` when missing or not a file. */
async function isFile(workspace: ToolDirsReadWorkspace, path: string): Promise<boolean> {
  try {
    return (await workspace.fs.stat(path)).isFile;
  } catch (err) {
    if (errorCode(err) === "ENOENT" || errorCode(err) === "ENOTDIR") return false;
    throw err;
  }
}

function languageReason(language: ToolLanguage): string {
  return language === "python"
    ? "python tools need a container backend, and none is configured (pass languages including \"python\" when one is)"
    : `${language} tools cannot run here (the loader's languages do not include "${language}")`;
}

/**
 * Loads the tool directories under `dirs` (spec 03 §9). For each
 * subdirectory `<dir>/<entry>/` (hidden ones, starting with `.`, and plain
 * files are passed over silently) it reads `TOOL.md` (at most 256 KiB),
 * parses its YAML front matter, validates it, checks the language can run
 * and finds the entry file (see {@link TOOL_ENTRY_FILES}). A directory
 * fails at the first of these checks, in this order, and is reported in
 * `skipped` with a code and a reason:
 *
 * | code | when |
 * |---|---|
 * | `no-tool-file` | no `TOOL.md` |
 * | `too-large` | `TOOL.md` over 256 KiB |
 * | `bad-front-matter` | no `---` block, YAML errors, not a mapping |
 * | `invalid` | a field is missing or wrong (every problem listed, `; `-joined) |
 * | `builtin-name` | the name is a built-in tool's |
 * | `language-unavailable` | the language is not in `languages` |
 * | `no-entry` | no entry file for the language |
 * | `duplicate-name` | a tool found earlier has the name, or the same `ws:tools` export name (`then` is exported as `then_`) |
 * | `unreadable` | the filesystem failed reading the directory or a file |
 * | `limit` | over `maxTools`, or past `maxEntries` of a directory |
 *
 * Never rejects for anything found on disk.
 * @throws TypeError for bad options: `dirs` not absolute paths, `maxTools`
 *   or `maxEntries` not a positive integer, `languages` with an unknown name.
 */
export async function loadToolDirectories(options: LoadToolDirectoriesOptions): Promise<LoadedToolDirectories> {
  if (!options || typeof options !== "object" || !options.workspace?.fs) {
    throw new TypeError("loadToolDirectories: pass { workspace, dirs } with a Workspace (or a client) as workspace");
  }
  const { workspace } = options;
  const roots = toolDirList(options.dirs, "loadToolDirectories");
  const builtins = new Set(options.builtinNames ?? BUILTIN_TOOL_NAMES);
  const languages = new Set(options.languages ?? DEFAULT_TOOL_LANGUAGES);
  for (const language of languages) {
    if (!TOOL_LANGUAGES.includes(language)) {
      throw new TypeError(`loadToolDirectories: unknown language "${String(language)}" in languages; use ${TOOL_LANGUAGES.join(", ")}`);
    }
  }
  const maxTools = positiveInteger(options.maxTools, "maxTools", 256);
  const maxEntries = positiveInteger(options.maxEntries, "maxEntries", 1024);

  const tools: ToolDirectory[] = [];
  const skipped: SkippedToolDirectory[] = [];
  const byName = new Map<string, ToolDirectory>();
  const byExport = new Map<string, ToolDirectory>();
  const skip = (dir: string, code: ToolDirectorySkipCode, reason: string, name?: string) => {
    skipped.push(name === undefined ? { dir, reason, code } : { dir, name, reason, code });
  };

  for (const root of roots) {
    let entries;
    try {
      entries = await workspace.fs.readdir(root, { limit: maxEntries + 1 });
    } catch (err) {
      if (errorCode(err) === "ENOENT") continue;
      skip(root, "unreadable", `cannot list the tools directory: ${errorText(err)}`);
      continue;
    }
    if (entries.length > maxEntries) {
      entries = entries.slice(0, maxEntries);
      skip(root, "limit", `only the first ${maxEntries} entries of the tools directory were examined (maxEntries)`);
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const dir = root === "/" ? `/${entry.name}` : `${root}/${entry.name}`;
      try {
        if (!entry.isDirectory) {
          if (!entry.isSymbolicLink || !(await workspace.fs.stat(dir)).isDirectory) continue;
        }
        const tool = await loadOne(workspace, root, dir, builtins, languages, skip);
        if (!tool) continue;
        const earlier = byName.get(tool.name);
        if (earlier) {
          skip(dir, "duplicate-name", `the name "${tool.name}" is already taken by ${earlier.dir}; the first directory found wins`, tool.name);
          continue;
        }
        // ws:tools exports `then` as `then_` (spec 02 §4.2): two tools must not share an export name.
        const sharing = byExport.get(toolExportName(tool.name));
        if (sharing) {
          skip(
            dir,
            "duplicate-name",
            `the name "${tool.name}" is exported to ws:tools as "${toolExportName(tool.name)}", as "${sharing.name}" (${sharing.dir}) is; the first directory found wins — rename one of them`,
            tool.name,
          );
          continue;
        }
        if (tools.length >= maxTools) {
          skip(dir, "limit", `more than ${maxTools} tools (maxTools); this one was not loaded`, tool.name);
          continue;
        }
        byName.set(tool.name, tool);
        byExport.set(toolExportName(tool.name), tool);
        tools.push(tool);
      } catch (err) {
        skip(dir, "unreadable", `cannot read the tool directory: ${errorText(err)}`);
      }
    }
  }
  return { tools, skipped };
}

/** Loads one directory, or reports it through `skip` and returns `undefined`. Filesystem errors propagate. */
async function loadOne(
  workspace: ToolDirsReadWorkspace,
  root: string,
  dir: string,
  builtins: ReadonlySet<string>,
  languages: ReadonlySet<ToolLanguage>,
  skip: (dir: string, code: ToolDirectorySkipCode, reason: string, name?: string) => void,
): Promise<ToolDirectory | undefined> {
  const toolFile = `${dir}/TOOL.md`;
  let size: number;
  try {
    const stat = await workspace.fs.stat(toolFile);
    if (!stat.isFile) {
      skip(dir, "no-tool-file", "TOOL.md is not a regular file");
      return undefined;
    }
    size = stat.size;
  } catch (err) {
    if (errorCode(err) !== "ENOENT") throw err;
    skip(dir, "no-tool-file", "no TOOL.md in the directory; a tool directory holds TOOL.md and an entry file");
    return undefined;
  }
  const tooLarge = (bytes: number) =>
    skip(dir, "too-large", `TOOL.md is ${bytes} bytes; the limit is ${MAX_TOOL_FILE_BYTES} bytes (256 KiB)`);
  if (size > MAX_TOOL_FILE_BYTES) {
    tooLarge(size);
    return undefined;
  }
  const text = await workspace.fs.readFile(toolFile, { encoding: "utf8", byteLength: MAX_TOOL_FILE_BYTES + 1 });
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_TOOL_FILE_BYTES) {
    tooLarge(bytes);
    return undefined;
  }

  let data: Record<string, unknown>;
  let body: string;
  try {
    const split = splitFrontMatter(text);
    data = parseFrontMatter(split.yaml, split.yamlLine);
    body = split.body.trim();
  } catch (err) {
    if (!(err instanceof FrontMatterError)) throw err;
    skip(dir, "bad-front-matter", err.message);
    return undefined;
  }

  const name = frontMatterName(data);
  const valid = validateFrontMatter(data);
  if ("problems" in valid) {
    skip(dir, "invalid", `TOOL.md: ${valid.problems.join("; ")}`, name);
    return undefined;
  }
  if (builtins.has(valid.name)) {
    skip(dir, "builtin-name", `the name "${valid.name}" is a built-in tool's; give the tool another name`, valid.name);
    return undefined;
  }
  if (!languages.has(valid.language)) {
    skip(dir, "language-unavailable", languageReason(valid.language), valid.name);
    return undefined;
  }
  let entry: string | undefined;
  for (const file of TOOL_ENTRY_FILES[valid.language]) {
    if (await isFile(workspace, `${dir}/${file}`)) {
      entry = `${dir}/${file}`;
      break;
    }
  }
  if (!entry) {
    const files = TOOL_ENTRY_FILES[valid.language].join(" or ");
    skip(dir, "no-entry", `no entry file: a ${valid.language} tool needs ${files} next to TOOL.md`, valid.name);
    return undefined;
  }
  return {
    name: valid.name,
    label: valid.label,
    description: body === "" ? valid.summary : `${valid.summary}\n\n${body}`,
    summary: valid.summary,
    body,
    version: valid.version,
    language: valid.language,
    inputs: valid.inputs,
    mutating: valid.mutating,
    env: valid.env,
    dir,
    toolFile,
    entry,
    root,
  };
}
