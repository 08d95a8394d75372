/**
 * Small corrections to just-bash 3.4.2's coreutils, each answering as GNU
 * coreutils 9.1 does (issue 20, twenty-first attack run): `dirname` of an
 * all-slash name, `basename --`, `rmdir -p` on a parent that cannot go,
 * `wc` (and the other commands reading through just-bash's shared file
 * reader) on a directory, `od -tx1`, `tac` on input without a last newline,
 * and `ls -d` with several operands. scripts/gen-shell.mjs patches the
 * commands to call these functions.
 *
 * @module
 */

import { STRERROR } from "./redirect-failure.js";

/** The operands of `dirname` / `basename` as getopt(3) leaves them: options dropped, everything after `--` kept, a lone `-` kept. */
export function operandsAfterOptions(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) out.push(arg);
  }
  return out;
}

/** `dirname NAME` (POSIX, GNU): `/` for `/` and `//`, `.` for a name without a slash, the parent with its trailing slashes dropped (`a//b` → `a`). */
export function dirnameOf(name: string): string {
  const trimmed = name.replace(/\/+$/, "");
  if (trimmed === "") return name.startsWith("/") ? "/" : ".";
  const slash = trimmed.lastIndexOf("/");
  if (slash === -1) return ".";
  const parent = trimmed.slice(0, slash).replace(/\/+$/, "");
  return parent === "" ? "/" : parent;
}

/** `basename NAME [SUFFIX]` (POSIX, GNU): `/` for `/` and `//`; SUFFIX is removed only when it is not the whole last component. */
export function basenameOf(name: string, suffix: string): string {
  const trimmed = name.replace(/\/+$/, "");
  if (trimmed === "") return name.startsWith("/") ? "/" : "";
  let base = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  if (suffix !== "" && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
  return base;
}

/**
 * `rmdir -p`: the stderr line for the parent `name` that could not be
 * removed, from just-bash's line for it (`rmdir: failed to remove 'd': …`),
 * worded as GNU rmdir words a parent: `rmdir: failed to remove directory 'd': …`
 * (`failed to remove 'd'` for `Not a directory`, as GNU).
 */
export function rmdirParentFailure(stderr: string, name: string): string {
  const text = typeof stderr === "string" && stderr !== "" ? stderr : `rmdir: failed to remove '${name}': Directory not empty\n`;
  if (/: Not a directory\n?$/.test(text)) return text;
  return text.replace(/^rmdir: failed to remove /, "rmdir: failed to remove directory ");
}

/**
 * The reason just-bash's shared file reader (`wc`, `cut`, `sort`, `uniq`,
 * `jq`, `xan`) gives for a file it could not read: the strerror(3) wording
 * of the error's code (`Is a directory`, `Permission denied`, …) where it
 * said `No such file or directory` for every failure.
 */
export function readFailureReason(error: unknown): string {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return (typeof code === "string" && STRERROR[code]) || "No such file or directory";
}

type ReadResult = { files: { filename: string; content: string }[]; stderr: string; exitCode: number };
type ReadFiles = (ctx: unknown, names: string[], options: Record<string, unknown>) => Promise<ReadResult>;

/**
 * `wc FILE…` reading as GNU wc: a directory (opened, but not readable)
 * keeps its place in the listing with zero counts — `0 d` — after its
 * `wc: d: Is a directory` line, and the status is 1; a file that cannot be
 * opened has no line. `read` is just-bash's
 * shared reader, called once per operand so each failure stays in its place.
 */
export async function wcReadFiles(read: ReadFiles, ctx: unknown, names: string[], options: Record<string, unknown>): Promise<ReadResult> {
  if (names.length === 0) return read(ctx, names, options);
  const out: ReadResult = { files: [], stderr: "", exitCode: 0 };
  for (const name of names) {
    const one = await read(ctx, [name], options);
    out.stderr += one.stderr;
    if (one.exitCode !== 0) out.exitCode = one.exitCode;
    if (one.files.length > 0) out.files.push(...one.files);
    else if (one.stderr.endsWith(": Is a directory\n")) out.files.push({ filename: name, content: "", directory: true } as ReadResult["files"][number]);
  }
  return out;
}

/**
 * The width GNU wc 9.1 pads every count to (compute_number_width): 1 for
 * one operand and one count, or when the first operand could not be read;
 * else the digits of the total size of the regular files read, at least 7
 * when one of them is standard input or a directory (not a regular file).
 * `names` are the operands (none: standard input), `files` what was read.
 */
export function wcWidth(names: readonly string[], files: readonly { filename: string; content: string; directory?: boolean }[], counts: number): number {
  const operands = names.length === 0 ? ["-"] : names;
  if (operands.length === 1 && counts === 1) return 1;
  if (names.length > 0 && files[0]?.filename !== names[0]) return 1;
  let minimum = 1;
  let total = 0;
  for (const file of names.length === 0 ? [{ filename: "-", content: "" }] : files) {
    if (file.filename === "-" || (file as { directory?: boolean }).directory === true) minimum = 7;
    else total += file.content.length;
  }
  return Math.max(minimum, String(total).length);
}

/**
 * `tac` of `text` (GNU, separator `\n` after each record): the records in
 * reverse order, each with the separator it had — a last record without a
 * newline is printed without one (`printf 'a\nb' | tac` → `ba\n`).
 */
export function tacText(text: string): string {
  if (text === "") return "";
  const records = text.split("\n");
  const last = records.pop()!;
  let out = last;
  for (let i = records.length - 1; i >= 0; i--) out += `${records[i]}\n`;
  return out;
}

/**
 * `ls -d A B …`: GNU lists the operands themselves as one list, sorted by
 * name (reversed with `-r`), with no blank line between them. Sorts
 * `operands` in place.
 */
export function lsDirectoryOperands(operands: string[], reverse: unknown): void {
  operands.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (reverse === true) operands.reverse();
}

// Start points of find, du and grep -r (the same import list in every patched just-bash chunk).
export { belowRoot, childName, duName, findBelowStart, findJoin, findStartName, followsStart, walkRoot } from "./walk-operands.js";
