/**
 * The seeded hostile-arguments generator for the issue 12 / issue 20 §2
 * acceptance run: a hostile Workspace tree, the tool-set options the run
 * builds, and a deterministic stream of tool calls whose arguments are
 * valid per each tool's schema but chosen to hurt — limits at the maximum,
 * huge offsets, pathological globs, backtracking regexes, binary files,
 * giant lines, odd edit texts, paths through links and out of a root.
 *
 * Everything here is a pure function of the seed: the same seed gives the
 * same tree and the same calls.
 *
 * @module
 */
import type { Workspace } from "../../../src/workspace.js";
import { MAX_GLOBS } from "../../../src/tools/core/find.js";
import { prng } from "../../shared/fs/harness.js";
import { odsBytes, LONG_LINE } from "../../shared/fs/grep-bounds.cases.js";
import { png } from "../tools/image-headers.js";

// ---------------------------------------------------------------------------
// PRNG

/** mulberry32 (the shared fs harness's `prng`): a small seeded 32-bit PRNG; floats in [0, 1). */
export const mulberry32 = prng;

/** Helpers over one PRNG. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [key, w] of entries) {
      r -= w;
      if (r < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }
}

// ---------------------------------------------------------------------------
// The hostile tree

const W = "/workspace";
const a = (n: number) => "a".repeat(n);

/** Names of 120–250 `a`s (and a few that end in `b`, which `*a*a*…*b` globs match). */
export const LONG_NAMES = [a(120), a(150), a(199), a(200), a(230), a(250), a(119) + "b", a(199) + "b", a(249) + "b"];
/** An NFD-named file and the NFC spelling of the same name (a twin write must refuse). */
export const NFD_FILE = `${W}/unicode/Re\u0301sume\u0301 cafe\u0301.md`;
export const NFC_FILE = `${W}/unicode/R\u00e9sum\u00e9 caf\u00e9.md`;
/** Depth of the deep directory chain. */
export const DEEP_LEVELS = 60;
export const DEEP_DIR = `${W}/deep/` + Array.from({ length: DEEP_LEVELS }, (_, i) => `d${i + 1}`).join("/");
/** 100 lines × 50,000 characters (issue 20 §6), in three kinds of line so regexes have something to chew. */
export const WIDE_LINES = Array.from({ length: 100 }, (_, i) =>
  i % 3 === 0 ? "x".repeat(50_000) : i % 3 === 1 ? a(49_999) + "!" : "word ".repeat(10_000).slice(0, 49_999) + "!",
);
/** 30 such lines (1.5 MB, under edit's 2 MiB cap) for edits to chew on. */
const EDIT_WIDE = WIDE_LINES.slice(0, 30).join("\n") + "\n";
const WIDE = WIDE_LINES.join("\n") + "\n";
/** A 9600×1200 PNG: a complete image, and one that is only signature + IHDR. */
const BIG_PNG = png(9600, 1200);
const HEADER_ONLY_PNG = BIG_PNG.slice(0, 8 + 25);

function randomBytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(0, 255);
  return out;
}

const enc = new TextEncoder();

/**
 * The files of the hostile tree that no call may change: the read/search
 * targets. Mutating calls aim at them only with arguments that must be
 * refused, so after the run their bytes must be exactly these.
 */
