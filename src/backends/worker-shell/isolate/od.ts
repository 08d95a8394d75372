/**
 * The shell's `od`, as GNU coreutils 9.1 od dumps (issue 20, twenty-third
 * attack run): just-bash's od knew only octal bytes, `-c` and `-t x1`, and
 * printed octal for every other type. scripts/gen-shell.mjs replaces its
 * `execute` with {@link odCommand}, imported as the namespace `__od`.
 *
 * Supported: the types `a`, `c`, `d`/`o`/`u`/`x` with a size (1, 2, 4, 8 or
 * `C` `S` `I` `L`), `f` (4, 8, `F`, `D`) and a `z` suffix; the short forms
 * `-a -b -c -d -f -i -l -o -s -x` and the older `-B -D -e -F -h -H -I -L -O -X`; `-A d|o|x|n`, `-j`, `-N` (with GNU's
 * size suffixes), `-v`, `-w[N]`; `--format=`, `--address-radix=`,
 * `--skip-bytes=`, `--read-bytes=`, `--width[=]`, `--output-duplicates`.
 * Several types print one line each per block, their cells lined up as GNU
 * pads them. Not supported (refused with status 1): `-S`/`--strings`,
 * `--endian`, `--traditional` and long double (`-t fL`).
 *
 * @module
 */

import { readFailureReason } from "./coreutils.js";

/** What `odCommand` needs of just-bash's context. */
export interface OdContext {
  cwd: string;
  stdin: string;
  fs: { resolvePath(base: string, path: string): string };
  limits: { maxOutputSize: number; maxStringLength: number; maxInputBytes?: number };
}

/** Host hooks the gen-shell patch passes: just-bash's byte reader and its abort check. */
export interface OdHooks {
  /** The file at `path` as a binary string (one char code 0-255 per byte). */
  read(path: string): Promise<string>;
  /** Rethrows an abort / limit error caught while reading (just-bash's check). */
  check(error: unknown): void;
}

type Result = { stdout: string; stderr: string; exitCode: number };

interface OdType {
  kind: "a" | "c" | "d" | "f" | "o" | "u" | "x";
  size: number;
  /** Characters of one cell, its leading space included. */
  width: number;
  /** The `>…<` column after the line (`z`). */
  trailer: boolean;
}

class UsageError extends Error {}

