/**
 * git's pathspec glob matching (its `wildmatch.c` without `WM_PATHNAME`, as
 * `dir.c`'s `git_fnmatch` calls it for a pathspec): pure functions shared by
 * the typed API's `paths` (ops/pathspec.ts) and the CLI.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Whether the repository path `path` matches the pathspec `spec` (repository-relative, as
 * ops/pathspec.ts `toRepoPath` gives it) as git matches it: literally first — `spec` itself or a path below
 * it; `""` everything; a directory form `"x/"` only what is below `x` — then, when `spec` holds a glob
 * character, the whole of `path` against it by {@link wildmatch} (`*` crossing `/`).
 */
export function matchesPathspec(path: string, spec: string): boolean {
  return literalMatch(path, spec) || (isGlobSpec(spec) && wildmatch(spec, path));
}

/**
 * git's literal-first rule of `add`, `rm` and `checkout` (2.39): a glob pathspec that names a path exactly —
 * `names(spec)`: an index entry for `rm` and `checkout`, a tree entry too for `checkout <tree-ish>`, a file
 * (not a directory) in the working tree for `add` — matches only that path, not as a pattern (`git checkout --
 * '[ab].txt'` leaves `a.txt`). Returns such a spec with its glob characters escaped (`\[ab\].txt`), which
 * {@link matchesPathspec} then matches literally; any other spec as given. `ls-files`, `status`, `diff` and
 * `reset` keep globbing, as git does.
 */
