/**
 * `.gitattributes` for one git operation: the line-end conversion of the
 * `text`, `eol` (and legacy `crlf`) attributes, and the `diff` attribute
 * (`binary`, `-diff`), as git 2.39.5's `attr.c` and `convert.c` apply them
 * (gitattributes(5)) — issue 20, run 36, fixer GA.
 *
 * Where the attributes come from, lowest precedence first (a later line
 * wins): the working tree's `.gitattributes` at the root, then each
 * directory's down to the path's, then `.git/info/attributes`; a
 * `.gitattributes` that is a symbolic link is not read (git 2.32+ opens it
 * O_NOFOLLOW; git also warns `unable to access`, this does not). A line is
 * `<pattern> <attr>…`; an attribute is `name` (set), `-name` (unset),
 * `!name` (unspecified), or `name=value`; the built-in macro `binary` is
 * `-diff -merge -text`. Patterns are gitignore's, save that a `!` pattern
 * is ignored (git warns), a pattern ending in `/` names a directory and so
 * never a file (attributes are not inherited by what a directory holds),
 * a pattern without `/` matches the base name at any depth, and one with a
 * `/` the path relative to the file's directory (`*` stops at `/`, `**`
 * spans directories), case-sensitively. `[attr]` macro definitions,
 * `filter`, `ident` and `working-tree-encoding` are not applied; lines over
 * 2,048 bytes are ignored (git 2.39.1's `ATTR_MAX_LINE_LENGTH`), and at most
 * {@link GIT_ATTR_MAX_RULES} rules apply to one path.
 *
 * The conversion (`convert.c`; core.autocrlf and core.eol from the
 * repository's config, default `false` and `native` = LF):
 * - clean (working tree → repository: `add`, `commit -a`, `stash`, and
 *   every hash of a working-tree file, so `status`, `diff` and the "would
 *   be overwritten" checks compare what `add` would store): CRLF → LF for a
 *   `text` file (`text`, or `eol` set and `text` unspecified); for
 *   `text=auto` only when git's heuristic calls the file text (no NUL, no
 *   lone CR, few control bytes) and the index's blob at the path holds no
 *   CRLF (git's "safer autocrlf");
 * - smudge (repository → working tree: `checkout`, `reset --hard`, `merge`,
 *   `stash pop`, `clone`, `switch`): LF → CRLF where the output line end is
 *   CRLF (`eol=crlf`, core.eol=crlf, core.autocrlf=true); for `text=auto`
 *   only for a text-looking blob with no CR at all.
 *
 * A checkout reads the attributes from the working tree as it is written
 * (a `.gitattributes` written by the same checkout applies to the files
 * written after it; git reads the new index's first).
 *
 * Cost: nothing until a working-tree file holding a CR is read (clean) or
 * one holding an LF is written (smudge) — a file that cannot convert is
 * not looked up; then each directory's `.gitattributes` is read at most
 * once per operation (one lookup per directory when there is none).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { GitContext } from "../context.js";
import { readStreamBytes } from "../../util/bytes.js";
import { wildmatch } from "../wildmatch.js";

/**
 * Most attribute rules (pattern lines) applied to one path, over all the
 * attribute files above it, the files nearest the root first — so a hostile
 * `.gitattributes` of 200,000 lines cannot make each file read test them all.
 * Rules past it are skipped, as if they were comments.
 * @defaultValue 10,000 (issue 20, run 36, fixer GA)
 */
export const GIT_ATTR_MAX_RULES = 10_000;

/** git 2.39.1's `ATTR_MAX_LINE_LENGTH`: a longer line in an attributes file is ignored. */
const ATTR_MAX_LINE_LENGTH = 2048;

/** An attribute's state: set (`true`), unset (`false`), a value, or unspecified (`null`, `!name`). */
type AttrState = true | false | string | null;

interface Rule {
  /** Whether the rule matches `rel` (the path relative to the attribute file's directory) and `base` (its base name). */
  matches(rel: string, base: string): boolean;
  /** The line's attributes, in order, `binary` expanded after itself. */
  attrs: [string, AttrState][];
}

/** The attribute file of one directory (relative to the working tree, `""` the root) and the rules above it. */
interface Level {
  folder: string;
  rules: Rule[];
  /** Rules kept in this file and those above it. */
  used: number;
}

/** convert.c's `crlf_action` (after `convert_attrs`). */
type CrlfAction = "binary" | "text-input" | "text-crlf" | "auto" | "auto-input" | "auto-crlf";

