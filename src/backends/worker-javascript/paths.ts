/**
 * Confined path resolution for the JavaScript backend (spec 02 §3.4): lexical
 * normalisation, confinement under `root`, and refusal of symbolic links on
 * the way.
 *
 * @module
 */
import type { WorkspaceFilesystem, WorkspaceStatResult } from "../../fs/types.js";
import type { StoreVersion } from "../../storage/store-version.js";
import { dirname, isUnder, normalizePath } from "../../util/path.js";
import { MAX_LINK_SEGMENTS } from "../../fs/nodes.js";
import { headCut, quoteCut } from "../../util/cut.js";

/** An error with a POSIX-style `code` and the `path` it concerns. */
export function pathError(code: string, message: string, path?: string): Error & { code: string; path?: string } {
  const err = new Error(message) as Error & { code: string; path?: string };
  err.code = code;
  if (path !== undefined) err.path = path;
  return err;
}

/** Directories a run's memo holds at most (the oldest is forgotten beyond). */
const MAX_MEMO_DIRECTORIES = 1024;

/**
 * Characters of directory paths a run's memo of checked directories
 * ({@link ConfinedResolver}) holds at most: 1 Mi (`1_048_576`), each entry
 * counted by its whole path. Past it the oldest entries are forgotten (they
 * are checked again when met), so deep trees under long names cannot make
 * the memo hold their every ancestor's path (a 256 KiB path has ancestors
 * of up to 32 MiB together) for the rest of the run.
 */
export const MAX_MEMO_CHARS = 1024 * 1024;

/** A confined path and, when its last component was checked, that component's `lstat`. */
export interface ConfinedPath {
  path: string;
  /** `lstat` of the last component (not a link), when it was checked and exists. */
  last?: WorkspaceStatResult;
}

function validated(root: string, input: string, base: string | undefined): string {
  if (typeof input !== "string") throw new TypeError(`path must be a string, got ${typeof input}`);
  if (input.includes("\0")) throw pathError("EINVAL", `path contains a NUL byte: ${quoteCut(input)}`, input);
  const abs = normalizePath(input, base ?? root);
  if (!isUnder(abs, root)) throw pathError("EACCES", `paths must stay under ${root}: ${input}`, abs);
  return abs;
}

/**
 * Confined resolution for one run, with a memo of directories already found
 * not to be symbolic links. An entry is trusted only while the store is at
 * the {@link StoreVersion} read before the entry was checked, so any write
 * by anyone (this run, the host, another run or connection) makes every
 * entry stale. After {@link forget} (the run's own mutations) the next call
 * checks every component without reading the version. Results and errors
 * are those of {@link resolveConfined}; the last component is always
 * checked afresh. At most 1024 entries and {@link MAX_MEMO_CHARS}
 * characters of their paths: past either the oldest entries are forgotten.
 * Only `fs.lstat` is used (so a caller may count or bound the lookups, as
 * the module graph does).
 */
export class ConfinedResolver {
  readonly #fs: Pick<WorkspaceFilesystem, "lstat">;
  readonly #root: string;
  readonly #version: StoreVersion | undefined;
  /** Directory → the store version read before it was found not to be a link. */
  readonly #directories = new Map<string, string>();
  /** Characters of the paths {@link #directories} holds. */
  #chars = 0;
  #skipMemo = false;

  constructor(fs: Pick<WorkspaceFilesystem, "lstat">, root: string, version?: StoreVersion) {
    this.#fs = fs;
    this.#root = root;
    this.#version = version;
  }

  /** Forgets every checked directory; the next resolution checks every component. */
  forget(): void {
    this.#directories.clear();
    this.#chars = 0;
    this.#skipMemo = true;
  }

  /** Remembers directory `path` as checked at `stamp`, forgetting the oldest entries past the memo's bounds. */
  #remember(path: string, stamp: string): void {
    if (this.#directories.delete(path)) this.#chars -= path.length;
    if (path.length > MAX_MEMO_CHARS) return;
    while (this.#directories.size >= MAX_MEMO_DIRECTORIES || this.#chars + path.length > MAX_MEMO_CHARS) {
      const oldest = this.#directories.keys().next().value as string;
      this.#directories.delete(oldest);
      this.#chars -= oldest.length;
    }
    this.#directories.set(path, stamp);
    this.#chars += path.length;
  }