export function frozenFiles(): Record<string, Uint8Array | string> {
  const rng = new Rng(0x5eed);
  const files: Record<string, Uint8Array | string> = {
    [`${W}/bin/budget.ods`]: odsBytes(),
    [`${W}/bin/blob.bin`]: randomBytes(rng, 65_536),
    [`${W}/bin/utf16.txt`]: Uint8Array.from([0xff, 0xfe, ...Array.from(enc.encode("hello utf16 a a a\n")).flatMap((b) => [b, 0])]),
    [`${W}/min/app.min.js`]: LONG_LINE,
    [`${W}/wide/wide.txt`]: WIDE,
    [`${W}/img/huge.png`]: BIG_PNG,
    [`${W}/img/header-only.png`]: HEADER_ONLY_PNG,
    [`${W}/img/small.png`]: png(4, 4),
    [`${W}/img/fake.png`]: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
    [`${W}/text/crlf.txt`]: Array.from({ length: 200 }, (_, i) => `crlf line ${i} aaaa`).join("\r\n") + "\r\n",
    [`${W}/text/bom.txt`]: "\uFEFFbom first line\nsecond a line\n",
    [`${W}/text/bom-crlf.txt`]: "\uFEFFbom\r\ncrlf\r\n\r\nend",
    [`${W}/text/mixed-eol.txt`]: "one\rtwo\r\nthree\nfour\r",
    [`${W}/text/no-eol.txt`]: "no newline at end",
    [`${W}/text/empty.txt`]: "",
    [`${W}/text/only-newlines.txt`]: "\n".repeat(100_000),
    [`${W}/text/multibyte.txt`]: "é€😀中".repeat(20_000) + "\n" + "ü".repeat(5) + "\n",
    [`${W}/text/lone-surrogates.txt`]: Uint8Array.from([0xed, 0xa0, 0x80, 0x61, 0xc3, 0x28, 0x0a, 0xf0, 0x9f, 0x98]),
    [`${W}/text/many-lines.txt`]: Array.from({ length: 20_000 }, (_, i) => `${i} aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!`).join("\n"),
    [NFD_FILE]: "résumé (stored NFD)\n",
    [`${W}/unicode/\u4e2d\u6587 \u{1F600} name.txt`]: "cjk emoji\n",
    [`${W}/unicode/ spaces  and\ttab .txt`]: "odd name\n",
    [`${W}/unicode/*?[glob]{chars}.txt`]: "glob metacharacters in the name\n",
    [`${W}/.git/config`]: "[core]\n\tbare = false\n",
    [`${W}/.git/objects/ab/cdef0123`]: randomBytes(rng, 2048),
    [`${DEEP_DIR}/bottom.txt`]: "the bottom a a a a a b\n",
    [`${W}/proj/src/index.ts`]: 'export const x = "needle";\n',
    [`${W}/proj/src/util.ts`]: Array.from({ length: 300 }, (_, i) => `export const v${i} = ${i}; // aaaa`).join("\n") + "\n",
    [`${W}/proj/README.md`]: "# proj\n\nA normal project.\n",
  };
  for (const name of LONG_NAMES) {
    files[`${W}/names/${name}`] = `${name.length} chars a a a a\n`;
    files[`${W}/names/${a(240)}/${name}`] = "nested\n";
  }
  for (let i = 0; i < 1_200; i++) files[`${W}/many/f${String(i).padStart(4, "0")}.txt`] = `file ${i} aaaa\n`;
  return files;
}

/** Mutable copies: write, edit and delete may change anything under scratch/. */
export function scratchFiles(): Record<string, Uint8Array | string> {
  return {
    [`${W}/scratch/min.js`]: LONG_LINE,
    [`${W}/scratch/wide30.txt`]: EDIT_WIDE,
    [`${W}/scratch/crlf.txt`]: "alpha\r\nbeta\r\ngamma\r\n",
    [`${W}/scratch/bom.txt`]: "\uFEFFalpha\nbeta\n",
    [`${W}/scratch/quotes.txt`]: "He said “hello” — and ‘bye’\u00a0now.   \n\tindented\n",
    [`${W}/scratch/dups.txt`]: "same\n".repeat(5_000),
    [`${W}/scratch/code.ts`]: Array.from({ length: 500 }, (_, i) => `function f${i}() { return ${i}; }`).join("\n") + "\n",
    [`${W}/scratch/dir/a/b/c.txt`]: "c\n",
    [`${W}/scratch/${a(250)}`]: "long name\n",
  };
}

/** Links: a self-loop, a two-link loop, a link to an ancestor, links out of /workspace, a dangling one. */
export const LINKS: ReadonlyArray<readonly [target: string, path: string]> = [
  [`${W}/links/self`, `${W}/links/self`],
  [`${W}/links/loopB`, `${W}/links/loopA`],
  [`${W}/links/loopA`, `${W}/links/loopB`],
  [W, `${W}/links/up`],
  [`${W}/links`, `${W}/links/here`],
  ["/outside", `${W}/links/outside-dir`],
  ["/outside/secret.txt", `${W}/links/outside-file`],
  ["/nowhere/at/all", `${W}/links/dangling`],
  ["../min/app.min.js", `${W}/links/relative-min`],
  ["/workspace/proj/src", `${W}/proj/linked-src`],
  ["/workspace/proj", `${W}/proj-link`],
];

