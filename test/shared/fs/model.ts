/**
 * A small in-memory model of `workspace.fs` semantics (spec 01 §2–§3), used
 * by the seeded model-based test. It follows the spec, including where it
 * deviates from POSIX:
 * - read-side calls report ENOENT for a file mid-path; only writeFile,
 *   mkdir and symlink report ENOTDIR there;
 * - `..` in a *requested* path is lexical; `..` inside a link target is physical;
 * - overwrite without `mode` resets the mode to 0o644 and keeps the inode;
 * - a directory's mtime never changes when children change; rename keeps mtime;
 * - mkdir never follows a final link (EEXIST), writeFile writes through it;
 * - at most 40 link expansions per path resolution, the 41st → ELOOP.
 */

export type Code = "ENOENT" | "ENOTEMPTY" | "ENOTDIR" | "EISDIR" | "EEXIST" | "EINVAL" | "EPERM" | "ELOOP";

class FsFail {
  constructor(readonly code: Code) {}
}
/** The spec leaves the order open here: any of `codes` is conforming. */
class FsAmbiguous {
  constructor(readonly codes: Code[]) {}
}
const fail = (code: Code): never => {
  throw new FsFail(code);
};

interface Base {
  id: number;
  mode: number;
  mtime: number;
  parent: Dir | null;
  name: string;
}
interface Dir extends Base {
  kind: "dir";
  children: Map<string, Node>;
}
interface File extends Base {
  kind: "file";
  bytes: Uint8Array;
}
interface Link extends Base {
  kind: "link";
  target: string;
}
type Node = Dir | File | Link;

/** A stat result without the inode, plus the model's node id (mapped to inodes by the test). */
export interface ModelStat {
  name: string;
  nodeId: number;
  mode: number;
  mtime: number;
  size: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}
export interface ModelDirent {
  name: string;
  parentPath: string;
  size: number;
  mtime: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** Where a resolution ended: the containing directory and name, and the node there (if any). */
interface Located {
  parent: Dir | null;
  name: string;
  node: Node | undefined;
}

const MAX_EXPANSIONS = 40;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Canonical path (spec §2.1) or EINVAL. */
export function canonical(path: string): string[] {
  if (typeof path !== "string" || path === "" || !path.startsWith("/") || path.includes("\0")) fail("EINVAL");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) fail("EINVAL");
      out.pop();
    } else out.push(seg);
  }
  return out;
}

export class FsModel {
  #nextId = 2;
  readonly root: Dir;
  now: number;

  constructor(now: number) {
    this.now = now;
    this.root = { id: 1, kind: "dir", mode: 0o755, mtime: now, parent: null, name: "", children: new Map() };
  }

  // ---- resolution ---------------------------------------------------------