const OCT_DIGITS = [0, 3, 6, 8, 11, 14, 16, 19, 22];
const HEX_DIGITS = [0, 2, 4, 6, 8, 10, 12, 14, 16];
const UNSIGNED_DIGITS = [0, 3, 5, 8, 10, 13, 15, 17, 20];
const SIGNED_DIGITS = [1, 4, 6, 8, 11, 13, 16, 18, 20];
const FLOAT_WIDTH: Record<number, number> = { 4: 15, 8: 24 };
const INT_SIZES: Record<string, number> = { C: 1, S: 2, I: 4, L: 8 };
const FLOAT_SIZES: Record<string, number> = { F: 4, D: 8 };
const NAMES = [
  "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
  "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
];
const ESCAPES: Record<number, string> = { 0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r" };
/** GNU od 9.1's short type options, the documented ones and the older ones its getopt still takes (`-B -D -e -F -H -I -L -O -X`). */
const SHORT_TYPES: Record<string, string> = {
  a: "a", B: "o2", b: "o1", c: "c", D: "u4", d: "u2", e: "fD", F: "fD", f: "fF", H: "x4", h: "x2",
  I: "dL", i: "dI", L: "dL", l: "dL", O: "o4", o: "o2", s: "d2", X: "x4", x: "x2",
};

/** The types of one `-t` string (`x1z`, `o2c`, `d4u1`), as GNU od's decode_format_string reads it. */
function parseTypes(spec: string): OdType[] {
  if (spec === "") throw new UsageError("od: invalid type string ''");
  const out: OdType[] = [];
  let i = 0;
  while (i < spec.length) {
    const start = i;
    const kind = spec[i++]!;
    if (kind === "a" || kind === "c") {
      out.push({ kind, size: 1, width: 4, trailer: false });
    } else if ("doux".includes(kind) || kind === "f") {
      let size: number;
      const letter = spec[i];
      const digits = /^\d+/.exec(spec.slice(i))?.[0];
      if (digits !== undefined) {
        size = Number(digits);
        i += digits.length;
      } else if (letter !== undefined && kind !== "f" && letter in INT_SIZES) {
        size = INT_SIZES[letter]!;
        i++;
      } else if (letter !== undefined && kind === "f" && (letter in FLOAT_SIZES || letter === "L")) {
        if (letter === "L") throw new UsageError(`od: invalid type string '${spec}';\nlong double (fL) is not supported here`);
        size = FLOAT_SIZES[letter]!;
        i++;
      } else {
        size = kind === "f" ? 8 : 4;
      }
      const ok = kind === "f" ? size === 4 || size === 8 : size === 1 || size === 2 || size === 4 || size === 8;
      if (!ok) {
        const what = kind === "f" ? "floating point" : "integral";
        throw new UsageError(`od: invalid type string '${spec.slice(start, i)}';\nthis system doesn't provide a ${size}-byte ${what} type`);
      }
      const digits2 =
        kind === "o" ? OCT_DIGITS[size]! : kind === "x" ? HEX_DIGITS[size]! : kind === "u" ? UNSIGNED_DIGITS[size]! : kind === "d" ? SIGNED_DIGITS[size]! : FLOAT_WIDTH[size]!;
      out.push({ kind: kind as OdType["kind"], size, width: digits2 + 1, trailer: false });
    } else {
      throw new UsageError(`od: invalid character '${kind}' in type string '${spec}'`);
    }
    if (spec[i] === "z") {
      out[out.length - 1]!.trailer = true;
      i++;
    }
  }
  return out;
}

/** A byte count with GNU's suffixes (`b` 512, `k`/`K`/`KiB` 1024, `kB` 1000, `M`, `G`, …), decimal, 0x hex or 0 octal. */
function parseCount(text: string, what: string): number {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(b|[kKMGTPE](?:iB|B)?|kB)?$/.exec(text);
  if (!m) throw new UsageError(`od: invalid ${what} argument '${text}'`);
  let n = m[1]!.startsWith("0x") || m[1]!.startsWith("0X") ? parseInt(m[1]!.slice(2), 16) : m[1]!.length > 1 && m[1]!.startsWith("0") ? parseInt(m[1]!, 8) : Number(m[1]);
  const suffix = m[2];
  if (suffix === "b") n *= 512;
  else if (suffix !== undefined) {
    const power = "kKMGTPE".indexOf(suffix[0]!) === 0 ? 1 : "KMGTPE".indexOf(suffix[0]!) + 1;
    const base = suffix.endsWith("B") && !suffix.endsWith("iB") ? 1000 : 1024;
    n *= base ** power;
  }
  if (!Number.isSafeInteger(n)) throw new UsageError(`od: invalid ${what} argument '${text}'`);
  return n;
}

interface OdOptions {
  types: OdType[];
  radix: "o" | "d" | "x" | "n";
  skip: number;
  limit: number | undefined;
  verbose: boolean;
  width: number | undefined;
  files: string[];
}

/** od's command line, as getopt_long reads GNU od's (clusters, attached or separate arguments, `--`). */
function parseArgs(args: readonly string[]): OdOptions {
  const o: OdOptions = { types: [], radix: "o", skip: 0, limit: undefined, verbose: false, width: undefined, files: [] };
  const valueOf = (i: number, name: string): string => {
    const v = args[i];
    if (v === undefined) throw new UsageError(`od: option requires an argument -- '${name}'\nTry 'od --help' for more information.`);
    return v;
  };
  const radix = (v: string) => {
    if (v !== "o" && v !== "d" && v !== "x" && v !== "n") throw new UsageError(`od: invalid output address radix '${v}'; it must be one character from [doxn]`);
    o.radix = v;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      o.files.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      const value = () => inline ?? valueOf(++i, name);
      if (name === "format") o.types.push(...parseTypes(value()));
      else if (name === "address-radix") radix(value());
      else if (name === "skip-bytes") o.skip = parseCount(value(), "skip");
      else if (name === "read-bytes") o.limit = parseCount(value(), "count");
      else if (name === "output-duplicates") o.verbose = true;
      else if (name === "width") o.width = inline === undefined ? 32 : parseCount(inline, "width");
      else throw new UsageError(`od: unrecognized option '${arg}'\nTry 'od --help' for more information.`);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        const rest = arg.slice(k + 1);
        const take = () => (rest !== "" ? rest : valueOf(++i, letter));
        if (letter in SHORT_TYPES) o.types.push(...parseTypes(SHORT_TYPES[letter]!));
        else if (letter === "v") o.verbose = true;
        else if (letter === "t") { o.types.push(...parseTypes(take())); break; }
        else if (letter === "A") { radix(take()); break; }
        else if (letter === "j") { o.skip = parseCount(take(), "skip"); break; }
        else if (letter === "N") { o.limit = parseCount(take(), "count"); break; }
        else if (letter === "w") { o.width = rest === "" ? 32 : parseCount(rest, "width"); break; }
        else throw new UsageError(`od: invalid option -- '${letter}'\nTry 'od --help' for more information.`);
      }
      continue;
    }
    o.files.push(arg);
  }
  if (o.types.length === 0) o.types.push(...parseTypes("o2"));
  return o;
}