/** Builds the hostile tree in `workspace` (and /outside beside it). */
export async function prepareHostileWorkspace(workspace: Workspace): Promise<void> {
  const fs = workspace.fs;
  await fs.mkdir(W, { recursive: true });
  await fs.mkdir("/outside", { recursive: true });
  await fs.writeFile("/outside/secret.txt", "outside the workspace\n");
  for (const [path, content] of Object.entries({ ...frozenFiles(), ...scratchFiles() })) {
    await fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await fs.writeFile(path, content);
  }
  await fs.mkdir(`${W}/links`, { recursive: true });
  await fs.mkdir(`${W}/empty-dir`, { recursive: true });
  for (const [target, path] of LINKS) await fs.symlink(target, path);
}

// ---------------------------------------------------------------------------
// Tool sets

/** The tool-set options a call can go through (the `workspace` is added by the run). */
export const TOOL_SETS = [
  { name: "default", options: {} },
  { name: "fresh-read", options: { write: { requireFreshRead: true, freshReadMaxPaths: 8 } } },
  { name: "root=/workspace", options: { root: "/workspace" } },
  { name: "root=/workspace/proj+fresh", options: { root: "/workspace/proj", write: { requireFreshRead: true } } },
  {
    name: "huge-limits",
    options: {
      read: { maxLines: 1_000_000, maxBytes: 16 * 1024 * 1024, includeLineNumbers: true, lineTruncation: { chars: 100_000 } },
      write: { maxBytes: 8 * 1024 * 1024 },
      edit: { maxBytes: 8 * 1024 * 1024, maxDiffLines: 1_000_000, maxDiffBytes: 8 * 1024 * 1024 },
    },
  },
  { name: "tight", options: { read: { maxLines: 1, maxBytes: 1, lineTruncation: { bytes: 1 }, maxImageDimension: 1 }, write: { maxBytes: 1 }, edit: { maxBytes: 64, maxDiffLines: 1, maxDiffBytes: 1 } } },
] as const;

const SET_WEIGHTS = { 0: 30, 1: 15, 2: 15, 3: 15, 4: 15, 5: 10 } as const;

// ---------------------------------------------------------------------------
// Argument pools

/** Globs known to be pathological for backtracking matchers (issue 20 §2), and brace/class blow-ups. */
export const PATHOLOGICAL_GLOBS: readonly string[] = [
  "**/**/**/*a*a*a*a*b",
  "**/**/**/**/*a*a*a*a*a*b",
  "*a*a*a*a*a*a*a*a*a*a*a*a*b",
  "**/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c",
  "*a".repeat(500) + "b",
  "**/" + "*a".repeat(60) + "*b",
  "**/".repeat(40) + "*b",
  "**/**/**/**/**/**/**/**/**/**/**/**/*",
  "?*?*?*?*?*?*?*?*?*?*?*?*?*b",
  "**/?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*c",
  "*".repeat(300) + "b",
  "**/" + "*".repeat(200) + "a" + "*".repeat(200) + "b",
  "[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*b",
  "**/[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[!a]",
  "**/[!b]*[!b]*[!b]*[!b]*[!b]*[!b]*[!b]*c",
  "{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}b",
  "{a,b,c,d}".repeat(16) + "*",
  "**/{" + Array.from({ length: 500 }, (_, i) => `n${i}`).join(",") + "}*",
  "{{{{{{{{{{a,b},c},d},e},f},g},h},i},j},k}*a*a*a*b",
  "+(a|aa)*b",
  "*(a|aa)*(a|aa)*(a|aa)*b",
  "@(a|aa)+(a|aa)!(b)*a*a*b",
  "**/d*/d*/d*/d*/d*/d*/d*/d*/d*/d*/d*/d*/**/*",
  "d*/".repeat(DEEP_LEVELS) + "*",
  "**/" + "*a*".repeat(100) + "/**/*b",
  "\\*\\*\\*a*a*a*a\\b",
  "**/*.{js,ts,md,txt,json,png,ods,bin,md,js,ts,txt}",
  "**/.*",
  "**",
  "*",
  "/",
  "**/*" + "[abcdefghijklmnopqrstuvwxyz0123456789]*".repeat(40) + "z",
];

