/**
 * Seed sync of tool directories (spec 03 §9, seed 001 "Sync and
 * Discovery"): copies seed tools (for example from a `WorkerBundle` mount)
 * into the data directory, replacing a target only when the seed's
 * `version` is higher.
 * @module
 */
import { normalizePath } from "../util/path.js";
import { FrontMatterError, MAX_TOOL_FILE_BYTES, parseFrontMatter, splitFrontMatter } from "./frontmatter.js";
import { resolveLinks } from "./realpath.js";
import type { ToolDirsWorkspace } from "./types.js";
import { readVersion } from "./validate.js";

/** Options of {@link syncToolDirectories}. */
export interface SyncToolDirectoriesOptions {
  /** A `Workspace`, a `getWorkspace()` client, or anything with the `fs` methods sync uses. */
  workspace: ToolDirsWorkspace;
  /** The seed tools directory (absolute), e.g. a read-only bundle mount `/bundle/tools`. */
  from: string;
  /** The data tools directory (absolute), e.g. `/workspace/tools`; created when missing (a link to a directory is used as it is). */
  to: string;
  /** Most files copied for one tool; a larger seed tool is skipped. Default `1000`. */
  maxFiles?: number;
  /** Most bytes copied for one tool; a larger seed tool is skipped. Default `64 MiB`. */
  maxBytes?: number;
  /** Most seed directories examined; the rest are reported as one skip. Default `1024`. */
  maxEntries?: number;
}

/** One tool directory sync copied or kept. */
export interface SyncedToolDirectory {
  /** The directory's name (the same under `from` and `to`). */
  name: string;
  /** The seed directory. */
  from: string;
  /** The target directory. */
  to: string;
  /** The seed's version (missing → 0). */
  version: number;
  /** The target's version before sync: missing version → 0; `null` when there was no target. */
  previousVersion: number | null;
  /** Why it was copied or kept, in words. */
  reason: string;
}

/** A seed directory sync could not handle. */
export interface SkippedSeedToolDirectory {
  /** The seed directory (or `from` itself when it could not be listed). */
  dir: string;
  /** Why, in words, saying what to fix. */
  reason: string;
}

/** What {@link syncToolDirectories} did, each list in seed-directory order. */
export interface SyncToolDirectoriesReport {
  /** New or replaced targets. */
  copied: SyncedToolDirectory[];
  /** Targets left as they were: their version is equal to or higher than the seed's. */
  kept: SyncedToolDirectory[];
  /** Seed directories not synced: no or unreadable TOOL.md, bad version, a link inside, too big, a write failure. */
  skipped: SkippedSeedToolDirectory[];
}

class SyncSkip extends Error {}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function errorCode(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`syncToolDirectories: ${name} must be a positive integer; got ${String(value)}`);
  }
  return value;
}

function absolute(value: unknown, name: string): string {
  if (typeof value !== "string" || !value.startsWith("/")) {
    throw new TypeError(`syncToolDirectories: ${name} must be an absolute Workspace path; got ${JSON.stringify(value)}`);
  }
  return normalizePath(value);
}

/**
 * The version in `<dir>/TOOL.md`: missing version → 0.
 * @returns the version, `"missing"` when there is no TOOL.md, or a message.
 */
async function versionOf(workspace: ToolDirsWorkspace, dir: string): Promise<number | "missing" | { problem: string }> {
  const file = `${dir}/TOOL.md`;
  let text: string;
  try {
    const stat = await workspace.fs.stat(file);
    if (!stat.isFile) return { problem: "TOOL.md is not a regular file" };
    if (stat.size > MAX_TOOL_FILE_BYTES) return { problem: `TOOL.md is ${stat.size} bytes; the limit is ${MAX_TOOL_FILE_BYTES} bytes (256 KiB)` };
    text = await workspace.fs.readFile(file, { encoding: "utf8", byteLength: MAX_TOOL_FILE_BYTES });
  } catch (err) {
    if (errorCode(err) === "ENOENT") return "missing";
    return { problem: `cannot read TOOL.md: ${errorText(err)}` };
  }
  try {
    const split = splitFrontMatter(text);
    const version = readVersion(parseFrontMatter(split.yaml, split.yamlLine));
    return typeof version === "string" ? { problem: `TOOL.md: ${version}` } : version;
  } catch (err) {
    if (err instanceof FrontMatterError) return { problem: err.message };
    throw err;
  }
}

