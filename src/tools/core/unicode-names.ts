/**
 * Unicode-equivalent names, the tool side (issue 12 §6). The Workspace
 * stores names as given, byte for byte, like Linux: `Résumé.md` typed as
 * NFC (`R\u00e9sum\u00e9.md`) and as NFD (`Re\u0301sume\u0301.md`) are two
 * different names that look the same. The tools add a policy on top:
 *
 * - a not-found result (read, edit, delete, ls, find, grep) names a sibling
 *   whose name has the same NFC form, when one exists;
 * - write refuses to create a new file whose name has the same NFC form as
 *   an existing sibling, and names it.
 *
 * Only the final name is compared, against the entries of its parent
 * directory whose name can be a twin (at most twice as long as its NFD
 * form): at most {@link UNICODE_SIBLING_SCAN_LIMIT} of them, and about
 * {@link UNICODE_SIBLING_SCAN_CHARS} characters of their names — entries past
 * either bound are not compared, as if absent. An ASCII
 * name without `K`, `;` or `` ` `` has no possible twin, and costs no listing
 * ({@link mayHaveTwin}).
 *
 * @module
 */
import { MAX_NAME_LENGTH } from "../../fs/options.js";
import { basename, dirname, normalizePath } from "../../util/path.js";
import { confinedTarget } from "./root.js";
import { isNotFound, type FileStore } from "./store.js";
import { errorMessage } from "./types.js";
import { echoedText } from "./paging.js";

/** Entries of one directory read when looking for an equivalent name (in pages of at most 1000). */
export const UNICODE_SIBLING_SCAN_LIMIT = 10000;

/**
 * Characters (UTF-16 code units) of sibling names one lookup reads, about:
 * only names that can be twins are listed (at most twice the wanted name's
 * NFD length, filtered by the Workspace before they are read), each page is
 * sized from the longest name it can hold, and the scan stops once the next
 * page could pass this (512 Ki; one page of one entry is always read).
 * Siblings past it are not compared. A filesystem that cannot filter by
 * length (a remote stub) lists every name, and pages are then sized from
 * the longest seen so far too.
 */
export const UNICODE_SIBLING_SCAN_CHARS = 524_288;

/** Largest page. */
const PAGE = 1000;

type Sibling = Awaited<ReturnType<ReaddirLike>>[number];

/**
 * The entries of `parent` in name order whose name is at most `longest`
 * UTF-16 code units (the Workspace filters them by {@link MAX_NAME_LENGTH};
 * longer ones may still come from a filesystem that cannot), up to
 * {@link UNICODE_SIBLING_SCAN_LIMIT} of them and about
 * {@link UNICODE_SIBLING_SCAN_CHARS} characters of names.
 */
async function* siblingsOf(readdir: ReaddirLike, parent: string, longest: number): AsyncGenerator<Sibling> {
  let offset = 0;
  let chars = 0;
  // A name of at most `longest` code points has at most twice as many code units.
  let heaviest = Math.max(1, 2 * longest);
  let batch = Math.min(PAGE, Math.max(1, Math.floor(UNICODE_SIBLING_SCAN_CHARS / heaviest)));
  for (;;) {
    const entries = await readdir(parent, { limit: batch, offset, [MAX_NAME_LENGTH]: longest });
    for (const entry of entries) {
      chars += entry.name.length;
      heaviest = Math.max(heaviest, entry.name.length);
      yield entry;
    }
    if (entries.length < batch) return;
    offset += entries.length;
    batch = Math.min(PAGE, UNICODE_SIBLING_SCAN_LIMIT - offset, Math.floor((UNICODE_SIBLING_SCAN_CHARS - chars) / heaviest));
    if (batch <= 0) return;
  }
}

/**
 * The longest name (UTF-16 code units) that can have the same NFC form as
 * `name`: twice its NFD form's length. Two such names have the same NFD
 * form, and every code point is at most two units and decomposes to at least
 * one, so a name is at most twice as long as its NFD form.
 */
function longestTwin(name: string): number {
  return 2 * name.normalize("NFD").length;
}

/** A directory listing shaped like `workspace.fs.readdir` (throws or returns `[]` for a missing directory). */
export type ReaddirLike = (
  path: string,
  options: {
    /** Entries per call. */
    limit: number;
    /** Entries to skip. */
    offset: number;
    /** Only names of at most this many characters, when the filesystem can filter (the Workspace's internal readdir option). */
    readonly [MAX_NAME_LENGTH]?: number;
  },
) => Promise<ReadonlyArray<{ name: string; isDirectory: boolean; isSymbolicLink: boolean }>>;

/** A sibling whose name differs from the requested one only in Unicode normalisation. */
export interface EquivalentSibling {
  /** Its absolute path (the parent of the requested path plus its name as stored). */
  path: string;
  /** `"NFC"`, `"NFD"`, or `"neither NFC nor NFD"`: the form its name is stored in. */
  form: string;
  /** `"file"`, `"directory"` or `"symbolic link"`. */
  kind: string;
}

/**
 * False when no other string has the same NFC form as `name`, so there is
 * nothing to look for: an ASCII name can only have a twin through the three
 * code points whose NFC form is ASCII — U+037E (`;`), U+1FEF (`` ` ``) and
 * U+212A (`K`). Every other name may.
 */