/** convert.c's `struct text_stat`. */
interface TextStat {
  nul: number;
  lonecr: number;
  lonelf: number;
  crlf: number;
  printable: number;
  nonprintable: number;
}

/** convert.c's `gather_stats`. */
function gatherStats(buf: Uint8Array): TextStat {
  const s: TextStat = { nul: 0, lonecr: 0, lonelf: 0, crlf: 0, printable: 0, nonprintable: 0 };
  const size = buf.length;
  for (let i = 0; i < size; i++) {
    const c = buf[i]!;
    if (c === 13) {
      if (i + 1 < size && buf[i + 1] === 10) {
        s.crlf++;
        i++;
      } else s.lonecr++;
      continue;
    }
    if (c === 10) {
      s.lonelf++;
      continue;
    }
    if (c === 127) s.nonprintable++;
    else if (c < 32) {
      // BS, HT, ESC and FF are printable.
      if (c === 8 || c === 9 || c === 27 || c === 12) s.printable++;
      else {
        if (c === 0) s.nul++;
        s.nonprintable++;
      }
    } else s.printable++;
  }
  // A final ^Z (DOS end of file) is not counted as non-printable.
  if (size >= 1 && buf[size - 1] === 0o32) s.nonprintable--;
  return s;
}

/** convert.c's `convert_is_binary`: a lone CR, a NUL, or more than 1 non-printable byte per 128 printable. */
function isBinaryStat(s: TextStat): boolean {
  return s.lonecr > 0 || s.nul > 0 || s.printable >> 7 < s.nonprintable;
}

const isAuto = (action: CrlfAction) => action === "auto" || action === "auto-input" || action === "auto-crlf";

/** C-style unquoting of a `"…"` pattern (attr.c's `unquote_c_style`), or `undefined` when malformed. */
function unquote(text: string): { pattern: string; rest: string } | undefined {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') return { pattern: new TextDecoder().decode(new Uint8Array(bytes)), rest: text.slice(i + 1) };
    if (ch !== "\\") {
      bytes.push(...enc.encode(ch));
      continue;
    }
    const next = text[++i];
    if (next === undefined) return undefined;
    if (next in escapes) bytes.push(escapes[next]!);
    else if (/[0-3]/.test(next) && /^[0-7]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else return undefined;
  }
  return undefined;
}

/** Whether `pattern` holds a glob character. */
const hasGlob = (pattern: string) => /[*?[\\]/.test(pattern);

/** A matcher of one segment pattern (no `/`) against one path segment. */
function segmentMatcher(pattern: string): (text: string) => boolean {
  if (!hasGlob(pattern)) return (text) => text === pattern;
  if (pattern.startsWith("*") && !hasGlob(pattern.slice(1))) {
    const tail = pattern.slice(1);
    return (text) => text.endsWith(tail);
  }
  return (text) => wildmatch(pattern, text);
}

/**
 * A matcher of a pattern holding `/` against a path relative to the attribute file's directory, as git's wildmatch
 * with `WM_PATHNAME`: segment by segment (`*`, `?` and `[…]` never match `/`), a `**` segment any number of
 * directories (a trailing one at least one path component, as `a/**` does not match `a`).
 */
function pathMatcher(pattern: string): (rel: string) => boolean {
  const parts = pattern.split("/").map((part) => (part === "**" ? null : segmentMatcher(part)));
  return (rel) => {
    const segs = rel.split("/");
    // reach[j]: the first i pattern parts can match the first j segments.
    let reach = new Array<boolean>(segs.length + 1).fill(false);
    reach[0] = true;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const next = new Array<boolean>(segs.length + 1).fill(false);
      if (part === null) {
        const last = i === parts.length - 1;
        let any = false;
        for (let j = 0; j <= segs.length; j++) {
          if (last ? any : any || reach[j]) next[j] = true;
          if (reach[j]) any = true;
        }
      } else {
        for (let j = 0; j < segs.length; j++) if (reach[j] && part(segs[j]!)) next[j + 1] = true;
      }
      reach = next;
    }
    return reach[segs.length]!;
  };
}

