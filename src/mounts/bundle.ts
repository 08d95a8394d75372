/**
 * `WorkerBundle(source, options?)` (spec 01 §6.5): copies files shipped with
 * the Worker — a directory of the upload, or a file tree object — into the
 * mount root, read-only.
 *
 * @module
 */
import { sha256Hex } from "../util/bytes.js";
import { streamOfBytes } from "./bytes-stream.js";
import { positiveInteger } from "./validate.js";
import type {
  EagerMount,
  MountWriteAPI,
  WorkerBundleEntry,
  WorkerBundleFile,
  WorkerBundleOptions,
  WorkerBundleSource,
  WorkerBundleTree,
} from "./types.js";

/** Where workerd's `node:fs` shows the Worker's uploaded modules. */
const BUNDLE_DIR = "/bundle";

type Loader = () => Promise<Uint8Array>;
interface DirNode {
  readonly dirs: Map<string, DirNode>;
  readonly files: Map<string, Loader>;
}
interface Entry extends WorkerBundleEntry {
  readonly load?: Loader;
}

/**
 * A read-only mount of files shipped with the Worker.
 *
 * - `source` a string: a directory of the Worker upload, read through
 *   `node:fs` (needs `nodejs_compat`); relative paths are under `/bundle`,
 *   where workerd shows uploaded modules. Checked at once: a missing
 *   directory throws with a hint on getting it into the upload.
 * - `source` a tree `{ "docs/a.md": "…", "bin/x": bytes, "big.txt": () => import(…) }`
 *   or `{ files, version }`: keys are relative paths (`./`, a leading `/`
 *   and `.` segments dropped, `\` read as `/`); values are text (UTF-8),
 *   bytes or async loaders called while materialising (a loader may resolve
 *   to a module namespace, as `() => import("./a.txt")` does: its `default`
 *   export is used).
 *
 * Entries are written depth-first in code-unit order of names, directories
 * before their children. File mode: `fileMode(path, bytes)`, else `0o755` for
 * a file starting `#!`, else `0o644`. Version (a change replaces the copy on
 * the next `ready()`): `options.version` when a string, none when `false`,
 * else the source's declared version (combined with the entry list when
 * `filter` is set; ignored when `fileMode` is set), else `sha256:<hex>` over
 * the included paths, types, modes and bytes.
 *
 * @throws Error for an empty path, a `..` segment, a duplicate path, a path used
 * as both file and directory, or a missing bundle directory; TypeError for bad options.
 */