interface SeedFile {
  /** Path relative to the tool directory. */
  rel: string;
  mode: number;
  directory: boolean;
}

/** Lists a seed tool directory (depth-first, parents first), checking the bounds and refusing links. */
async function listSeed(workspace: ToolDirsWorkspace, dir: string, maxFiles: number, maxBytes: number): Promise<SeedFile[]> {
  const out: SeedFile[] = [];
  let bytes = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > 32) throw new SyncSkip(`nested deeper than 32 directories at ${dir}/${rel}`);
    const entries = await workspace.fs.readdir(rel === "" ? dir : `${dir}/${rel}`, { limit: maxFiles + 1 });
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink) {
        throw new SyncSkip(`holds a symbolic link (${childRel}); sync copies only files and directories`);
      }
      if (out.length >= maxFiles) throw new SyncSkip(`has more than ${maxFiles} files (maxFiles)`);
      const stat = await workspace.fs.lstat(`${dir}/${childRel}`);
      if (entry.isDirectory) {
        out.push({ rel: childRel, mode: stat.mode, directory: true });
        await walk(childRel, depth + 1);
      } else if (entry.isFile) {
        bytes += stat.size;
        if (bytes > maxBytes) throw new SyncSkip(`holds more than ${maxBytes} bytes (maxBytes)`);
        out.push({ rel: childRel, mode: stat.mode, directory: false });
      }
    }
  };
  await walk("", 0);
  return out;
}

async function exists(workspace: ToolDirsWorkspace, path: string): Promise<boolean> {
  try {
    await workspace.fs.lstat(path);
    return true;
  } catch (err) {
    if (errorCode(err) === "ENOENT") return false;
    throw err;
  }
}

/**
 * How long (ms) after it started a sync call's staging or aside directory counts as a dead call's leftover, which a
 * later sync removes (`.<name>.sync-<start>-<id>[.old]`; issue 20, run 38, fixer TS). Only cleanup waits for it: a live
 * call whose staging is removed early fails that tool's copy (`ENOENT`), it never swaps a partial copy in.
 */
const SYNC_LEFTOVER_MS = 10 * 60 * 1000;

/**
 * A fresh per-call staging name for `<to>/<name>`: `.<name>.sync-<start ms, base 36>-<8 random base-36 chars>`; the
 * old target is moved aside to the same name plus `.old`. Per call, so two overlapping syncs of one tool (two
 * requests, two Workspaces on one store, two isolates) never empty, fill or rename each other's copy (issue 20,
 * run 38, fixer TS: they shared `<to>/.<name>.sync` and one could swap the other's half-written copy into place).
 */
function stagingName(name: string, now: number): string {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => (b % 36).toString(36)).join("");
  return `.${name}.sync-${now.toString(36)}-${id}`;
}

/**
 * Whether `entry` (a name in `to`) is a sync leftover of the tool `name` that a sync may remove now (run 38, fixer
 * TS): the pre-run-38 shared names `.<name>.sync` and `.<name>.sync.old` always (no current call uses them), a
 * per-call `.<name>.sync-<start>-<id>[.old]` once its start is {@link SYNC_LEFTOVER_MS} or more before `now`.
 */
function isLeftover(entry: string, name: string, now: number): boolean {
  const prefix = `.${name}.sync`;
  if (!entry.startsWith(prefix)) return false;
  const rest = entry.slice(prefix.length);
  if (rest === "" || rest === ".old") return true;
  const match = /^-([0-9a-z]{1,12})-[0-9a-z]{8}(?:\.old)?$/.exec(rest);
  return match !== null && now - parseInt(match[1], 36) >= SYNC_LEFTOVER_MS;
}