/** The rules of one attributes file's text (lines as gitattributes(5) says; see the module's header). */
export function parseAttributes(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (new TextEncoder().encode(line).length > ATTR_MAX_LINE_LENGTH) continue;
    const trimmed = line.replace(/^[ \t]+/, "");
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    let pattern: string;
    let rest: string;
    if (trimmed.startsWith('"')) {
      const quoted = unquote(trimmed);
      if (!quoted) continue;
      ({ pattern, rest } = quoted);
    } else {
      const end = trimmed.search(/[ \t]/);
      pattern = end < 0 ? trimmed : trimmed.slice(0, end);
      rest = end < 0 ? "" : trimmed.slice(end);
    }
    // `[attr]name …` defines a macro (not applied here); `!pattern` is refused by git ("Negative patterns are ignored").
    if (pattern.startsWith("[attr]") || pattern.startsWith("!") || pattern === "") continue;
    // A directory pattern never matches a file.
    if (pattern.endsWith("/")) continue;
    const attrs: [string, AttrState][] = [];
    for (const word of rest.split(/[ \t]+/)) {
      if (word === "") continue;
      let name: string;
      let state: AttrState;
      if (word.startsWith("-")) (name = word.slice(1)), (state = false);
      else if (word.startsWith("!")) (name = word.slice(1)), (state = null);
      else {
        const eq = word.indexOf("=");
        if (eq < 0) (name = word), (state = true);
        else (name = word.slice(0, eq)), (state = word.slice(eq + 1));
      }
      if (!/^[A-Za-z0-9_.][-A-Za-z0-9_.]*$/.test(name)) continue;
      attrs.push([name, state]);
      if (name === "binary" && state === true) attrs.push(["diff", false], ["merge", false], ["text", false]);
    }
    if (attrs.length === 0) continue;
    let matches: Rule["matches"];
    const anchored = pattern.startsWith("/") ? pattern.slice(1) : pattern;
    if (!pattern.includes("/")) {
      const one = segmentMatcher(pattern);
      matches = (_rel, base) => one(base);
    } else {
      const many = pathMatcher(anchored);
      matches = (rel) => many(rel);
    }
    rules.push({ matches, attrs });
  }
  return rules;
}

/** The attributes of one path that this module applies. */
export interface PathAttributes {
  /** `text`: set, unset, `auto`, `input` (as `eol=lf`); `undefined` when unspecified. */
  text?: boolean | string;
  /** `crlf` (legacy, read when `text` is unspecified). */
  crlf?: boolean | string;
  /** `eol`: `lf`, `crlf` (other values are ignored). */
  eol?: string;
  /** `diff`: unset (`-diff`, `binary`) forces "Binary files … differ"; set forces a text diff. */
  diff?: boolean | string;
}

/** Names this module reads. */
const READ = new Set(["text", "crlf", "eol", "diff"]);

/**
 * The attributes and line-end conversion of the working tree of one
 * repository, for ONE operation (see the module's header). Make one per
 * operation: attribute files and config are read once, on first need.
 */
export class WorktreeFilters {
  readonly #ctx: GitContext;
  readonly #dir: string;
  readonly #base: string;
  readonly #levels = new Map<string, Promise<Level>>();
  #info: Promise<Rule[]> | undefined;
  #config: Promise<{ autocrlf: "true" | "input" | "false"; eolCrlf: boolean }> | undefined;
  #index: Promise<Map<string, string>> | undefined;

  /** `ctx`: the operation's context (its `workspace.fs` reads the attribute files); `dir`: the working tree (absolute). */
  constructor(ctx: GitContext, dir: string) {
    this.#ctx = ctx;
    this.#dir = dir;
    this.#base = dir === "/" ? "/" : `${dir}/`;
  }