export function WorkerBundle(source: string | WorkerBundleTree | WorkerBundleSource, options: WorkerBundleOptions = {}): EagerMount {
  if (options === null || typeof options !== "object") throw new TypeError("WorkerBundle(source, options): options must be an object");
  if (options.filter !== undefined && typeof options.filter !== "function") throw new TypeError("WorkerBundle: filter must be a function");
  if (options.fileMode !== undefined && typeof options.fileMode !== "function") throw new TypeError("WorkerBundle: fileMode must be a function");
  if (options.version !== undefined && options.version !== false && typeof options.version !== "string") {
    throw new TypeError("WorkerBundle: version must be a string or false");
  }
  const maxBytes = positiveInteger(options.maxBytes, "WorkerBundle: maxBytes");
  const maxEntries = positiveInteger(options.maxEntries, "WorkerBundle: maxEntries");

  let tree: () => DirNode;
  let declared: string | undefined;
  let cacheKey: object | string;
  if (typeof source === "string") {
    const dir = bundleDirectory(source);
    tree = () => readDirectory(dir);
    cacheKey = dir;
  } else if (source !== null && typeof source === "object") {
    const files = isSource(source) ? source.files : (source as WorkerBundleTree);
    if (isSource(source) && source.version !== undefined) {
      if (typeof source.version !== "string") throw new TypeError("WorkerBundle: the source's version must be a string");
      declared = source.version;
    }
    const built = buildTree(files);
    tree = () => built;
    cacheKey = source;
  } else {
    throw new TypeError("WorkerBundle(source): source must be a directory path or a file tree object");
  }

  const { filter, fileMode } = options;
  const entries = () => walk(tree(), "", filter);
  const modeOf = (path: string, bytes: Uint8Array) => {
    const chosen = fileMode?.(path, bytes);
    if (chosen !== undefined) {
      if (!Number.isSafeInteger(chosen) || chosen < 0) throw new TypeError(`WorkerBundle: fileMode returned ${String(chosen)} for ${path}; return a mode like 0o644 or undefined`);
      return chosen;
    }
    return bytes[0] === 0x23 && bytes[1] === 0x21 ? 0o755 : 0o644;
  };

  let version: string | (() => Promise<string>) | undefined;
  if (options.version === false) version = undefined;
  else if (typeof options.version === "string") version = options.version;
  else if (declared !== undefined && !fileMode) {
    version = filter ? () => listHash(declared!, entries()) : declared;
  } else if (!filter && !fileMode) {
    version = () => cachedHash(cacheKey, () => contentHash(entries(), modeOf));
  } else {
    version = () => contentHash(entries(), modeOf);
  }

  return {
    kind: "worker-bundle",
    strategy: "eager",
    mode: "read-only",
    ...(version !== undefined ? { version } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(maxEntries !== undefined ? { maxEntries } : {}),
    async materialize(api: MountWriteAPI): Promise<void> {
      const base = api.root === "/" ? "" : api.root;
      for (const entry of entries()) {
        const target = `${base}/${entry.path}`;
        if (entry.type === "dir") {
          await api.mkdir(target);
          continue;
        }
        const bytes = await entry.load!();
        await api.writeFile(target, streamOfBytes(bytes), modeOf(entry.path, bytes));
      }
    },
  };
}

/** Bytes in any of the forms a bundle accepts. */
function isBinary(value: unknown): value is Uint8Array | ArrayBuffer | ArrayBufferView {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

function isSource(value: object): value is WorkerBundleSource {
  const files = (value as { files?: unknown }).files;
  return files !== null && typeof files === "object" && !isBinary(files);
}

/** The absolute directory a string source names. */
function bundleDirectory(source: string): string {
  const trimmed = source.replaceAll("\\", "/");
  const parts = trimmed.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) throw new Error(`WorkerBundle(${JSON.stringify(source)}): the directory must not contain ".." segments`);
  if (trimmed.trim() === "" || (parts.length === 0 && !trimmed.startsWith("/"))) {
    throw new Error("WorkerBundle(dir): dir is empty; name a directory of the Worker upload, e.g. WorkerBundle(\"skills\")");
  }
  const dir = trimmed.startsWith("/") ? `/${parts.join("/")}` : `${BUNDLE_DIR}/${parts.join("/")}`;
  const fs = nodeFs(source);
  let isDirectory = false;
  try {
    isDirectory = fs.statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    const inWorkerd = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
    if (!inWorkerd || !dir.startsWith(`${BUNDLE_DIR}/`)) {
      throw new Error(`WorkerBundle(${JSON.stringify(source)}): ${dir} is not a directory`);
    }
    const glob = `${dir.slice(BUNDLE_DIR.length + 1)}/**/*`;
    throw new Error(
      `WorkerBundle(${JSON.stringify(source)}): ${dir} is not a directory of the Worker upload. ` +
        `Ship the files with the Worker: in the wrangler config set find_additional_modules = true, base_dir = "." ` +
        `(module globs are relative to base_dir, which defaults to the directory of main) and add a rule ` +
        `{ type = "Data", globs = ["${glob}"], fallthrough = true } — or pass a file tree object instead.`,
    );
  }
  return dir;
}

interface NodeFsLike {
  statSync(path: string): { isDirectory(): boolean };
  readdirSync(path: string, options: { withFileTypes: true }): { name: string; isDirectory(): boolean; isFile(): boolean }[];
  readFileSync(path: string): Uint8Array;
}

function nodeFs(source: string): NodeFsLike {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.("node:fs") as NodeFsLike | undefined;
  if (!fs || typeof fs.statSync !== "function") {
    throw new Error(
      `WorkerBundle(${JSON.stringify(source)}): reading a bundle directory needs node:fs — add the nodejs_compat compatibility flag, or pass a file tree object`,
    );
  }
  return fs;
}

function readDirectory(dir: string): DirNode {
  const fs = nodeFs(dir);
  const read = (path: string): DirNode => {
    const node: DirNode = { dirs: new Map(), files: new Map() };
    for (const dirent of fs.readdirSync(path, { withFileTypes: true })) {
      const child = `${path}/${dirent.name}`;
      if (dirent.isDirectory()) node.dirs.set(dirent.name, read(child));
      else if (dirent.isFile()) {
        node.files.set(dirent.name, async () => {
          const bytes = fs.readFileSync(child);
          return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        });
      }
    }
    return node;
  };
  return read(dir);
}

/** Normalises a tree's keys into directories and files, rejecting bad or clashing paths. */
function buildTree(files: WorkerBundleTree): DirNode {
  if (files === null || typeof files !== "object") throw new TypeError("WorkerBundle: files must be an object of path → contents");
  const root: DirNode = { dirs: new Map(), files: new Map() };
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(files)) {
    const parts = key.replaceAll("\\", "/").split("/").filter((part) => part !== "" && part !== ".");
    if (parts.includes("..")) throw new Error(`WorkerBundle: path ${JSON.stringify(key)} contains a ".." segment`);
    if (parts.length === 0) throw new Error(`WorkerBundle: path ${JSON.stringify(key)} is empty; keys are file paths relative to the bundle`);
    if (key.includes("\0")) throw new Error(`WorkerBundle: path ${JSON.stringify(key)} contains NUL, which no file name may hold`);
    const path = parts.join("/");
    const previous = seen.get(path);
    if (previous !== undefined) throw new Error(`WorkerBundle: paths ${JSON.stringify(previous)} and ${JSON.stringify(key)} both name ${path}`);
    seen.set(path, key);
    if (typeof value !== "string" && !isBinary(value) && typeof value !== "function") {
      throw new TypeError(`WorkerBundle: ${path} must be a string, bytes (Uint8Array, ArrayBuffer) or an async loader, got ${value === null ? "null" : typeof value}`);
    }
    let dir = root;
    for (let i = 0; i < parts.length - 1; i++) {
      if (dir.files.has(parts[i])) throw new Error(`WorkerBundle: ${parts.slice(0, i + 1).join("/")} is used as both a file and a directory`);
      let next = dir.dirs.get(parts[i]);
      if (!next) dir.dirs.set(parts[i], (next = { dirs: new Map(), files: new Map() }));
      dir = next;
    }
    const name = parts[parts.length - 1];
    if (dir.dirs.has(name)) throw new Error(`WorkerBundle: ${path} is used as both a file and a directory`);
    dir.files.set(name, () => loadFile(path, value));
  }
  return root;
}