const GLOB_TOKENS = ["*", "*", "*", "**/", "**", "a", "a", "?", "*a", "a*", "[a-z]", "[!b]", "{a,aa}", "/", "b", ".", "d*", "f*", "x"];

/** A random star-heavy glob. */
export function randomGlob(rng: Rng): string {
  const n = rng.int(3, 60);
  let glob = "";
  for (let i = 0; i < n; i++) glob += rng.pick(GLOB_TOKENS);
  return glob + rng.pick(["b", "*b", "", "*", ".txt", "/**"]);
}

const NORMAL_GLOBS = ["**/*.ts", "**/*.txt", "*.md", "**/f00*.txt", "src/**", "**/bottom.txt", "names/*", "**/*.png", "**/.git/**", ".git"];

/** Regexes that make backtracking engines take exponential or high-polynomial time, and other engine-hostile shapes. */
export const REDOS_REGEXES: readonly string[] = [
  "(x+x+)+y",
  "(a|aa)+$",
  "(a|a?)+b",
  "(\\w+\\s?)+$",
  "(.*a){12}",
  "^(([a-z])+.)+[A-Z]([a-z])+$",
  "(a+)+b",
  "(a*)*b",
  "([a-zA-Z]+)*$",
  "(a|aa|aaa)+!b",
  "^(a+)+$",
  "(\\w|\\d)+\\s!",
  "(.*){1,1000}[bc]",
  "(a|aa){1,1000}$",
  "((a{100}){100}){100}",
  "(x{1000}){1000}",
  "a{1,65535}b",
  "[\\s\\S]*[\\s\\S]*[\\s\\S]*[\\s\\S]*q",
  "(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)z",
  "(?:a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z)+[0-9]",
  // Linear-time engines pay line length × program size: wide counted repeats and long literal sequences.
  "x.{1000}y",
  "[^y]{1000}y",
  "\\w{1000}!",
  "a{1000}!b",
  "(?:x|xx){500}z",
  "x".repeat(2000) + "y",
  "(?:" + "x".repeat(500) + ")y",
  "^(\\s*a\\s*)*$",
  // Backreferences and lookarounds (a linear-time engine must refuse or handle them).
  "(a+)\\1+b",
  "^(a+)+\\1$",
  "(a*)\\1*\\1*b",
  "\\b(\\w+)\\s+\\1\\b",
  "(?=(a+))a*b\\1",
  "(?<=a+)b",
  "(?<!a+)b",
  "(?!x)(a|aa)+z",
  "(?<n>a+)\\k<n>+z",
  // Invalid or odd regexes: a clean error, not a throw.
  "(",
  "[a-",
  "a{2,1}",
  "(?<n>a)\\k<m>",
  "*",
  "\\",
  "(?i)a",
  "\\p{L}+",
  "[\\d-z]+",
  "\\u{1F600}",
  "\\0\\00\\08",
  "",
  "^",
  "$",
  ".",
  "a|",
  "(?:)*",
  "(){0,}",
  "x".repeat(20_000),
  "(" + "a|".repeat(2000) + "b)+$",
];

const LITERALS = ["needle", "a", "aaaa", "x", "!", " ", "word", "\u0000", "é", "e\u0301", "😀", "\r", "\uFEFF", "grand total", "a".repeat(10_000), "a".repeat(60_000), "\\", "(x+x+)+y", "**/*", "中文", ""];

// ---------------------------------------------------------------------------
// Paths