  /**
   * Resolves `input` like {@link resolveConfined}.
   *
   * @throws the same errors as {@link resolveConfined}.
   */
  async resolve(input: string, options: { base?: string; allowLastLink?: boolean } = {}): Promise<ConfinedPath> {
    const abs = validated(this.#root, input, options.base);
    const segments = abs.split("/").filter(Boolean);
    const last = options.allowLastLink ? segments.length - 1 : segments.length;
    // An entry counts only when the store is at the version it was checked at: nothing was
    // written since (which also holds entries of concurrent calls that started earlier apart).
    let stamp: string | undefined;
    const directories = Math.min(last, segments.length - 1);
    if (this.#skipMemo) this.#skipMemo = false;
    else if (this.#version !== undefined && directories > 0) stamp = this.#version();
    const out: ConfinedPath = { path: abs };
    let prefix = "";
    for (let i = 0; i < last; i++) {
      prefix += "/" + segments[i];
      const final = i === segments.length - 1;
      if (!final && stamp !== undefined && this.#directories.get(prefix) === stamp) continue;
      let stat: WorkspaceStatResult;
      try {
        stat = await this.#fs.lstat(prefix);
      } catch (err) {
        if ((err as { code?: string }).code === "ENOENT" || (err as { code?: string }).code === "ENOTDIR") break;
        throw err;
      }
      if (stat.isSymbolicLink) throw pathError("EACCES", `cannot traverse symbolic link: ${prefix}`, prefix);
      if (final) out.last = stat;
      else if (stamp !== undefined && stat.isDirectory) this.#remember(prefix, stamp);
    }
    return out;
  }
}

/** Link expansions a target check follows before giving up (as the filesystem, spec 01 §2.3). */
const MAX_LINK_EXPANSIONS = 40;

/**
 * Characters of paths one link-target check may look up: 32 Mi (as
 * `MAX_PATH_PREFIX_BYTES` bounds a path's ancestors). Each component on the way
 * is looked up by its whole path, so a target of many components under long
 * names is refused `ENAMETOOLONG` past it rather than holding the object.
 */
const MAX_LINK_CHECK_CHARS = 32 * 1024 * 1024;

/**
 * The form in which a confined run stores link target `target`: a target
 * with a `..` that follows a name (`d/../x`, `/workspace/proj/e/../x`) has
 * those resolved lexically (`x`, `/workspace/proj/x`; leading `..` of a
 * relative target are kept, a trailing `/` too); any other target is kept
 * as written. Without a `..` after a name, where a stored target leads can
 * only go down from the link's directory (a real directory: the sandbox
 * makes no link on a path) or from an absolute path under root, so no link
 * made later can move it out of root (spec 02 §3.4).
 *
 * @example
 * storedLinkTarget("d/../host-secret.txt") // "host-secret.txt"
 * storedLinkTarget("../lib/")              // "../lib/" (unchanged)
 */
export function storedLinkTarget(target: string): string {
  const segments = target.split("/").filter((s) => s !== "" && s !== ".");
  let named = target.startsWith("/");
  let inner = false;
  for (const s of segments) {
    if (s !== "..") named = true;
    else if (named) inner = true;
  }
  if (!inner) return target;
  const out: string[] = [];
  for (const s of segments) {
    if (s !== "..") out.push(s);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!target.startsWith("/")) out.push("..");
  }
  const body = out.join("/");
  const stored = target.startsWith("/") ? "/" + body : body || ".";
  return target.endsWith("/") && !stored.endsWith("/") && stored !== "." ? stored + "/" : stored;
}

/**
 * Where link target `target`, stored at `linkPath`, leads as the filesystem
 * resolves it now (spec 01 §2.3): from the link's directory, following
 * existing links on the way (their targets from where they are), `..` taken
 * lexically after each expansion, and the part from a missing entry on
 * taken lexically (`lexicalUp` tells that a `..` was met there).
 *
 * @throws `ELOOP` past 40 expansions or past `MAX_LINK_SEGMENTS` (16,384)
 *   components from the target and the links it goes through (the
 *   filesystem's own bound); `ENAMETOOLONG` past {@link MAX_LINK_CHECK_CHARS}
 *   characters of paths looked up.
 */
async function leadsTo(fs: WorkspaceFilesystem, linkPath: string, target: string): Promise<{ path: string; lexicalUp: boolean }> {
  // The path of each component so far, the last one's on top ("/a", "/a/b"; none: "/"): a component
  // costs one concatenation, not a copy of the whole path.
  const current: string[] = [];
  const enter = (name: string) => current.push(`${current[current.length - 1] ?? ""}/${name}`);
  if (!target.startsWith("/")) for (const name of dirname(linkPath).split("/")) if (name) enter(name);
  // Pending components, next last.
  const pending = target.split("/").reverse();
  let segments = countSegments(target);
  let looked = 0;
  const bound = (at: string) => {
    if (segments > MAX_LINK_SEGMENTS) {
      throw pathError(
        "ELOOP",
        `symlink target ${headCut(target, 60)}${target.length > 60 ? "…" : ""} takes more than ${MAX_LINK_SEGMENTS} components (its own and those of the links it goes through) to resolve, which the filesystem refuses; use a shorter target`,
        at,
      );
    }
    if (looked > MAX_LINK_CHECK_CHARS) {
      throw pathError(
        "ENAMETOOLONG",
        `symlink target ${headCut(target, 60)}${target.length > 60 ? "…" : ""} walks more than ${MAX_LINK_CHECK_CHARS} characters of paths to check; use a shorter target`,
        at,
      );
    }
  };
  bound(linkPath);
  let expansions = 0;
  let missing = false;
  let lexicalUp = false;
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (missing) lexicalUp = true;
      current.pop();
      continue;
    }
    if (!missing) {
      const path = `${current[current.length - 1] ?? ""}/${name}`;
      looked += path.length;
      bound(path);
      let stat: WorkspaceStatResult | undefined;
      try {
        stat = await fs.lstat(path);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
        missing = true;
      }
      if (stat?.isSymbolicLink) {
        if (++expansions > MAX_LINK_EXPANSIONS) throw pathError("ELOOP", `too many symbolic links in symlink target ${target}`, path);
        const next = await fs.readlink(path);
        segments += countSegments(next);
        bound(path);
        if (next.startsWith("/")) current.length = 0;
        // One by one, not spread as arguments: a target may have ~256 Ki (empty) components.
        const names = next.split("/");
        for (let i = names.length - 1; i >= 0; i--) pending.push(names[i]!);
        continue;
      }
    }
    enter(name);
  }
  return { path: current[current.length - 1] ?? "/", lexicalUp };
}

/** Components of a link target that name something (not empty, not `.`). */
function countSegments(target: string): number {
  let n = 0;
  for (const name of target.split("/")) if (name !== "" && name !== ".") n++;
  return n;
}

/**
 * Checks link target `target` for a link a confined run makes at `linkPath`
 * and answers the text to store: {@link storedLinkTarget} of it. The target
 * must stay under `root` as text and as the filesystem resolves it now
 * (through the links that exist, spec 01 §2.3), and its stored form must lead
 * where it does — so what is stored means what was asked, and (having no
 * `..` after a name) keeps meaning it whatever links are made later. (A
 * `..` past a missing entry is taken lexically.)
 *
 * @throws `EACCES` (`paths must stay under <root>: symlink target <target>`)
 *   when it leaves root; `EINVAL` when a `..` follows a symbolic link, so the
 *   stored (lexical) form would lead elsewhere; `ELOOP` past 40 expansions
 *   or 16,384 components to resolve (`MAX_LINK_SEGMENTS`, which the
 *   filesystem refuses too); `ENAMETOOLONG` past 32 Mi characters of paths
 *   looked up.
 */
export async function checkLinkTarget(fs: WorkspaceFilesystem, root: string, linkPath: string, target: string): Promise<string> {
  const refuse = (at: string): Error => pathError("EACCES", `paths must stay under ${root}: symlink target ${target}`, at);
  const lexical = normalizePath(target, dirname(linkPath));
  if (!isUnder(lexical, root)) throw refuse(lexical);
  const { path: real, lexicalUp } = await leadsTo(fs, linkPath, target);
  if (!isUnder(real, root)) throw refuse(real);
  const stored = storedLinkTarget(target);
  if (stored === target) return target;
  const storedLeadsTo = (await leadsTo(fs, linkPath, stored)).path;
  if (!isUnder(storedLeadsTo, root)) throw refuse(storedLeadsTo);
  // A ".." past a missing entry is taken lexically, as in the stored form: no meaning to lose there.
  if (storedLeadsTo !== real && !lexicalUp) {
    throw pathError(
      "EINVAL",
      `symlink target ${target} has ".." after a symbolic link: it leads to ${real}, but a confined run stores ".." lexically ("${stored}", which leads to ${storedLeadsTo}); write the target without ".." after a name`,
      linkPath,
    );
  }
  return stored;
}

/**
 * Resolves `input` (relative ones against `base`, default `root`), confines
 * it under `root` and refuses symbolic links on every component (all but the
 * last with `allowLastLink`).
 *
 * @throws `EINVAL` for a NUL byte (`path contains a NUL byte: "…"`, the path
 *   JSON-quoted, past 64 characters its first 64 and its length; `err.path`
 *   holds it whole), `EACCES` outside root (`paths must stay under <root>`)
 *   or through a link (`cannot traverse symbolic link`).
 */
export async function resolveConfined(
  fs: WorkspaceFilesystem,
  root: string,
  input: string,
  options: { base?: string; allowLastLink?: boolean } = {},
): Promise<string> {
  return (await new ConfinedResolver(fs, root).resolve(input, options)).path;
}