/** `path` joined under `dir` (`dir` may be `/`). */
function under(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/**
 * Lists `dir` as `rel → "dir" | byte length` (files and directories; anything else as `"other"`), for checking a
 * staged copy against what was written.
 */
async function listCopy(workspace: ToolDirsWorkspace, dir: string): Promise<Map<string, number | "dir" | "other">> {
  const out = new Map<string, number | "dir" | "other">();
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > 33) return;
    for (const entry of await workspace.fs.readdir(rel === "" ? dir : `${dir}/${rel}`)) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory) {
        out.set(childRel, "dir");
        await walk(childRel, depth + 1);
      } else if (entry.isFile) out.set(childRel, (await workspace.fs.lstat(`${dir}/${childRel}`)).size);
      else out.set(childRel, "other");
    }
  };
  await walk("", 0);
  return out;
}

/**
 * Copies the listed files into this call's own staging directory `staging`, checks the staged copy holds exactly
 * what was written (every seed file and directory, each file's byte length), then puts it in place of `target`: the
 * old target is renamed to `<staging>.old`, the staging directory renamed to `target`, then the old one removed; when
 * the second rename fails the old target is renamed back (or, when another sync has meanwhile put a whole copy at
 * `target`, removed). Whatever fails, this call's staging directory is removed before the error is rethrown, so a
 * failed call leaves the target as it was (or another call's whole copy) and no leftovers; only a call that dies
 * mid-way leaves `<staging>` / `<staging>.old`, which a later sync removes after {@link SYNC_LEFTOVER_MS}.
 * @throws the fs error, or an `Error` "the staged copy … does not match the seed: …" when the check fails.
 */