const FROZEN_PATHS = Object.keys(frozenFiles());
const HOT_FILES = [
  `${W}/min/app.min.js`,
  `${W}/wide/wide.txt`,
  `${W}/bin/budget.ods`,
  `${W}/bin/blob.bin`,
  `${W}/img/huge.png`,
  `${W}/img/header-only.png`,
  `${W}/text/only-newlines.txt`,
  `${W}/text/multibyte.txt`,
  `${W}/text/many-lines.txt`,
  `${W}/text/crlf.txt`,
  `${W}/text/bom.txt`,
  NFD_FILE,
  `${W}/names/${a(250)}`,
  `${DEEP_DIR}/bottom.txt`,
];
const DIRS = [
  W,
  W,
  `${W}/`,
  "/",
  `${W}/names`,
  `${W}/names/${a(240)}`,
  `${W}/deep`,
  DEEP_DIR,
  `${W}/many`,
  `${W}/wide`,
  `${W}/min`,
  `${W}/bin`,
  `${W}/links`,
  `${W}/links/up`,
  `${W}/links/self`,
  `${W}/links/outside-dir`,
  `${W}/proj`,
  `${W}/proj-link`,
  `${W}/unicode`,
  `${W}/.git`,
  `${W}/empty-dir`,
  `${W}/scratch`,
  "/outside",
];
const ODD_PATHS = [
  `${W}/does/not/exist.txt`,
  `${W}//min///app.min.js`,
  `${W}/./min/../min/app.min.js`,
  `${W}/min/app.min.js/`,
  `${W}/min/app.min.js/child`,
  NFC_FILE,
  `${W}/names/${a(251)}`,
  `${W}/names/${a(1000)}`,
  `${W}/` + Array.from({ length: 1000 }, (_, i) => `s${i}`).join("/"),
  `${W}/links/self`,
  `${W}/links/loopA`,
  `${W}/links/loopA/x`,
  `${W}/links/up/min/app.min.js`,
  `${W}/links/up/links/up/links/up/wide/wide.txt`,
  `${W}/links/outside-file`,
  `${W}/links/outside-dir/secret.txt`,
  `${W}/links/dangling`,
  `${W}/links/relative-min`,
  `${W}/unicode/*?[glob]{chars}.txt`,
  "/outside/secret.txt",
  "/../../etc/passwd",
  `${W}/../outside/secret.txt`,
  "relative/path.txt",
  ".",
  "..",
  "",
  " ",
  `${W}/\u0000nul`,
  `${W}/with\nnewline`,
];

/** Under a root, sometimes the relative spelling of an absolute path (which may climb out of the root). */
function underRoot(rng: Rng, path: string, root: string | undefined): string {
  if (!root || !rng.chance(0.5)) return path;
  if (path === root) return rng.pick([".", "./", ""]);
  if (path.startsWith(root + "/")) return path.slice(root.length + 1);
  if (path.startsWith(W + "/")) return "../".repeat(root.split("/").length - 2) + path.slice(W.length + 1);
  return path;
}

function filePath(rng: Rng, root: string | undefined): string {
  const r = rng.next();
  const path = r < 0.45 ? rng.pick(HOT_FILES) : r < 0.75 ? rng.pick(FROZEN_PATHS) : rng.pick(ODD_PATHS);
  if (root === "/workspace/proj" && rng.chance(0.4)) return rng.pick(["src/index.ts", "src/util.ts", "README.md", "linked-src/index.ts", "src", "../min/app.min.js", "/workspace/proj/src/util.ts"]);
  return underRoot(rng, path, root);
}

function dirPath(rng: Rng, root: string | undefined): string {
  const path = rng.chance(0.8) ? rng.pick(DIRS) : rng.pick([...HOT_FILES, ...ODD_PATHS]);
  if (root === "/workspace/proj" && rng.chance(0.4)) return rng.pick([".", "src", "/workspace/proj", "linked-src", "..", "/workspace"]);
  return underRoot(rng, path, root);
}

const HUGE_INTS = [2 ** 31 - 1, 2 ** 32, 2 ** 53 - 1, 1e15, 1e9];

function bigOffset(rng: Rng): number {
  return rng.chance(0.5) ? rng.pick(HUGE_INTS) : rng.pick([0, 1, 199, 200, 999, 1000, 1199, 1200, 1201, 5000, 99_999]);
}

function globArg(rng: Rng): string {
  const r = rng.next();
  return r < 0.5 ? rng.pick(PATHOLOGICAL_GLOBS) : r < 0.85 ? randomGlob(rng) : rng.pick(NORMAL_GLOBS);
}

function globListArg(rng: Rng): string | string[] {
  if (rng.chance(0.4)) return globArg(rng);
  // Up to the schema's MAX_GLOBS (100): the run sends valid arguments only.
  return Array.from({ length: rng.int(0, rng.chance(0.2) ? MAX_GLOBS : 8) }, () => globArg(rng));
}

// ---------------------------------------------------------------------------
// Calls