async function loadFile(path: string, value: WorkerBundleTree[string]): Promise<Uint8Array> {
  let loaded: unknown = typeof value === "function" ? await value() : value;
  // `() => import("./file.txt")` resolves to a module namespace: take its default export.
  if (loaded !== null && typeof loaded === "object" && !isBinary(loaded) && "default" in loaded) {
    loaded = (loaded as { default: unknown }).default;
  }
  if (typeof loaded === "string") return new TextEncoder().encode(loaded);
  if (loaded instanceof Uint8Array) return loaded;
  if (loaded instanceof ArrayBuffer) return new Uint8Array(loaded); // a Data module's default export
  if (ArrayBuffer.isView(loaded)) return new Uint8Array(loaded.buffer, loaded.byteOffset, loaded.byteLength);
  throw new TypeError(`WorkerBundle: the loader of ${path} resolved to ${loaded === null ? "null" : typeof loaded}; it must resolve to a string or bytes (Uint8Array, ArrayBuffer)`);
}

/** Depth-first, names in code-unit order, directories before their children; `filter` false skips an entry (and a directory's subtree). */
function* walk(dir: DirNode, prefix: string, filter: WorkerBundleOptions["filter"]): Generator<Entry> {
  const names = [...new Set([...dir.dirs.keys(), ...dir.files.keys()])].sort();
  for (const name of names) {
    const path = prefix ? `${prefix}/${name}` : name;
    const sub = dir.dirs.get(name);
    const entry: Entry = sub ? { path, type: "dir" } : { path, type: "file", load: dir.files.get(name)! };
    if (filter && filter({ path, type: entry.type }) === false) continue;
    yield entry;
    if (sub) yield* walk(sub, path, filter);
  }
}

const hashes = new WeakMap<object, Promise<string>>();
const dirHashes = new Map<string, Promise<string>>();

function cachedHash(key: object | string, compute: () => Promise<string>): Promise<string> {
  const cache = typeof key === "string" ? dirHashes : hashes;
  let hash = (cache as Map<object | string, Promise<string>>).get(key);
  if (!hash) {
    hash = compute();
    hash.catch(() => (cache as Map<object | string, Promise<string>>).delete(key));
    (cache as Map<object | string, Promise<string>>).set(key, hash);
  }
  return hash;
}

/** `sha256:<hex>` of the declared version and the entry list. */
async function listHash(declared: string, entries: Iterable<Entry>): Promise<string> {
  let manifest = `version\t${declared}\n`;
  for (const entry of entries) manifest += `${entry.type}\t${entry.path}\n`;
  return `sha256:${await sha256Hex(new TextEncoder().encode(manifest))}`;
}

/** `sha256:<hex>` over every included entry's path, type, mode and bytes (each file hashed on its own). */
async function contentHash(entries: Iterable<Entry>, modeOf: (path: string, bytes: Uint8Array) => number): Promise<string> {
  let manifest = "";
  for (const entry of entries) {
    if (entry.type === "dir") {
      manifest += `dir\t${entry.path}\n`;
      continue;
    }
    const bytes = await entry.load!();
    manifest += `file\t${modeOf(entry.path, bytes).toString(8)}\t${entry.path}\t${await sha256Hex(bytes)}\n`;
  }
  return `sha256:${await sha256Hex(new TextEncoder().encode(manifest))}`;
}