  /**
   * Walks `segments` from `start`. Intermediate links are always followed;
   * the final one only when `follow`. `writeSide` picks ENOTDIR over ENOENT
   * for a non-directory in the chain.
   */
  #walk(segments: string[], start: Dir, follow: boolean, writeSide: boolean, budget: { n: number }): Located {
    let dir = start;
    if (segments.length === 0) return { parent: dir.parent, name: dir.name, node: dir };
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const last = i === segments.length - 1;
      if (seg === "" || seg === ".") {
        if (last) return { parent: dir.parent, name: dir.name, node: dir };
        continue;
      }
      if (seg === "..") {
        dir = dir.parent ?? dir;
        if (last) return { parent: dir.parent, name: dir.name, node: dir };
        continue;
      }
      const child = dir.children.get(seg);
      if (last) {
        if (child?.kind === "link" && follow) return this.#expand(child, dir, true, writeSide, budget);
        return { parent: dir, name: seg, node: child };
      }
      if (!child) fail("ENOENT");
      if (child!.kind === "file") fail(writeSide ? "ENOTDIR" : "ENOENT");
      if (child!.kind === "link") {
        const r = this.#expand(child as Link, dir, true, writeSide, budget);
        if (!r.node) fail("ENOENT");
        if (r.node!.kind !== "dir") fail(writeSide ? "ENOTDIR" : "ENOENT");
        dir = r.node as Dir;
      } else dir = child as Dir;
    }
    /* c8 ignore next */
    throw new Error("unreachable");
  }

  #expand(link: Link, from: Dir, follow: boolean, writeSide: boolean, budget: { n: number }): Located {
    if (++budget.n > MAX_EXPANSIONS) fail("ELOOP");
    const segs = link.target.split("/");
    const base = link.target.startsWith("/") ? this.root : from;
    return this.#walk(segs, base, follow, writeSide, budget);
  }

  #resolve(path: string, follow: boolean, writeSide: boolean): Located {
    return this.#walk(canonical(path), this.root, follow, writeSide, { n: 0 });
  }

  #size(node: Node): number {
    if (node.kind === "file") return node.bytes.byteLength;
    if (node.kind === "link") return node.target.length;
    return 0;
  }

  #statOf(name: string, node: Node): ModelStat {
    return {
      name,
      nodeId: node.id,
      mode: node.mode,
      mtime: node.mtime,
      size: this.#size(node),
      isFile: node.kind === "file",
      isDirectory: node.kind === "dir",
      isSymbolicLink: node.kind === "link",
    };
  }

  // ---- operations -----------------------------------------------------------

  stat(path: string): ModelStat {
    const segs = canonical(path);
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    return this.#statOf(segs.at(-1) ?? "", at.node!);
  }

  lstat(path: string): ModelStat {
    const segs = canonical(path);
    const at = this.#resolve(path, false, false);
    if (!at.node) fail("ENOENT");
    return this.#statOf(segs.at(-1) ?? "", at.node!);
  }

  readFile(path: string): string {
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    if (at.node!.kind === "dir") fail("EISDIR");
    return decoder.decode((at.node as File).bytes);
  }

  readlink(path: string): string {
    const at = this.#resolve(path, false, false);
    if (!at.node) fail("ENOENT");
    if (at.node!.kind !== "link") fail("EINVAL");
    return (at.node as Link).target;
  }

  readdir(path: string): ModelDirent[] {
    const parentPath = "/" + canonical(path).join("/");
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    if (at.node!.kind !== "dir") fail("ENOTDIR");
    return [...(at.node as Dir).children.values()]
      .sort((a, b) => compareBytes(a.name, b.name))
      .map((c) => ({
        name: c.name,
        parentPath,
        size: this.#size(c),
        mtime: c.mtime,
        isFile: c.kind === "file",
        isDirectory: c.kind === "dir",
        isSymbolicLink: c.kind === "link",
      }));
  }

  /**
   * writeFile. Returns the set of acceptable outcomes' codes when the spec
   * leaves the order open (exclusive over a link whose resolution fails).
   */
  writeFile(path: string, content: string, options: { mode?: number; exclusive?: boolean }): void {
    const segs = canonical(path);
    if (segs.length === 0) fail("EISDIR");
    const parentAt = this.#walk(segs.slice(0, -1), this.root, true, true, { n: 0 });
    // parentAt.node is the parent directory, after following links
    const parent = this.#asWritableDir(parentAt);
    const leafName = segs.at(-1)!;
    const entry = parent.children.get(leafName);
    let at: Located = { parent, name: leafName, node: entry };
    if (entry?.kind === "link") {
      if (options.exclusive) {
        // EEXIST (the entry exists) — or, by the table's order, the error of following it.
        const followed = modelOutcome(() => this.#expand(entry, parent, true, true, { n: this.#parentBudget(segs) }));
        if ("err" in followed) throw new FsAmbiguous(["EEXIST", followed.err]);
        fail("EEXIST");
      }
      at = this.#expand(entry, parent, true, true, { n: this.#parentBudget(segs) });
      if (!at.node && !at.parent) fail("ENOENT");
    } else if (options.exclusive && entry) fail("EEXIST");
    if (at.node?.kind === "dir") fail("EISDIR");
    const bytes = encoder.encode(content);
    const mode = (options.mode ?? 0o644) & 0o7777;
    if (at.node) {
      const file = at.node as File;
      file.bytes = bytes;
      file.mode = mode;
      file.mtime = this.now;
    } else {
      const dir = at.parent!;
      dir.children.set(at.name, { id: this.#nextId++, kind: "file", mode, mtime: this.now, parent: dir, name: at.name, bytes });
    }
  }

  /** Expansions spent resolving the parent chain (so the final link shares the 40 budget). */
  #parentBudget(segs: string[]): number {
    const budget = { n: 0 };
    this.#walk(segs.slice(0, -1), this.root, true, true, budget);
    return budget.n;
  }

  #asWritableDir(at: Located): Dir {
    if (!at.node) fail("ENOENT");
    if (at.node!.kind !== "dir") fail("ENOTDIR");
    return at.node as Dir;
  }

  mkdir(path: string, options: { recursive?: boolean; mode?: number }): void {
    const segs = canonical(path);
    if (segs.length === 0) fail("EEXIST");
    const mode = (options.mode ?? 0o755) & 0o7777;
    if (!options.recursive) {
      const parent = this.#asWritableDir(this.#walk(segs.slice(0, -1), this.root, true, true, { n: 0 }));
      const name = segs.at(-1)!;
      if (parent.children.has(name)) fail("EEXIST");
      this.#addDir(parent, name, mode);
      return;
    }
    // recursive: walk, creating missing segments (once one is missing, all after are created)
    let dir = this.root;
    const budget = { n: 0 };
    for (let i = 0; i < segs.length; i++) {
      const name = segs[i];
      const last = i === segs.length - 1;
      const child = dir.children.get(name);
      if (!child) {
        dir = this.#addDir(dir, name, last ? mode : 0o755);
        continue;
      }
      if (last) {
        if (child.kind === "dir") return;
        fail("EEXIST");
      }
      if (child.kind === "file") fail("ENOTDIR");
      if (child.kind === "link") {
        const r = this.#expand(child, dir, true, true, budget);
        if (!r.node) fail("ENOENT");
        if (r.node!.kind !== "dir") fail("ENOTDIR");
        dir = r.node as Dir;
      } else dir = child as Dir;
    }
  }

  #addDir(parent: Dir, name: string, mode: number): Dir {
    const dir: Dir = { id: this.#nextId++, kind: "dir", mode, mtime: this.now, parent, name, children: new Map() };
    parent.children.set(name, dir);
    return dir;
  }

  rm(path: string, options: { recursive?: boolean; force?: boolean }): void {
    const segs = canonical(path);
    if (segs.length === 0) fail("EPERM");
    let at: Located;
    try {
      at = this.#resolve(path, false, false);
    } catch (e) {
      if (e instanceof FsFail && e.code === "ENOENT" && options.force) return;
      throw e;
    }
    if (!at.node) {
      if (options.force) return;
      fail("ENOENT");
    }
    const node = at.node!;
    if (node.kind === "dir" && node.children.size > 0 && !options.recursive) fail("ENOTEMPTY");
    at.parent!.children.delete(at.name);
  }

  symlink(target: string, path: string): void {
    const segs = canonical(path);
    if (segs.length === 0) fail("EEXIST");
    let dir = this.root;
    for (const name of segs.slice(0, -1)) {
      const child = dir.children.get(name);
      if (!child) fail("ENOENT");
      if (child!.kind !== "dir") fail("ENOTDIR");
      dir = child as Dir;
    }
    const name = segs.at(-1)!;
    if (dir.children.has(name)) fail("EEXIST");
    dir.children.set(name, { id: this.#nextId++, kind: "link", mode: 0o777, mtime: this.now, parent: dir, name, target });
  }

  rename(from: string, to: string): void {
    const a = canonical(from);
    const b = canonical(to);
    if (a.length === 0 || b.length === 0) fail("EINVAL");
    const src = this.#resolve(from, false, false);
    if (!src.node) fail("ENOENT");
    let dstParentAt: Located;
    try {
      dstParentAt = this.#walk(b.slice(0, -1), this.root, true, false, { n: 0 });
    } catch (e) {
      if (e instanceof FsFail && e.code === "ENOTDIR") fail("ENOENT");
      throw e;
    }
    if (!dstParentAt.node || dstParentAt.node.kind !== "dir") fail("ENOENT");
    const dstParent = dstParentAt.node as Dir;
    const dstName = b.at(-1)!;
    const srcNode = src.node!;
    if (src.parent === dstParent && src.name === dstName) return;
    if (srcNode.kind === "dir") {
      for (let d: Dir | null = dstParent; d; d = d.parent) if (d === srcNode) fail("EINVAL");
    }
    const existing = dstParent.children.get(dstName);
    if (existing) {
      if (srcNode.kind !== "dir" && existing.kind === "dir") fail("EISDIR");
      if (srcNode.kind === "dir" && existing.kind !== "dir") fail("ENOTDIR");
      if (srcNode.kind === "dir" && existing.kind === "dir" && existing.children.size > 0) fail("ENOTEMPTY");
    }
    src.parent!.children.delete(src.name);
    dstParent.children.set(dstName, srcNode);
    srcNode.parent = dstParent;
    srcNode.name = dstName;
  }

  chmod(path: string, mode: number): void {
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    at.node!.mode = mode & 0o7777;
    at.node!.mtime = this.now;
  }

  /** readFile with a byte window, decoded as UTF-8 (spec §3.3: clamped; offset ≥ size → ""). */
  readRange(path: string, byteOffset: number, byteLength: number | undefined): string {
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    if (at.node!.kind === "dir") fail("EISDIR");
    const bytes = (at.node as File).bytes;
    const end = byteLength === undefined ? bytes.length : Math.min(bytes.length, byteOffset + byteLength);
    return decoder.decode(bytes.subarray(Math.min(byteOffset, bytes.length), Math.max(end, Math.min(byteOffset, bytes.length))));
  }

  /** `ls(prefix)`: regular files at or under prefix; no link anywhere on the way. */
  ls(prefix: string): string[] {
    const segs = canonical(prefix);
    let node: Node = this.root;
    for (const seg of segs) {
      if (node.kind !== "dir") return [];
      const child: Node | undefined = node.children.get(seg);
      if (!child || child.kind === "link") return [];
      node = child;
    }
    const base = segs.length === 0 ? "" : "/" + segs.join("/");
    if (node.kind === "file") return [base];
    return this.#files(node as Dir, base).sort(compareBytes);
  }

  #files(dir: Dir, prefix: string): string[] {
    const out: string[] = [];
    for (const c of dir.children.values()) {
      const p = `${prefix}/${c.name}`;
      if (c.kind === "file") out.push(p);
      else if (c.kind === "dir") out.push(...this.#files(c, p));
    }
    return out;
  }

  /** `find(directory)` without pattern: DFS pre-order, links reported as "symlink", not descended. */
  find(directory: string): { path: string; type: string }[] {
    const segs = canonical(directory);
    const at = this.#resolve(directory, true, false);
    if (!at.node) fail("ENOENT");
    if (at.node!.kind !== "dir") fail("ENOTDIR");
    return this.#walkTree(at.node as Dir, segs.length === 0 ? "" : "/" + segs.join("/"));
  }

  #walkTree(dir: Dir, prefix: string): { path: string; type: string }[] {
    const out: { path: string; type: string }[] = [];
    for (const c of [...dir.children.values()].sort((x, y) => compareBytes(x.name, y.name))) {
      const p = `${prefix}/${c.name}`;
      out.push({ path: p, type: c.kind === "link" ? "symlink" : c.kind });
      if (c.kind === "dir") out.push(...this.#walkTree(c, p));
    }
    return out;
  }

  /** `grep(literal, path)`: discovery order, then line order; links in a walk are not read. */
  grep(pattern: string, path: string): { path: string; line: number; text: string }[] {
    const segs = canonical(path);
    const at = this.#resolve(path, true, false);
    if (!at.node) fail("ENOENT");
    const given = segs.length === 0 ? "" : "/" + segs.join("/");
    const files: [string, File][] =
      at.node!.kind === "file"
        ? [[given || "/", at.node as File]]
        : this.#walkTree(at.node as Dir, given)
            .filter((e) => e.type === "file")
            .map((e) => [e.path, this.#lookupFile(e.path)]);
    const out: { path: string; line: number; text: string }[] = [];
    for (const [p, file] of files) {
      const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(file.bytes);
      if (text === "") continue;
      const lines = text.split("\n");
      if (text.endsWith("\n")) lines.pop();
      lines.forEach((line, i) => {
        if (line.includes(pattern)) out.push({ path: p, line: i + 1, text: line });
      });
    }
    return out;
  }

  /** A file by its physical path (walk results never cross links). */
  #lookupFile(path: string): File {
    return this.#walk(canonical(path), this.root, false, false, { n: 0 }).node as File;
  }

  /** `ls("/")`: every regular file, full-path byte order. */
  lsAll(): string[] {
    const out: string[] = [];
    const walk = (dir: Dir, prefix: string) => {
      for (const c of dir.children.values()) {
        const p = `${prefix}/${c.name}`;
        if (c.kind === "file") out.push(p);
        else if (c.kind === "dir") walk(c, p);
      }
    };
    walk(this.root, "");
    return out.sort(compareBytes);
  }

  /** `find("/")`: DFS pre-order, siblings by byte order, links reported, not descended. */
  findAll(): { path: string; type: string }[] {
    const out: { path: string; type: string }[] = [];
    const walk = (dir: Dir, prefix: string) => {
      for (const c of [...dir.children.values()].sort((x, y) => compareBytes(x.name, y.name))) {
        const p = `${prefix}/${c.name}`;
        out.push({ path: p, type: c.kind === "link" ? "symlink" : c.kind });
        if (c.kind === "dir") walk(c, p);
      }
    };
    walk(this.root, "");
    return out;
  }
}

/** Outcome of one model step: a value, an error code, or one of several codes the spec allows. */
export type ModelOutcome<T> = { ok: T } | { err: Code } | { anyOf: Code[] };

/** Runs `fn` on the model, returning `{ ok }`, `{ err: code }` or `{ anyOf }`. */
export function modelOutcome<T>(fn: () => T): ModelOutcome<T> {
  try {
    return { ok: fn() };
  } catch (e) {
    if (e instanceof FsFail) return { err: e.code };
    if (e instanceof FsAmbiguous) return { anyOf: e.codes };
    throw e;
  }
}