/** One generated call: which tool set, which tool, which arguments. */
export interface HostileCall {
  index: number;
  set: number;
  tool: "read" | "ls" | "find" | "grep" | "write" | "edit" | "delete";
  args: Record<string, unknown>;
}

const TOOL_WEIGHTS = { read: 18, ls: 10, find: 20, grep: 25, write: 9, edit: 11, delete: 7 } as const;

function readArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = { path: filePath(rng, root) };
  if (rng.chance(0.5)) args.offset = rng.chance(0.5) ? rng.pick(HUGE_INTS) : rng.pick([1, 2, 50, 99, 100, 101, 2000, 19_999, 20_000, 20_001]);
  if (args.offset !== undefined && rng.chance(0.4)) args.byteOffset = rng.pick([0, 1, 2, 3, 399_999, 400_000, 649_999, 650_000, 650_001, 5_000_000, 2 ** 53 - 1]);
  else if (rng.chance(0.1)) args.byteOffset = 0;
  if (rng.chance(0.6)) args.limit = rng.pick([1, 2000, 2001, 100_000, 2 ** 31 - 1, 2 ** 53 - 1]);
  return args;
}

function lsArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = { path: dirPath(rng, root) };
  if (rng.chance(0.7)) args.limit = rng.pick([1, 1000, 1000, 999]);
  if (rng.chance(0.5)) args.offset = bigOffset(rng);
  return args;
}

function findArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = { pattern: globArg(rng) };
  if (rng.chance(0.8)) args.path = dirPath(rng, root);
  if (rng.chance(0.5)) args.exclude = globListArg(rng);
  if (rng.chance(0.7)) args.limit = rng.pick([1, 1000, 1000, 500]);
  if (rng.chance(0.4)) args.offset = bigOffset(rng);
  return args;
}

function grepArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  const regex = rng.chance(0.6);
  const args: Record<string, unknown> = { query: regex ? rng.pick(REDOS_REGEXES) : rng.pick(LITERALS) };
  if (regex) args.regex = true;
  else if (rng.chance(0.2)) args.regex = false;
  if (rng.chance(0.85)) args.path = rng.chance(0.6) ? dirPath(rng, root) : filePath(rng, root);
  if (rng.chance(0.4)) args.ignoreCase = rng.chance(0.8);
  if (rng.chance(0.6)) args.context = rng.chance(0.6) ? 10 : rng.int(0, 10);
  if (rng.chance(0.6)) args.limit = rng.pick([1, 1000, 1000, 200]);
  if (rng.chance(0.3)) args.offset = bigOffset(rng);
  if (rng.chance(0.4)) args.include = globListArg(rng);
  if (rng.chance(0.4)) args.exclude = globListArg(rng);
  return args;
}

const TWO_MIB = 2 * 1024 * 1024;
/** Shared big contents (built once; the calls reference them). */
const CONTENTS = {
  empty: "",
  small: "hello\n",
  crlf: "a\r\nb\r\n",
  bom: "\uFEFFbom\n",
  longLine: "x".repeat(1_000_000),
  capExact: "y".repeat(TWO_MIB),
  capPlusOne: "y".repeat(TWO_MIB + 1),
  multibyteOver: "é".repeat(TWO_MIB / 2 + 1),
  manyLines: "\n".repeat(500_000),
  surrogates: "\ud800\udc00\ud800x\udfff",
  nul: "\u0000".repeat(1000),
} as const;

function scratchPath(rng: Rng, root: string | undefined): string {
  const r = rng.next();
  let path: string;
  if (r < 0.5) path = `${W}/scratch/` + rng.pick(["min.js", "wide30.txt", "crlf.txt", "bom.txt", "quotes.txt", "dups.txt", "code.ts", "dir/a/b/c.txt", a(250), `new${rng.int(0, 30)}.txt`]);
  else if (r < 0.6) path = `${W}/scratch/` + Array.from({ length: rng.int(1, 80) }, (_, i) => `n${i}`).join("/") + "/f.txt";
  else if (r < 0.65) path = `${W}/scratch/${a(rng.int(240, 300))}`;
  else if (r < 0.7) path = `${W}/scratch/R\u00e9sum\u00e9.md`;
  else path = rng.pick([...ODD_PATHS, ...DIRS, NFC_FILE, `${W}/links/outside-dir/new.txt`, `${W}/links/up/scratch/via-link.txt`, `${W}/links/dangling`, `${W}/min/app.min.js/under-a-file`]);
  if (root === "/workspace/proj" && rng.chance(0.4)) return rng.pick(["scratch.txt", "src/new.ts", "linked-src/x.ts", "../scratch/climb.txt", "/workspace/scratch/abs.txt"]);
  return underRoot(rng, path, root);
}