async function copyTool(workspace: ToolDirsWorkspace, seed: string, files: SeedFile[], target: string, staging: string): Promise<void> {
  const written = new Map<string, number | "dir">();
  try {
    await workspace.fs.mkdir(staging);
    for (const file of files) {
      const dest = `${staging}/${file.rel}`;
      if (file.directory) {
        await workspace.fs.mkdir(dest, { mode: file.mode });
        written.set(file.rel, "dir");
      } else {
        let length = 0;
        const counted = (await workspace.fs.readFile(`${seed}/${file.rel}`)).pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              length += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
        await workspace.fs.writeFile(dest, counted, { mode: file.mode });
        written.set(file.rel, length);
      }
    }
    // Check before the swap: a copy that lost a file (another actor removed or changed the staging, a store that
    // dropped a write) is never put in place of a working tool (issue 20, run 38, fixer TS).
    const staged = await listCopy(workspace, staging);
    for (const [rel, want] of written) {
      const got = staged.get(rel);
      if (got !== want) {
        throw new Error(
          `the staged copy ${staging} does not match the seed: ${rel} is ${got === undefined ? "missing" : got === "dir" ? "a directory" : got === "other" ? "not a file" : `${got} bytes`}, the seed's is ${want === "dir" ? "a directory" : `${want} bytes`}`,
        );
      }
    }
    for (const rel of staged.keys()) {
      if (!written.has(rel)) throw new Error(`the staged copy ${staging} does not match the seed: it holds ${rel}, which the seed does not`);
    }
  } catch (err) {
    await workspace.fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  // The old target is moved aside, not removed, until the copy is in place: a swap that fails
  // puts it back, so a failed sync never leaves the tool missing.
  const aside = `${staging}.old`;
  let hadTarget: boolean;
  try {
    hadTarget = await exists(workspace, target);
    if (hadTarget) await workspace.fs.rename(target, aside);
  } catch (err) {
    await workspace.fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  try {
    await workspace.fs.rename(staging, target);
  } catch (err) {
    if (hadTarget) {
      const restored = await workspace.fs.rename(aside, target).then(
        () => true,
        () => false,
      );
      // Not restored because another sync put its whole copy at `target` meanwhile: the old one is not needed.
      if (!restored && (await exists(workspace, target).catch(() => false))) {
        await workspace.fs.rm(aside, { recursive: true, force: true }).catch(() => undefined);
      }
    }
    await workspace.fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  if (hadTarget) await workspace.fs.rm(aside, { recursive: true, force: true });
}

/**
 * Syncs seed tool directories into the data directory (seed 001 "Sync and
 * Discovery", spec 03 §9). For each subdirectory `<from>/<name>/`
 * (hidden ones and plain files are passed over), in name order:
 *
 * - no `<to>/<name>` → the whole directory is copied (`copied`);
 * - the seed's `version` is **higher** than the target's → the target is
 *   replaced by a copy of the seed: its old files are all removed (the copy
 *   is built in this call's own `<to>/.<name>.sync-<start>-<id>`, checked to
 *   hold every seed file and directory with its byte length, and renamed
 *   into place) (`copied`);
 * - otherwise (equal or lower) the target is left as it is, local edits
 *   included (`kept`).
 *
 * A missing `version` counts as `0`, and so does a target whose TOOL.md is
 * missing or unparsable (a seed with version ≥ 1 repairs it). A seed
 * without a TOOL.md, with a bad front matter or version, holding a
 * symbolic link or exceeding `maxFiles`/`maxBytes` is `skipped` with the
 * reason, as is a tool whose copy failed (e.g. `EROFS`; the target is then
 * left as it was — the old copy is moved aside, not removed, until the new
 * one is in place, and moved back if that fails). File modes
 * are kept. Directories in `to` that have no seed are never touched.
 *
 * Overlapping calls (two requests, two Workspaces on one store; issue 20,
 * run 38, fixer TS) each stage in their own directory, so the target ends
 * up as one call's whole copy or the old tool, never a mix: a call that
 * finds its swap raced (the target moved or replaced meanwhile) reports the
 * tool `skipped` (`copy failed: …`), the other `copied`. A failed call
 * removes its staging directory; a dead call's `<to>/.<name>.sync-…` and
 * `….old` are removed by a later sync once 10 minutes have passed since it
 * started, and the shared names of older
 * releases (`.<name>.sync`, `.<name>.sync.old`) by any later sync. A target
 * at the seed's version is kept even when its files differ from the seed's
 * (local edits are the point of keeping it); bump the seed's version or
 * remove the target to have it copied again.
 * `to` may be a link to a directory (it is created only when missing).
 * When `from` and `to` lead, through symbolic links, to the same directory
 * or to directories containing each other, nothing is synced and the report
 * holds one skip for `from` saying so (a Workspace without `readlink`
 * gets only the textual check below).
 * Nothing found on disk makes it reject; a missing `from` gives one skip.
 * @throws TypeError when `from`/`to` are not absolute paths, or overlap, or
 *   a bound is not a positive integer.
 */
export async function syncToolDirectories(options: SyncToolDirectoriesOptions): Promise<SyncToolDirectoriesReport> {
  if (!options || typeof options !== "object" || !options.workspace?.fs) {
    throw new TypeError("syncToolDirectories: pass { workspace, from, to } with a Workspace (or a client) as workspace");
  }
  const { workspace } = options;
  const from = absolute(options.from, "from");
  const to = absolute(options.to, "to");
  const inside = (a: string, b: string) => a === b || b === "/" || a.startsWith(`${b}/`);
  if (inside(from, to) || inside(to, from)) {
    throw new TypeError(`syncToolDirectories: from (${from}) and to (${to}) must not be the same directory or contain each other`);
  }
  const maxFiles = positiveInteger(options.maxFiles, "maxFiles", 1000);
  const maxBytes = positiveInteger(options.maxBytes, "maxBytes", 64 * 1024 * 1024);
  const maxEntries = positiveInteger(options.maxEntries, "maxEntries", 1024);

  const report: SyncToolDirectoriesReport = { copied: [], kept: [], skipped: [] };
  let entries;
  try {
    entries = await workspace.fs.readdir(from, { limit: maxEntries + 1 });
  } catch (err) {
    report.skipped.push({ dir: from, reason: `cannot list the seed tools directory: ${errorText(err)}` });
    return report;
  }
  if (entries.length > maxEntries) {
    entries = entries.slice(0, maxEntries);
    report.skipped.push({ dir: from, reason: `only the first ${maxEntries} entries were examined (maxEntries)` });
  }
  // The textual check above cannot see links: compare the resolved paths too (when the
  // workspace can read links), so a `to` reached through a link into `from` (or the reverse) is refused.
  const fs = workspace.fs;
  if (typeof fs.readlink === "function") {
    let realFrom: string;
    let realTo: string;
    const readlink = fs.readlink;
    const links = { lstat: (p: string) => fs.lstat(p), readlink: (p: string) => readlink.call(fs, p) };
    try {
      realFrom = await resolveLinks(links, from);
      realTo = await resolveLinks(links, to);
    } catch (err) {
      report.skipped.push({ dir: from, reason: `cannot resolve the links in from or to: ${errorText(err)}` });
      return report;
    }
    if (inside(realFrom, realTo) || inside(realTo, realFrom)) {
      report.skipped.push({
        dir: from,
        reason: `from (${from}) and to (${to}) lead through symbolic links to ${realFrom} and ${realTo}, which are the same directory or contain each other; nothing was synced`,
      });
      return report;
    }
  }
  try {
    if (!(await workspace.fs.stat(to)).isDirectory) {
      report.skipped.push({ dir: to, reason: `to (${to}) is not a directory; nothing was synced` });
      return report;
    }
  } catch (err) {
    if (errorCode(err) !== "ENOENT") {
      report.skipped.push({ dir: to, reason: `cannot read to (${to}): ${errorText(err)}; nothing was synced` });
      return report;
    }
  }
  let madeTo = false;
  // Leftovers of dead sync calls (run 38, fixer TS): the names in `to` now, removed per seed tool below.
  const now = Date.now();
  const present = await workspace.fs.readdir(to).then(
    (list) => list.map((e) => e.name).filter((n) => n.startsWith(".")),
    () => [] as string[],
  );
  for (const entry of entries) {
    if (entry.name.startsWith(".") || !entry.isDirectory) continue;
    const name = entry.name;
    const seed = `${from}/${name}`;
    const target = under(to, name);
    for (const leftover of present.filter((n) => isLeftover(n, name, now))) {
      await workspace.fs.rm(under(to, leftover), { recursive: true, force: true }).catch(() => undefined);
    }
    try {
      const version = await versionOf(workspace, seed);
      if (version === "missing") throw new SyncSkip("no TOOL.md in the seed directory");
      if (typeof version !== "number") throw new SyncSkip(version.problem);
      let previousVersion: number | null = null;
      if (await exists(workspace, target)) {
        const current = await versionOf(workspace, target);
        previousVersion = typeof current === "number" ? current : 0;
      }
      const base = { name, from: seed, to: target, version, previousVersion };
      if (previousVersion !== null && version <= previousVersion) {
        report.kept.push({ ...base, reason: `the target's version ${previousVersion} is not lower than the seed's ${version}` });
        continue;
      }
      const files = await listSeed(workspace, seed, maxFiles, maxBytes);
      if (!madeTo) {
        // `to` may be a link to a directory (the loader follows such links): create it only when missing
        let toIsDirectory = false;
        try {
          toIsDirectory = (await workspace.fs.stat(to)).isDirectory;
        } catch (err) {
          if (errorCode(err) !== "ENOENT") throw err;
        }
        if (!toIsDirectory) await workspace.fs.mkdir(to, { recursive: true });
        madeTo = true;
      }
      await copyTool(workspace, seed, files, target, under(to, stagingName(name, now)));
      report.copied.push({
        ...base,
        reason: previousVersion === null ? "new" : `the seed's version ${version} is higher than the target's ${previousVersion}`,
      });
    } catch (err) {
      report.skipped.push({ dir: seed, reason: err instanceof SyncSkip ? err.message : `copy failed: ${errorText(err)}` });
    }
  }
  return report;
}