export function mayHaveTwin(name: string): boolean {
  return !/^[\x00-\x7f]*$/.test(name) || /[K;`]/.test(name);
}

/** The normalisation form a name is stored in. */
export function formOf(name: string): string {
  if (name === name.normalize("NFC")) return "NFC";
  if (name === name.normalize("NFD")) return "NFD";
  return "neither NFC nor NFD";
}

/**
 * The first sibling of `path` (in name order) whose name has the same NFC
 * form but is spelled differently, or `null` — also when an entry named
 * exactly like `path` exists, when the parent cannot be listed, or when
 * `readdir` is absent.
 */
export async function findEquivalentSibling(readdir: ReaddirLike | undefined, path: string): Promise<EquivalentSibling | null> {
  if (!readdir || !path.startsWith("/")) return null;
  const name = basename(path);
  if (name === "" || !mayHaveTwin(name)) return null;
  const parent = dirname(path);
  const wanted = name.normalize("NFC");
  const longest = longestTwin(name);
  let found: EquivalentSibling | null = null;
  try {
    for await (const entry of siblingsOf(readdir, parent, longest)) {
      if (entry.name === name) return null;
      if (found === null && entry.name.length <= longest && entry.name.normalize("NFC") === wanted) {
        const kind = entry.isSymbolicLink ? "symbolic link" : entry.isDirectory ? "directory" : "file";
        found = { path: parent === "/" ? `/${entry.name}` : `${parent}/${entry.name}`, form: formOf(entry.name), kind };
      }
    }
  } catch {
    return null;
  }
  return found;
}

/**
 * After write created `path`: the sibling, among those whose name has the
 * same NFC form (another spelling), that was created first — the smallest
 * inode, `path` itself included — when that is not `path`; else `null`.
 * Two writers that each created a spelling of one name at once (the check
 * before creating and the create are two steps, and the path lock is per
 * filesystem object) both list afterwards and agree on which one came first;
 * the other takes its file back. `null` too when the store cannot tell
 * (no `readdir` or `inode`), or when `path` is no longer the file it made.
 */
export async function earlierTwin(store: FileStore, path: string, created: number): Promise<EquivalentSibling | null> {
  const readdir = store.readdir?.bind(store);
  const inode = store.inode?.bind(store);
  const absolute = store.lockPath ? store.lockPath(path) : path;
  const name = basename(absolute);
  if (!readdir || !inode || name === "" || !mayHaveTwin(name)) return null;
  const parent = dirname(absolute);
  const wanted = name.normalize("NFC");
  const longest = longestTwin(name);
  let first: { inode: number; sibling: EquivalentSibling } | null = null;
  try {
    for await (const entry of siblingsOf(readdir, parent, longest)) {
      if (entry.name === name || entry.name.length > longest || entry.name.normalize("NFC") !== wanted) continue;
      const siblingPath = parent === "/" ? `/${entry.name}` : `${parent}/${entry.name}`;
      const id = await inode(siblingPath);
      if (id === null || id >= created || (first !== null && first.inode <= id)) continue;
      const kind = entry.isSymbolicLink ? "symbolic link" : entry.isDirectory ? "directory" : "file";
      first = { inode: id, sibling: { path: siblingPath, form: formOf(entry.name), kind } };
    }
  } catch {
    return null;
  }
  return first?.sibling ?? null;
}

/** `" A file with the same name in another Unicode normalisation exists: <path> (NFD) — use that path."` */
export function siblingHint(sibling: EquivalentSibling): string {
  return `A ${sibling.kind} with the same name in another Unicode normalisation exists: ${echoedText(sibling.path)} (${sibling.form}) — use that path.`;
}

/**
 * {@link findEquivalentSibling} through a store: its optional `readdir`, on
 * the absolute path `path` names (`store.lockPath`, which resolves a
 * relative path under a tool set's `root`).
 */
export function storeSibling(store: FileStore, path: string): Promise<EquivalentSibling | null> {
  return findEquivalentSibling(store.readdir?.bind(store), store.lockPath ? store.lockPath(path) : path);
}

/**
 * `message`, followed by the hint naming an equivalent sibling of `path`
 * in `store` when there is one (a period is put between them unless
 * `message` ends with one).
 */
export async function withSiblingHint(message: string, store: FileStore, path: string): Promise<string> {
  const sibling = await storeSibling(store, path);
  if (!sibling) return message;
  return `${message}${message.endsWith(".") ? "" : "."} ${siblingHint(sibling)}`;
}

/**
 * The `{ error }` text for a failed ls, find or grep call: the error's
 * message, plus the equivalent-sibling hint when it failed because `path`
 * is missing.
 */
export async function searchError(err: unknown, fs: { readdir?: ReaddirLike }, path: string): Promise<string> {
  const message = errorMessage(err);
  if (!isNotFound(err) || typeof fs.readdir !== "function") return message;
  // Under a tool set's root, a relative path is resolved against it (spec 03 §2.4).
  const absolute = normalizePath(path, confinedTarget(fs)?.root ?? "/");
  const sibling = await findEquivalentSibling((p, o) => fs.readdir!(p, o), absolute);
  return sibling ? `${message}${message.endsWith(".") ? "" : "."} ${siblingHint(sibling)}` : message;
}