/** `x` as C's `%.{precision}g` prints it. */
function cGeneral(x: number, precision: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x < 0 ? "-inf" : "inf";
  const [mantissa, exp] = x.toExponential(precision - 1).split("e") as [string, string];
  const e = Number(exp);
  const trim = (s: string) => (s.includes(".") ? s.replace(/\.?0+$/, "") : s);
  if (e < -4 || e >= precision) return `${trim(mantissa)}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return trim(x.toFixed(Math.max(0, precision - 1 - e)));
}

/** The shortest `%g` text of `x` that reads back as the same value (GNU's ftoastr), for a 4- or 8-byte float. */
function floatText(x: number, size: number): string {
  const same = size === 4 ? (s: string) => Math.fround(Number(s)) === x : (s: string) => Number(s) === x;
  for (let p = 1; p < 17; p++) {
    const s = cGeneral(x, p);
    if (same(s)) return s;
  }
  return cGeneral(x, 17);
}

/** The text of one cell (without padding) of `type` for the little-endian bytes at `at`. */
function cellText(type: OdType, block: Uint8Array, at: number): string {
  const byte = block[at]!;
  if (type.kind === "a") {
    const c = byte & 0x7f;
    return c < 33 ? NAMES[c]! : c === 127 ? "del" : String.fromCharCode(c);
  }
  if (type.kind === "c") {
    if (byte in ESCAPES) return ESCAPES[byte]!;
    return byte >= 32 && byte < 127 ? String.fromCharCode(byte) : byte.toString(8).padStart(3, "0");
  }
  const view = new DataView(block.buffer, block.byteOffset + at, type.size);
  if (type.kind === "f") return floatText(type.size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true), type.size);
  let value: bigint;
  if (type.size === 8) value = type.kind === "d" ? view.getBigInt64(0, true) : view.getBigUint64(0, true);
  else if (type.size === 4) value = BigInt(type.kind === "d" ? view.getInt32(0, true) : view.getUint32(0, true));
  else if (type.size === 2) value = BigInt(type.kind === "d" ? view.getInt16(0, true) : view.getUint16(0, true));
  else value = BigInt(type.kind === "d" ? view.getInt8(0) : view.getUint8(0));
  if (type.kind === "o") return value.toString(8).padStart(OCT_DIGITS[type.size]!, "0");
  if (type.kind === "x") return value.toString(16).padStart(HEX_DIGITS[type.size]!, "0");
  return value.toString(10);
}

function lcm(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y) [x, y] = [y, x % y];
  return (a / x) * b;
}

/** The address column of offset `n` (`-A`): 7 octal or decimal digits, 6 hex, or nothing. */
function address(n: number, radix: OdOptions["radix"]): string {
  if (radix === "n") return "";
  if (radix === "x") return n.toString(16).padStart(6, "0");
  return n.toString(radix === "d" ? 10 : 8).padStart(7, "0");
}

/** The lines of one block of `n` bytes (`block` zero-padded to `perLine`) for every type, as GNU's write_block. */
function blockLines(o: OdOptions, perLine: number, lineWidth: number, block: Uint8Array, n: number, offset: number): string {
  let out = "";
  o.types.forEach((type, t) => {
    const fields = perLine / type.size;
    const blank = Math.floor((perLine - n) / type.size);
    const pad = lineWidth - type.width * fields;
    let line = t === 0 ? address(offset, o.radix) : o.radix === "n" ? "" : " ".repeat(address(0, o.radix).length);
    let padRemaining = pad;
    for (let i = fields, k = 0; i > blank; i--, k++) {
      const nextPad = Math.floor((pad * (i - 1)) / fields);
      line += cellText(type, block, k * type.size).padStart(padRemaining - nextPad + type.width);
      padRemaining = nextPad;
    }
    if (type.trailer) {
      line += " ".repeat(blank * type.width + Math.floor((pad * blank) / fields));
      let shown = "";
      for (let k = 0; k < n; k++) shown += block[k]! >= 32 && block[k]! < 127 ? String.fromCharCode(block[k]!) : ".";
      line += `  >${shown}<`;
    }
    out += `${line}\n`;
  });
  return out;
}

/**
 * Runs `od ARGS…` as GNU coreutils 9.1 (see the module comment): each
 * operand read in turn (`-` or none: stdin), one that cannot be read
 * reported with its reason (`od: d: Is a directory`) and skipped, status 1
 * then; a usage error is status 1 with GNU's message. Output is bounded by
 * `ctx.limits.maxOutputSize`.
 */
export async function odCommand(args: readonly string[], ctx: OdContext, hooks: OdHooks): Promise<Result> {
  let o: OdOptions;
  try {
    o = parseArgs(args);
  } catch (error) {
    if (error instanceof UsageError) return { stdout: "", stderr: `${error.message}\n`, exitCode: 1 };
    throw error;
  }
  let stderr = "";
  let failed = false;
  // Whether any operand opened (stdin, a file, or a directory — which opens and then fails to read); GNU prints
  // the final offset only then.
  let opened = false;
  let data = "";
  const maxInput = ctx.limits.maxInputBytes ?? Number.MAX_SAFE_INTEGER;
  for (const name of o.files.length === 0 ? ["-"] : o.files) {
    let text: string;
    if (name === "-") text = ctx.stdin;
    else {
      try {
        text = await hooks.read(ctx.fs.resolvePath(ctx.cwd, name));
      } catch (error) {
        hooks.check(error);
        stderr += `od: ${name}: ${readFailureReason(error)}\n`;
        failed = true;
        if ((error as { code?: unknown } | null)?.code === "EISDIR") opened = true;
        continue;
      }
    }
    opened = true;
    if (data.length + text.length > maxInput) return { stdout: "", stderr: `${stderr}od: input too large (over ${maxInput} bytes)\n`, exitCode: 1 };
    data += text;
  }
  const bytes = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
  if (o.skip > bytes.length) return { stdout: "", stderr: `${stderr}od: cannot skip past end of combined input\n`, exitCode: 1 };
  const end = o.limit === undefined ? bytes.length : Math.min(bytes.length, o.skip + o.limit);
  const input = bytes.subarray(o.skip, end);
  const unit = o.types.reduce((a, t) => lcm(a, t.size), 1);
  let perLine = o.width ?? lcm(16, unit);
  if (perLine === 0 || perLine % unit !== 0) {
    // GNU: an invalid -w falls back to the least common multiple of the types' sizes.
    stderr += `od: warning: invalid width ${o.width}; using ${unit} instead\n`;
    perLine = unit;
  }
  const lineWidth = Math.max(...o.types.map((t) => t.width * (perLine / t.size)));
  const maxOut = Math.min(ctx.limits.maxOutputSize, ctx.limits.maxStringLength);
  let out = "";
  let starred = false;
  for (let at = 0; at < input.length; at += perLine) {
    const n = Math.min(perLine, input.length - at);
    const block = new Uint8Array(perLine);
    block.set(input.subarray(at, at + n));
    if (!o.verbose && at > 0 && n === perLine && input.subarray(at, at + n).every((b, k) => b === input[at - perLine + k])) {
      if (!starred) out += "*\n";
      starred = true;
      continue;
    }
    starred = false;
    out += blockLines(o, perLine, lineWidth, block, n, o.skip + at);
    if (out.length > maxOut) return { stdout: out.slice(0, maxOut), stderr: `${stderr}od: output limit exceeded (${maxOut} characters)\n`, exitCode: 1 };
  }
  if (o.radix !== "n" && opened) out += `${address(o.skip + input.length, o.radix)}\n`;
  return { stdout: out, stderr, exitCode: failed ? 1 : 0 };
}