/** Links in the tree that lead back into it: a mutation through them reaches what they point at. */
const INNER_LINKS: ReadonlyArray<readonly [string, string]> = [
  [`${W}/links/up`, W],
  [`${W}/links/here`, `${W}/links`],
  [`${W}/links/relative-min`, `${W}/min/app.min.js`],
  [`${W}/proj-link`, `${W}/proj`],
  [`${W}/proj/linked-src`, `${W}/proj/src`],
];

/** `path` (relative ones against `root`) made absolute, `.`/`..` collapsed and inner links followed: where a mutation lands. */
export function landing(path: string, root: string | undefined): string {
  let abs = path.startsWith("/") ? path : `${root ?? "/"}/${path}`;
  for (let guard = 0; guard < 50; guard++) {
    const parts: string[] = [];
    for (const seg of abs.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") parts.pop();
      else parts.push(seg);
    }
    abs = "/" + parts.join("/");
    const link = INNER_LINKS.find(([from]) => abs === from || abs.startsWith(from + "/"));
    if (!link) return abs;
    abs = link[1] + abs.slice(link[0].length);
  }
  return abs;
}

/**
 * Whether a mutating call may aim at `path`: it must not land on a frozen
 * file, nor (for a recursive delete) on a directory holding one.
 */
function isSafeMutationTarget(path: string, root: string | undefined, recursive = false): boolean {
  const abs = landing(path, root);
  if (FROZEN_PATHS.includes(abs)) return false;
  if (recursive && (abs === "/" || FROZEN_PATHS.some((frozen) => frozen.startsWith(abs + "/")))) return false;
  return true;
}

function writeArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  let path = scratchPath(rng, root);
  if (!isSafeMutationTarget(path, root)) path = `${W}/scratch/was-frozen.txt`;
  const content = CONTENTS[rng.pick(Object.keys(CONTENTS) as Array<keyof typeof CONTENTS>)];
  return { path, content };
}

/** oldText shapes: missing, empty, duplicated, whole giant lines, read prefixes, fuzzy quotes, CRLF/BOM confusions. */
function oldText(rng: Rng): string {
  return rng.pick([
    "",
    "a",
    "x",
    "\n",
    "same\n",
    "needle",
    "aaaa",
    "x".repeat(50_000),
    "a".repeat(49_999) + "!",
    "x".repeat(49_999) + "y",
    "#§ not in any file §#",
    "#§".repeat(30_000),
    "     1\talpha",
    "1\talpha",
    "1→alpha",
    "alpha\nbeta\n",
    "alpha\r\nbeta",
    "\uFEFFalpha",
    'He said "hello" - and \'bye\' now.',
    "\tindented",
    "    indented",
    "function f250() { return 250; }",
    "function f250() { return 251; }",
    "é€😀中",
    "\ud800",
  ]);
}

/** Scratch files and texts each holds when prepared (an earlier call may have changed the file since). */
const APPLICABLE: ReadonlyArray<readonly [string, string]> = [
  ["scratch/crlf.txt", "alpha\r\nbeta"],
  ["scratch/crlf.txt", "gamma"],
  ["scratch/bom.txt", "alpha\nbeta\n"],
  ["scratch/bom.txt", "\uFEFFalpha"],
  ["scratch/quotes.txt", 'He said "hello" - and \'bye\' now.'],
  ["scratch/quotes.txt", "\tindented"],
  ["scratch/code.ts", "function f250() { return 250; }"],
  ["scratch/code.ts", "function f499() { return 499; }\n"],
  ["scratch/min.js", "needle"],
  ["scratch/min.js", "a".repeat(1000) + "needle" + "b".repeat(1000)],
  ["scratch/wide30.txt", "x".repeat(50_000) + "\n" + "a".repeat(49_999) + "!\nword"],
  ["scratch/dir/a/b/c.txt", "c"],
];

function editArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  if (rng.chance(0.35)) {
    // An edit that applies (unless an earlier call changed the file): the text, and sometimes a second one beside it.
    const [file, old] = rng.pick(APPLICABLE);
    const path = underRoot(rng, `${W}/${file}`, root);
    // Mostly replacements that keep the text (so later edits of it can apply too).
    const edits = [{ oldText: old, newText: rng.pick([`<${old}>`, `${old}\n`, `${old}😀`, "", old.toUpperCase(), "z".repeat(rng.chance(0.2) ? 500_000 : 3) + old]) }];
    const sibling = APPLICABLE.find(([f, o]) => f === file && o !== old && !o.includes(old) && !old.includes(o));
    if (sibling && rng.chance(0.4)) edits.push({ oldText: sibling[1], newText: "second" });
    return { path, edits };
  }
  const scratch = rng.chance(0.7);
  const path = scratch ? scratchPath(rng, root) : filePath(rng, root);
  const n = rng.chance(0.1) ? rng.int(50, 400) : rng.int(1, 4);
  const edits = Array.from({ length: n }, (_, i) => {
    const old = n > 4 && rng.chance(0.7) ? `function f${i}() { return ${i}; }` : oldText(rng);
    const newText = rng.pick(["", "b", "A\r\nB", "\uFEFF", "z".repeat(n <= 4 && rng.chance(0.1) ? 1_000_000 : 10), old, "😀"]);
    return { oldText: old, newText };
  });
  // A frozen file may only be aimed at with texts that cannot apply (missing, empty or duplicated).
  if (!scratch || !isSafeMutationTarget(path, root)) {
    for (const edit of edits) if (!["", "#§ not in any file §#", "x".repeat(49_999) + "y", "#§".repeat(30_000)].includes(edit.oldText)) edit.oldText = "#§ not in any file §#";
  }
  return { path, edits };
}

function deleteArgs(rng: Rng, root: string | undefined): Record<string, unknown> {
  const r = rng.next();
  let path: string;
  let recursive: boolean | undefined;
  if (r < 0.5) {
    path = scratchPath(rng, root);
    if (rng.chance(0.3)) recursive = true;
  } else if (r < 0.6) {
    path = rng.pick([`${W}/scratch/dir`, `${W}/scratch/n0`, `${W}/scratch`]);
    recursive = true;
  } else {
    // Non-recursive deletes of things that must be refused or are missing.
    path = rng.pick([W, "/", `${W}/deep`, `${W}/many`, `${W}/names`, `${W}/links/up`, `${W}/does/not/exist`, NFC_FILE, `${W}/links/outside-dir/secret.txt`, "", ".", ".."]);
    recursive = rng.chance(0.5) ? false : undefined;
    path = underRoot(rng, path, root);
  }
  if (!isSafeMutationTarget(path, root, recursive === true)) path = `${W}/scratch/was-frozen.txt`;
  const args: Record<string, unknown> = { path };
  if (recursive !== undefined) args.recursive = recursive;
  return args;
}

/** The run's calls: `count` calls from `seed`, every one valid per its tool's schema. */
export function generateCalls(seed: number, count: number): HostileCall[] {
  const rng = new Rng(seed);
  const calls: HostileCall[] = [];
  for (let index = 0; index < count; index++) {
    const set = Number(rng.weighted(SET_WEIGHTS as unknown as Record<string, number>));
    const root = (TOOL_SETS[set]!.options as { root?: string }).root;
    const tool = rng.weighted(TOOL_WEIGHTS);
    const make = { read: readArgs, ls: lsArgs, find: findArgs, grep: grepArgs, write: writeArgs, edit: editArgs, delete: deleteArgs }[tool];
    calls.push({ index, set, tool, args: make(rng, root) });
  }
  return calls;
}

/** A short, printable rendering of a call's arguments (long strings shortened). */
export function describeArgs(args: Record<string, unknown>): string {
  return JSON.stringify(args, (_key, value) => {
    if (typeof value === "string" && value.length > 80) {
      const run = /^(.)\1*$/s.test(value) ? `${JSON.stringify(value[0])}×${value.length}` : `${value.slice(0, 60)}…(${value.length} chars)`;
      return run;
    }
    if (Array.isArray(value) && value.length > 6) return [...value.slice(0, 6), `…(${value.length} items)`];
    return value;
  });
}