  /** The path of `abs` relative to the working tree, or `undefined` when it is not a working-tree file (outside, or in a `.git`). */
  relative(abs: string): string | undefined {
    if (!abs.startsWith(this.#base) || abs.length === this.#base.length) return undefined;
    const rel = abs.slice(this.#base.length);
    if (rel === ".git" || rel.startsWith(".git/") || rel.includes("/.git/") || rel.endsWith("/.git")) return undefined;
    return rel;
  }

  /** Forgets what was read of `abs` when it is an attributes file (written or removed during the operation). */
  changed(abs: string): void {
    const rel = this.relative(abs);
    if (rel === ".gitattributes") this.#levels.clear();
    else if (rel?.endsWith("/.gitattributes")) {
      const folder = rel.slice(0, -"/.gitattributes".length);
      for (const key of [...this.#levels.keys()]) if (key === folder || key.startsWith(`${folder}/`)) this.#levels.delete(key);
    }
  }

  /** The attributes {@link PathAttributes} of the working-tree path `rel`. */
  async attributes(rel: string): Promise<PathAttributes> {
    const out: Record<string, AttrState> = {};
    const slash = rel.lastIndexOf("/");
    const base = rel.slice(slash + 1);
    const folder = slash < 0 ? "" : rel.slice(0, slash);
    const apply = (rules: Rule[], relToFile: string) => {
      for (const rule of rules) {
        if (!rule.matches(relToFile, base)) continue;
        for (const [name, state] of rule.attrs) if (READ.has(name)) out[name] = state;
      }
    };
    // The root's file first, then each directory's down to the path's, then info/attributes (highest).
    const folders = [""];
    for (let at = folder.indexOf("/"); folder !== ""; at = folder.indexOf("/", at + 1)) {
      folders.push(at < 0 ? folder : folder.slice(0, at));
      if (at < 0) break;
    }
    let used = 0;
    for (const f of folders) {
      const level = await this.#level(f, used);
      used = level.used;
      apply(level.rules, f === "" ? rel : rel.slice(f.length + 1));
    }
    apply(await (this.#info ??= this.#readRules(`${this.#base}.git/info/attributes`, 0).then((r) => r.rules)), rel);
    const pick = (name: string): boolean | string | undefined => (out[name] === null || out[name] === undefined ? undefined : (out[name] as boolean | string));
    const result: PathAttributes = {};
    for (const name of READ) {
      const value = pick(name);
      if (value !== undefined) (result as Record<string, unknown>)[name] = value;
    }
    return result;
  }

  /** `folder`'s attribute file's rules, within what the folders above left of {@link GIT_ATTR_MAX_RULES}. */
  #level(folder: string, above: number): Promise<Level> {
    let level = this.#levels.get(folder);
    if (level === undefined) {
      const path = folder === "" ? `${this.#base}.gitattributes` : `${this.#base}${folder}/.gitattributes`;
      level = this.#readRules(path, above, true).then(({ rules }) => ({ folder, rules, used: above + rules.length }));
      this.#levels.set(folder, level);
    }
    return level;
  }

  /**
   * The rules of the attributes file `path` (none when it cannot be read). `noFollow`: a symbolic link has none —
   * git (since 2.32) opens an in-tree `.gitattributes` with O_NOFOLLOW (issue 20, run 40, fixer f40g1).
   */
  async #readRules(path: string, above: number, noFollow = false): Promise<{ rules: Rule[] }> {
    if (noFollow) {
      const stat = await this.#ctx.workspace.fs.lstat(path).catch(() => undefined);
      if (stat === undefined || stat.isSymbolicLink || stat.isDirectory) return { rules: [] };
    }
    const text = await this.#ctx.workspace.fs.readFile(path, "utf8").catch(() => "");
    if (typeof text !== "string" || text === "") return { rules: [] };
    return { rules: parseAttributes(text).slice(0, Math.max(0, GIT_ATTR_MAX_RULES - above)) };
  }

  /** core.autocrlf (`true`/`input`/`false`) and whether core.eol is `crlf`, from the repository's config. */
  #settings(): Promise<{ autocrlf: "true" | "input" | "false"; eolCrlf: boolean }> {
    return (this.#config ??= (async () => {
      const get = async (path: string) =>
        String((await this.#ctx.git.getConfig({ fs: this.#ctx.fs, dir: this.#dir, path }).catch(() => undefined)) ?? "").toLowerCase();
      const auto = await get("core.autocrlf");
      const autocrlf = ["true", "yes", "on", "1"].includes(auto) ? "true" : auto === "input" ? "input" : "false";
      return { autocrlf, eolCrlf: (await get("core.eol")) === "crlf" };
    })());
  }

  /** convert.c's `convert_attrs` and `output_eol` for `rel`: the action, and whether the working tree's line end is CRLF. */
  async #action(rel: string): Promise<{ action: CrlfAction; crlfOut: boolean }> {
    const attrs = await this.attributes(rel);
    const { autocrlf, eolCrlf } = await this.#settings();
    const check = (v: boolean | string | undefined): CrlfAction | "text" | undefined =>
      v === true ? "text" : v === false ? "binary" : v === "input" ? "text-input" : v === "auto" ? "auto" : undefined;
    let action = check(attrs.text) ?? check(attrs.crlf);
    if (action !== "binary") {
      const eol = attrs.eol === "lf" || attrs.eol === "crlf" ? attrs.eol : undefined;
      if (action === "auto" && eol) action = eol === "lf" ? "auto-input" : "auto-crlf";
      else if (eol) action = eol === "lf" ? "text-input" : "text-crlf";
    }
    const textEolCrlf = autocrlf === "true" ? true : autocrlf === "input" ? false : eolCrlf;
    if (action === "text") action = textEolCrlf ? "text-crlf" : "text-input";
    if (action === undefined) action = autocrlf === "true" ? "auto-crlf" : autocrlf === "input" ? "auto-input" : "binary";
    const crlfOut = action === "text-crlf" || action === "auto-crlf" || (action === "auto" && textEolCrlf);
    return { action, crlfOut };
  }

  /**
   * Whether the repository's attributes make `rel`'s diff binary (`false`: `-diff`, `binary`), text (`true`: `diff`
   * set), or leave it to git's NUL-byte heuristic (`undefined`).
   */
  async diffAttribute(rel: string): Promise<boolean | undefined> {
    const { diff } = await this.attributes(rel);
    return diff === false ? false : diff === true ? true : undefined;
  }

  /**
   * The bytes git stores for the working-tree file `abs` holding `bytes` (convert.c's `crlf_to_git`; see the
   * module's header): `bytes` itself when nothing converts; else a copy with CR removed before LF.
   */
  async toGit(abs: string, bytes: Uint8Array): Promise<Uint8Array> {
    // Only a CR converts: a file without one costs no attribute lookup at all.
    if (!bytes.includes(13)) return bytes;
    const rel = this.relative(abs);
    if (rel === undefined) return bytes;
    const { action } = await this.#action(rel);
    if (action === "binary") return bytes;
    const stats = gatherStats(bytes);
    if (stats.crlf === 0) return bytes;
    const auto = isAuto(action);
    if (auto && (isBinaryStat(stats) || (await this.#crlfInIndex(rel)))) return bytes;
    const out = new Uint8Array(bytes.length - (auto ? stats.crlf + stats.lonecr : stats.crlf));
    let o = 0;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      // auto: a file with a lone CR was taken for binary above, so every CR goes.
      if (c === 13 && (auto || bytes[i + 1] === 10)) continue;
      out[o++] = c;
    }
    return out;
  }

  /**
   * The bytes git writes to the working-tree file `abs` for the blob `bytes` (convert.c's `crlf_to_worktree`):
   * `bytes` itself unless the output line end is CRLF; then a copy with CR put before each LF that has none (for
   * `text=auto`, only in a text-looking blob holding no CR).
   */
  async toWorktree(abs: string, bytes: Uint8Array): Promise<Uint8Array> {
    // Only an LF converts: a file without one costs no attribute lookup.
    if (!bytes.includes(10)) return bytes;
    const rel = this.relative(abs);
    if (rel === undefined) return bytes;
    const { action, crlfOut } = await this.#action(rel);
    if (!crlfOut) return bytes;
    const stats = gatherStats(bytes);
    if (stats.lonelf === 0) return bytes;
    if (isAuto(action) && (stats.lonecr > 0 || stats.crlf > 0 || isBinaryStat(stats))) return bytes;
    const out = new Uint8Array(bytes.length + stats.lonelf);
    let o = 0;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (c === 10 && (i === 0 || bytes[i - 1] !== 13)) out[o++] = 13;
      out[o++] = c;
    }
    return out;
  }

  /** convert.c's `has_crlf_in_index`: the index's stage-0 blob at `rel` holds CRLF and is not binary-looking. */
  async #crlfInIndex(rel: string): Promise<boolean> {
    const oid = (await (this.#index ??= this.#readIndex())).get(rel);
    if (oid === undefined) return false;
    try {
      const { blob } = await this.#ctx.git.readBlob({ fs: this.#ctx.fs, dir: this.#dir, cache: this.#ctx.cache, oid });
      if (!blob.includes(13)) return false;
      const stats = gatherStats(blob);
      return !isBinaryStat(stats) && stats.crlf > 0;
    } catch {
      return false;
    }
  }

  /**
   * The index's stage-0 entries (path → blob oid), parsed from `.git/index` as the operation found it first
   * (versions 2–4); empty when there is none or it cannot be parsed. Read directly, not through isomorphic-git:
   * this runs inside isomorphic-git's `add`, which holds the index.
   */
  async #readIndex(): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    let buf: Uint8Array;
    try {
      buf = await readStreamBytes(await this.#ctx.workspace.fs.readFile(`${this.#base}.git/index`));
    } catch {
      return map;
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (buf.length < 12 || view.getUint32(0) !== 0x44495243) return map;
    const version = view.getUint32(4);
    const count = view.getUint32(8);
    if (version < 2 || version > 4) return map;
    const decoder = new TextDecoder();
    let at = 12;
    let previous: Uint8Array = new Uint8Array(0);
    for (let n = 0; n < count; n++) {
      const start = at;
      if (at + 62 > buf.length) return new Map();
      const oid = Array.from(buf.subarray(at + 40, at + 60), (b) => b.toString(16).padStart(2, "0")).join("");
      const flags = view.getUint16(at + 60);
      at += 62;
      if (flags & 0x4000 && version >= 3) at += 2;
      let name: Uint8Array;
      if (version === 4) {
        // git's offset varint (varint.c): each continuation adds one before shifting.
        let byte = buf[at++]!;
        let strip = byte & 0x7f;
        while (byte & 0x80) {
          byte = buf[at++]!;
          strip = ((strip + 1) << 7) | (byte & 0x7f);
        }
        const end = buf.indexOf(0, at);
        if (end < 0) return new Map();
        const suffix = buf.subarray(at, end);
        name = new Uint8Array(Math.max(0, previous.length - strip) + suffix.length);
        name.set(previous.subarray(0, Math.max(0, previous.length - strip)));
        name.set(suffix, Math.max(0, previous.length - strip));
        at = end + 1;
      } else {
        const end = buf.indexOf(0, at);
        if (end < 0) return new Map();
        name = buf.subarray(at, end);
        at = start + ((end - start + 8) & ~7);
      }
      previous = name;
      if ((flags & 0x3000) === 0) map.set(decoder.decode(name), oid);
    }
    return map;
  }
}

/**
 * `ctx` with {@link GitContext.filters} for the working tree at `dir`, and its isomorphic-git fs converting
 * working-tree files: a byte read (`readFile` without an encoding) is cleaned ({@link WorktreeFilters.toGit}), a
 * write of bytes is smudged ({@link WorktreeFilters.toWorktree}); a write or removal of a `.gitattributes` is
 * noticed. Reads and writes in `.git` and outside `dir` pass through untouched.
 */
export function filteredContext(ctx: GitContext, dir: string): GitContext {
  const view = { ...ctx };
  const filters = new WorktreeFilters(view, dir);
  const base = ctx.fs.promises as unknown as Record<string, unknown>;
  const call = (name: string, args: unknown[]) => (base[name] as (...a: unknown[]) => Promise<unknown>).apply(base, args);
  const encoded = (options: unknown) => (typeof options === "string" ? options : (options as { encoding?: unknown } | undefined)?.encoding) ?? undefined;
  const own: Record<string, (...args: never[]) => Promise<unknown>> = {
    async readFile(path: string, options?: unknown) {
      const data = (await call("readFile", [path, options])) as Uint8Array | string;
      if (typeof path !== "string" || typeof data === "string" || (encoded(options) !== undefined && encoded(options) !== "buffer")) return data;
      if (filters.relative(path) === undefined) return data;
      const cleaned = await filters.toGit(path, data);
      if (cleaned === data) return data;
      // The bridge's reads are Buffers; keep the type (isomorphic-git calls Buffer methods on them).
      return Buffer.isBuffer(data) ? Buffer.from(cleaned.buffer, cleaned.byteOffset, cleaned.byteLength) : cleaned;
    },
    async writeFile(path: string, data: unknown, options?: unknown) {
      const worktree = typeof path === "string" && filters.relative(path) !== undefined;
      if (worktree && data instanceof Uint8Array) data = await filters.toWorktree(path, data);
      await call("writeFile", [path, data, options]);
      if (worktree) filters.changed(path);
    },
    async unlink(path: string, ...rest: unknown[]) {
      const done = await call("unlink", [path, ...rest]);
      if (typeof path === "string") filters.changed(path);
      return done;
    },
    async rm(path: string, ...rest: unknown[]) {
      const done = await call("rm", [path, ...rest]);
      if (typeof path === "string") filters.changed(path);
      return done;
    },
  };
  // A view over the fs's own object (a class instance's methods included), with the four calls above in front.
  const promises = new Proxy(base, {
    get: (target, key) => {
      if (typeof key === "string" && Object.hasOwn(own, key) && typeof target[key] === "function") return own[key];
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return Object.assign(view, { fs: { ...ctx.fs, promises } as unknown as GitContext["fs"], filters });
}