export function literalFirst(spec: string, names: (path: string) => boolean): string {
  return isGlobSpec(spec) && !spec.endsWith("/") && names(spec) ? spec.replace(/[*?[\\]/g, "\\$&") : spec;
}

/** {@link matchesPathspec} without the pattern: `path` is `spec` or below it (`""`: everything; `"x/"`: only below `x`). */
export function literalMatch(path: string, spec: string): boolean {
  if (spec.endsWith("/")) return path.length > spec.length && path.startsWith(spec);
  return spec === "" || path === spec || (path.length > spec.length && path.startsWith(spec) && path[spec.length] === "/");
}

/** Whether `spec` holds one of git's glob characters `*`, `?`, `[`, `\` (its `is_glob_special`): it is matched as a pattern too. */
export function isGlobSpec(spec: string): boolean {
  return /[*?[\\]/.test(spec);
}

/** The part of `spec` before its first glob character (git's `nowildcard_len`); all of it when it has none. */
export function literalPrefix(spec: string): string {
  const at = spec.search(/[*?[\\]/);
  return at < 0 ? spec : spec.slice(0, at);
}

/** One byte position of a compiled pattern: a byte, any byte (`?`), or a bracket expression (a table of 256). */
type Unit = number | Uint8Array;
const ANY = -1;

/** Pattern pieces between runs of `*`, with the Shift-And tables built as bytes are met. */
interface Piece {
  units: Unit[];
  masks: Map<number, Uint32Array>;
}

/**
 * A compiled pattern: its pieces between runs of `*`, whether it has a `*` at all, starts or ends with one.
 * `null`: malformed, matches nothing.
 */
interface Compiled {
  pieces: Piece[];
  star: boolean;
  starts: boolean;
  ends: boolean;
}

const compiled = new Map<string, Compiled | null>();

/**
 * Whether `pattern` matches the whole of `text` as git's `wildmatch(pattern,
 * text, 0)` decides — what a pathspec is matched with (no `WM_PATHNAME`, no
 * case folding), on UTF-8 bytes: `*` (and `**`) any run of bytes, `/`
 * included; `?` any one byte (`??.txt` matches `é.txt`); `[...]` one byte of
 * a set (`!` or `^` negates, `a-z` ranges, `[:alpha:]` and the other POSIX
 * classes, ASCII only, `\` escapes; it may match `/`); `\x` the byte `x`. A
 * malformed pattern (an unclosed `[`, an unknown `[:class:]`, a trailing `\`)
 * matches nothing, as in git.
 *
 * Cost: each run between `*`s is found leftmost by Shift-And, so a match
 * costs O(text bytes × ⌈longest run / 32⌉) whatever the pattern (git's own
 * backtracking matcher has no such bound).
 */
export function wildmatch(pattern: string, text: string): boolean {
  let c = compiled.get(pattern);
  if (c === undefined) {
    if (compiled.size >= 256) compiled.clear();
    c = compile(encoder.encode(pattern));
    compiled.set(pattern, c);
  }
  if (c === null) return false;
  return matchCompiled(c, encoder.encode(text));
}

function compile(p: Uint8Array): Compiled | null {
  const pieces: Piece[] = [];
  let units: Unit[] = [];
  let star = false;
  let ends = false;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    ends = ch === 0x2a; /* * */
    if (ends) {
      star = true;
      if (units.length > 0) pieces.push({ units, masks: new Map() });
      units = [];
    } else if (ch === 0x5c /* \ */) {
      if (i + 1 >= p.length) return null;
      units.push(p[++i]!);
    } else if (ch === 0x3f /* ? */) units.push(ANY);
    else if (ch === 0x5b /* [ */) {
      const parsed = bracket(p, i);
      if (parsed === null) return null;
      units.push(parsed.set);
      i = parsed.end;
    } else units.push(ch);
  }
  if (units.length > 0) pieces.push({ units, masks: new Map() });
  return { pieces, star, starts: p[0] === 0x2a, ends };
}

/** git's bracket expression starting at `p[at]` (`[`): the bytes it accepts and the index of its `]`; `null` when malformed. */
function bracket(p: Uint8Array, at: number): { set: Uint8Array; end: number } | null {
  const set = new Uint8Array(256);
  let i = at + 1;
  let ch: number | undefined = p[i];
  if (ch === 0x5e /* ^ */) ch = 0x21;
  const negated = ch === 0x21; /* ! */
  if (negated) ch = p[++i];
  let prev = 0;
  do {
    if (ch === undefined) return null;
    if (ch === 0x5c) {
      ch = p[++i];
      if (ch === undefined) return null;
      set[ch] = 1;
    } else if (ch === 0x2d /* - */ && prev !== 0 && p[i + 1] !== undefined && p[i + 1] !== 0x5d) {
      ch = p[++i]!;
      if (ch === 0x5c) {
        ch = p[++i];
        if (ch === undefined) return null;
      }
      for (let b = prev; b <= ch; b++) set[b] = 1;
      ch = 0;
    } else if (ch === 0x5b && p[i + 1] === 0x3a /* [: */) {
      const s = i + 2;
      let j = s;
      while (j < p.length && p[j] !== 0x5d) j++;
      if (j >= p.length) return null;
      if (j - s - 1 < 0 || p[j - 1] !== 0x3a) {
        // No `:]`: the `[` is an ordinary member.
        i = s - 2;
        ch = 0x5b;
        set[ch] = 1;
        continue;
      }
      const test = CLASSES[String.fromCharCode(...p.subarray(s, j - 1))];
      if (test === undefined) return null;
      for (let b = 0; b < 128; b++) if (test(b)) set[b] = 1;
      i = j;
      ch = 0;
    } else set[ch] = 1;
  } while (((prev = ch!), (ch = p[++i]), ch !== 0x5d));
  if (negated) for (let b = 0; b < 256; b++) set[b] = set[b] ? 0 : 1;
  return { set, end: i };
}

const between = (lo: string, hi: string) => (b: number) => b >= lo.charCodeAt(0) && b <= hi.charCodeAt(0);
const isDigit = between("0", "9");
const isUpper = between("A", "Z");
const isLower = between("a", "z");
/** git's `sane_ctype` classes (ASCII only; `space` is tab, line feed, carriage return and space, as git's `isspace`). */
const CLASSES: Record<string, (b: number) => boolean> = {
  alnum: (b) => isDigit(b) || isUpper(b) || isLower(b),
  alpha: (b) => isUpper(b) || isLower(b),
  blank: (b) => b === 0x20 || b === 0x09,
  cntrl: (b) => b < 0x20 || b === 0x7f,
  digit: isDigit,
  graph: (b) => b > 0x20 && b < 0x7f,
  lower: isLower,
  print: (b) => b >= 0x20 && b < 0x7f,
  punct: (b) => b > 0x20 && b < 0x7f && !isDigit(b) && !isUpper(b) && !isLower(b),
  space: (b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d,
  upper: isUpper,
  xdigit: (b) => isDigit(b) || between("a", "f")(b) || between("A", "F")(b),
};

function accepts(unit: Unit, byte: number): boolean {
  return typeof unit === "number" ? unit === ANY || unit === byte : unit[byte] === 1;
}

function matchesAt(units: Unit[], text: Uint8Array, at: number): boolean {
  for (let k = 0; k < units.length; k++) if (!accepts(units[k]!, text[at + k]!)) return false;
  return true;
}

/** The Shift-And table of `piece` for `byte`: bit k set when unit k accepts it. */
function maskFor(piece: Piece, byte: number): Uint32Array {
  let mask = piece.masks.get(byte);
  if (mask === undefined) {
    mask = new Uint32Array(Math.ceil(piece.units.length / 32));
    piece.units.forEach((unit, k) => {
      if (accepts(unit, byte)) mask![k >>> 5]! |= 1 << (k & 31);
    });
    piece.masks.set(byte, mask);
  }
  return mask;
}

/** Where `piece` first occurs in `text[from, limit)` (its start), or -1: one pass, ⌈length / 32⌉ word steps a byte. */
function findPiece(piece: Piece, text: Uint8Array, from: number, limit: number): number {
  const n = piece.units.length;
  if (limit - from < n) return -1;
  const words = Math.ceil(n / 32);
  const state = new Uint32Array(words);
  const last = words - 1;
  const bit = 1 << ((n - 1) & 31);
  for (let i = from; i < limit; i++) {
    const mask = maskFor(piece, text[i]!);
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const d = state[w]!;
      state[w] = ((d << 1) | carry) & mask[w]!;
      carry = d >>> 31;
    }
    if ((state[last]! & bit) !== 0) return i - n + 1;
  }
  return -1;
}

function matchCompiled(c: Compiled, text: Uint8Array): boolean {
  const { pieces } = c;
  if (!c.star) {
    const units = pieces[0]?.units ?? [];
    return units.length === text.length && matchesAt(units, text, 0);
  }
  let from = 0;
  let end = text.length;
  let first = 0;
  let stop = pieces.length;
  if (!c.starts) {
    const head = pieces[0]!.units;
    if (head.length > end || !matchesAt(head, text, 0)) return false;
    from = head.length;
    first = 1;
  }
  if (!c.ends && stop > first) {
    const tail = pieces[stop - 1]!.units;
    if (from + tail.length > end || !matchesAt(tail, text, end - tail.length)) return false;
    end -= tail.length;
    stop--;
  }
  // The pieces between `*`s, each leftmost after the one before: a later start never helps a fixed-width piece.
  for (let k = first; k < stop; k++) {
    const piece = pieces[k]!;
    const at = findPiece(piece, text, from, end);
    if (at < 0) return false;
    from = at + piece.units.length;
  }
  return true;
}

