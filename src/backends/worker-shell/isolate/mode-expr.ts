/**
 * chmod's modes, expr's expressions and the environment a child command
 * starts with, as GNU coreutils 9.1 and bash 5.2 have them:
 *
 * - {@link chmodMode}: a numeric or symbolic MODE applied to a file's mode
 *   (GNU mode_compile/mode_adjust): a clause with no `u`/`g`/`o`/`a` is
 *   masked by the umask (022), `X` adds execute only to a directory or a file
 *   that has an execute bit, `u`/`g`/`o` after the operator copy those bits,
 *   and a directory keeps its set-user/group-ID bits unless the mode names
 *   them (a numeric mode of fewer than 5 digits only sets them).
 * - {@link expr}: expr's grammar; `STRING : REGEX` and `match` take the
 *   REGEX as a POSIX basic regular expression anchored at the start, print
 *   what `\(…\)` matched when it has a group (else the match length); `<`, `=`
 *   … compare as integers only when both sides are integers; arithmetic is
 *   exact (BigInt) and refuses what is not an integer.
 * - {@link childExec}, {@link startEnv}, {@link childExports},
 *   {@link environment}: a command run by another (`env`, `timeout`, `xargs`,
 *   `sh -c`, `bash FILE`) gets the caller's exported variables as its
 *   environment — env's NAME=VALUE assignments included, `env -i` an empty
 *   one — and every variable of that environment is exported again.
 *
 * scripts/gen-shell.mjs patches just-bash's chmod, expr, env/printenv, its
 * command context and its exec to call these (imported as the namespace
 * `__modeExpr`, entries marked `// SY`). Pure: it is bundled into the shell's
 * Dynamic Worker.
 *
 * @module
 */
import { modeColumn } from "./text-output.js";

// ---------------------------------------------------------------------------
// chmod

/** The shell's file-creation mask (the one cp, tar and new files honour). */
const UMASK = 0o022;
const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
const S_ISVTX = 0o1000;
const RWXU = 0o700;
const RWXG = 0o070;
const RWXO = 0o007;
const ALL_R = 0o444;
const ALL_W = 0o222;
const ALL_X = 0o111;
/** Every bit chmod sets (CHMOD_MODE_BITS). */
const MODE_BITS = 0o7777;

type ChangeKind = "ordinary" | "copy" | "x-if-any-x";
interface ModeChange {
  op: "=" | "+" | "-";
  kind: ChangeKind;
  /** The bits the `u`/`g`/`o`/`a` before the operator name; 0 for none (then the umask applies). */
  affected: number;
  value: number;
  /** The bits the clause names; a directory's set-ID bits not among them stay as they are. */
  mentioned: number;
}

/** `spec` parsed as GNU mode_compile does, or null when it is not a valid mode. */
function compileMode(spec: string): ModeChange[] | null {
  if (/^[0-7]+$/.test(spec)) {
    const octal = parseInt(spec, 8);
    if (octal > MODE_BITS) return null;
    const mentioned = spec.length < 5 ? (octal & (S_ISUID | S_ISGID)) | S_ISVTX | 0o777 : MODE_BITS;
    return [{ op: "=", kind: "ordinary", affected: MODE_BITS, value: octal, mentioned }];
  }
  const changes: ModeChange[] = [];
  let i = 0;
  for (;;) {
    let affected = 0;
    for (; i < spec.length && "ugoa".includes(spec[i]); i++) {
      const who = spec[i];
      affected |= who === "u" ? S_ISUID | RWXU : who === "g" ? S_ISGID | RWXG : who === "o" ? S_ISVTX | RWXO : MODE_BITS;
    }
    if (i >= spec.length || !"=+-".includes(spec[i])) return null;
    while (i < spec.length && "=+-".includes(spec[i])) {
      const op = spec[i++] as ModeChange["op"];
      let value = 0;
      let kind: ChangeKind = "copy";
      let mentioned = 0;
      let clauseAffected = affected;
      const c = spec[i];
      if (c !== undefined && c >= "0" && c <= "7") {
        const start = i;
        while (i < spec.length && spec[i] >= "0" && spec[i] <= "7") i++;
        const octal = parseInt(spec.slice(start, i), 8);
        if (octal > MODE_BITS || affected !== 0 || (i < spec.length && spec[i] !== ",")) return null;
        clauseAffected = mentioned = MODE_BITS;
        affected = MODE_BITS;
        value = octal;
        kind = "ordinary";
      } else if (c === "u" || c === "g" || c === "o") {
        value = c === "u" ? RWXU : c === "g" ? RWXG : RWXO;
        i++;
      } else {
        kind = "ordinary";
        for (; i < spec.length && "rwxXst".includes(spec[i]); i++) {
          const p = spec[i];
          if (p === "r") value |= ALL_R;
          else if (p === "w") value |= ALL_W;
          else if (p === "x") value |= ALL_X;
          else if (p === "X") kind = "x-if-any-x";
          else if (p === "s") value |= S_ISUID | S_ISGID;
          else value |= S_ISVTX;
        }
      }
      changes.push({ op, kind, affected: clauseAffected, value, mentioned: mentioned || (clauseAffected ? clauseAffected & value : value) });
    }
    if (i === spec.length) return changes;
    if (spec[i] !== ",") return null;
    i++;
  }
}

/** `changes` applied to `oldMode` (GNU mode_adjust) with `umask` for clauses that name no `u`/`g`/`o`/`a`. */
function adjustMode(oldMode: number, directory: boolean, umask: number, changes: readonly ModeChange[]): number {
  let mode = oldMode & MODE_BITS;
  for (const change of changes) {
    const omit = (directory ? S_ISUID | S_ISGID : 0) & ~change.mentioned;
    let value = change.value;
    if (change.kind === "copy") {
      value &= mode;
      value |=
        (value & ALL_R ? ALL_R : 0) | (value & ALL_W ? ALL_W : 0) | (value & ALL_X ? ALL_X : 0);
    } else if (change.kind === "x-if-any-x" && ((mode & ALL_X) !== 0 || directory)) {
      value |= ALL_X;
    }
    value &= (change.affected ? change.affected : ~umask) & ~omit;
    if (change.op === "=") {
      const preserved = (change.affected ? ~change.affected : 0) | omit;
      mode = (mode & preserved) | value;
    } else if (change.op === "+") {
      mode |= value;
    } else {
      mode &= ~value;
    }
  }
  return mode & MODE_BITS;
}

/**
 * The mode chmod gives a file of mode `oldMode` (a directory when
 * `directory`) for MODE `spec`, as GNU chmod 9.1 under `umask` (the shell's,
 * 022 unless `umask` changed it — run 26, fixer SD). Throws for a MODE that
 * is not valid (chmod then says `invalid mode`).
 */
export function chmodMode(spec: string, oldMode: number, directory = false, umask = UMASK): number {
  const changes = compileMode(spec);
  if (changes === null) throw new Error(`Invalid mode: ${spec}`);
  return adjustMode(oldMode, directory, umask, changes);
}

/**
 * GNU chmod's complaint when the umask kept a MODE given as an option
 * (`chmod -w f`) from doing what it says: `chmod: OPERAND: new permissions
 * are r-xrwxrwx, not r-xr-xr-x` (and status 1), else "".
 */
export function chmodSurprise(spec: string, operand: string, oldMode: number, directory: boolean, newMode: number): string {
  if (!spec.startsWith("-")) return "";
  const changes = compileMode(spec);
  if (changes === null) return "";
  const naive = adjustMode(oldMode, directory, 0, changes);
  if ((newMode & ~naive) === 0) return "";
  return `chmod: ${operand}: new permissions are ${modeColumn(newMode, "-").slice(1)}, not ${modeColumn(naive, "-").slice(1)}\n`;
}

// ---------------------------------------------------------------------------
// expr

/** A regular expression as just-bash's factory builds it (RE2, linear time). */
interface UserRegex {
  match(text: string): (string | undefined)[] | null;
}
type RegexFactory = (source: string, flags?: string) => UserRegex;

/** Contents of a JavaScript character class for each POSIX class name. */
const POSIX_CLASSES: Record<string, string> = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "0-9A-Za-z",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\v\\f\\r",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  print: " -~",
  graph: "!-~",
  cntrl: "\\x00-\\x1f\\x7f",
  xdigit: "0-9A-Fa-f",
};

/** `c` as a literal in a JavaScript pattern. */
function literal(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** `c` as a literal in a JavaScript character class. */
function classLiteral(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

/** A translated basic regular expression. */
interface Translated {
  /** The JavaScript pattern (not anchored). */
  source: string;
  /** How many `\(…\)` groups it has (re_nsub). */
  groups: number;
  /** Whether it refers back to a group (`\1`); RE2 has no back references. */
  backrefs: boolean;
  /** Whether it has `\|` (where POSIX's longest match and JavaScript's first one part). */
  alternation: boolean;
}

/** The bracket expression of `pattern` opening at `start`: its JavaScript class and where it ends. */
function bracket(pattern: string, start: number): [string, number] {
  let i = start + 1;
  let out = "[";
  if (pattern[i] === "^") {
    out += "^";
    i++;
  }
  let first = true;
  const unmatched = "Unmatched [, [^, [:, [., or [=";
  /** The next element: a POSIX class's contents (`class`) or one character. */
  const element = (): { class?: string; char?: string } => {
    if (pattern[i] === "[" && (pattern[i + 1] === ":" || pattern[i + 1] === "=" || pattern[i + 1] === ".")) {
      const kind = pattern[i + 1];
      const end = pattern.indexOf(`${kind}]`, i + 2);
      if (end < 0) throw new Error(unmatched);
      const name = pattern.slice(i + 2, end);
      i = end + 2;
      if (kind === ":") {
        const contents = POSIX_CLASSES[name];
        if (contents === undefined) throw new Error("Invalid character class name");
        return { class: contents };
      }
      if ([...name].length !== 1) throw new Error("Invalid collation character");
      return { char: name };
    }
    return { char: pattern[i++] };
  };
  for (;;) {
    if (i >= pattern.length) throw new Error(unmatched);
    if (pattern[i] === "]" && !first) return [`${out}]`, i + 1];
    first = false;
    const from = element();
    if (from.class !== undefined) {
      out += from.class;
      continue;
    }
    if (pattern[i] === "-" && i + 1 < pattern.length && pattern[i + 1] !== "]") {
      i++;
      const to = element();
      if (to.class !== undefined || (to.char as string) < (from.char as string)) throw new Error("Invalid range end");
      out += `${classLiteral(from.char as string)}-${classLiteral(to.char as string)}`;
    } else {
      out += classLiteral(from.char as string);
    }
  }
}

/** How {@link translatePosix} reads a pattern. */
export interface PosixSyntax {
  /** An extended regular expression (`grep -E`): `( ) | { } + ?` are operators unescaped, literal escaped. */
  extended?: boolean;
  /**
   * GNU grep's (dfa.c's) extra checks and warnings: `[:alpha:]` outside a bracket expression is an error, and an
   * ERE repetition at the start of an expression is ignored with a warning (`* at start of expression`).
   */
  grep?: boolean;
}

/** GNU's RE_DUP_MAX: a larger interval bound is "Regular expression too big". */
const DUP_MAX = 32767;

/** POSIX basic regular expression `pattern` (GNU syntax, as expr compiles it) as a JavaScript pattern. */
export function translateBre(pattern: string): Translated {
  return translatePosix(pattern);
}

/**
 * POSIX regular expression `pattern` in GNU syntax — basic (expr, grep, sed) or, with `syntax.extended`, extended
 * (`grep -E`) — as a JavaScript (RE2) pattern. Throws an Error carrying GNU's message (`Unmatched ( or \(`,
 * `Invalid content of \{\}`, `Trailing backslash`, …) for a pattern GNU refuses. `\<` and `\>` become `\b` (RE2 has
 * no lookaround): the same as GNU's next to a word character, which is where they are written. Warnings (grep's) are
 * pushed to `warnings`.
 */
export function translatePosix(pattern: string, syntax: PosixSyntax = {}, warnings: string[] = []): Translated {
  const ere = syntax.extended === true;
  let out = "";
  let groups = 0;
  /** The groups open: their number and where their "(" is in `out`. */
  const open: { group: number; at: number }[] = [];
  const closed = new Set<number>();
  /** Whether `^` here is an anchor: at the start, after `\(` or `\|` (anywhere in an ERE). */
  let anchorable = true;
  let backrefs = false;
  let alternation = false;
  /** Where the last atom starts in `out`, or -1 when there is none to repeat (start, after `\(`, `\|`, `^`). */
  let atom = -1;
  /** Whether the last atom already carries a repetition (`a**` is `a*`; JavaScript refuses it). */
  let repeated = false;
  const repeat = (quantifier: string) => {
    if (repeated) out = `${out.slice(0, atom)}(?:${out.slice(atom)})`;
    out += quantifier;
    repeated = true;
  };
  const startAtom = (text: string) => {
    atom = out.length;
    out += text;
    repeated = false;
  };
  const openGroup = () => {
    groups++;
    open.push({ group: groups, at: out.length });
    out += "(";
    atom = -1;
    anchorable = true;
  };
  const closeGroup = () => {
    const group = open.pop();
    if (group === undefined) throw new Error("Unmatched ) or \\)");
    closed.add(group.group);
    out += ")";
    // The group is the atom a following `*` repeats.
    atom = group.at;
    repeated = false;
  };
  /** The interval `{m,n}` whose contents start at `i` and end at `end` (the closing brace): its quantifier. */
  const interval = (contents: string): string => {
    const m = /^(\d*)(,(\d*))?$/.exec(contents);
    if (m === null || (m[1] === "" && m[2] === undefined)) throw new Error("Invalid content of \\{\\}");
    const min = m[1] === "" ? 0 : Number(m[1]);
    const max = m[3] === undefined || m[3] === "" ? undefined : Number(m[3]);
    if (max !== undefined && max < min) throw new Error("Invalid content of \\{\\}");
    if (min > DUP_MAX || (max ?? 0) > DUP_MAX) throw new Error("Regular expression too big");
    return m[2] === undefined ? `{${min}}` : `{${min},${max ?? ""}}`;
  };
  /** An ERE operator with nothing before it to repeat: GNU grep ignores it (and warns); expr's regcomp too. */
  const startWarning = (what: string) => {
    if (syntax.grep) warnings.push(`${what} at start of expression`);
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    const anchor = (ere || anchorable) && c === "^";
    anchorable = false;
    if (c === "\\") {
      if (i + 1 >= pattern.length) throw new Error("Trailing backslash");
      const d = pattern[i + 1] as string;
      i += 2;
      if (!ere && d === "(") {
        openGroup();
        continue;
      } else if (!ere && d === ")") {
        closeGroup();
      } else if (!ere && d === "|") {
        alternation = true;
        out += "|";
        atom = -1;
        anchorable = true;
        continue;
      } else if (!ere && d === "{" && atom >= 0) {
        const end = pattern.indexOf("\\}", i);
        if (end < 0) throw new Error("Unmatched \\{");
        repeat(interval(pattern.slice(i, end)));
        i = end + 2;
      } else if (!ere && (d === "+" || d === "?") && atom >= 0) {
        repeat(d);
      } else if (d >= "1" && d <= "9") {
        if (!closed.has(Number(d))) throw new Error("Invalid back reference");
        backrefs = true;
        startAtom(`\\${d}`);
      } else if (d === "w" || d === "W") {
        startAtom(d === "w" ? "[A-Za-z0-9_]" : "[^A-Za-z0-9_]");
      } else if (d === "s" || d === "S") {
        startAtom(d === "s" ? "[ \\t\\n\\v\\f\\r]" : "[^ \\t\\n\\v\\f\\r]");
      } else if (d === "b" || d === "<" || d === ">") {
        out += "\\b";
        atom = -1;
      } else if (d === "B") {
        out += "\\B";
        atom = -1;
      } else if (d === "`") {
        out += "^";
        atom = -1;
      } else if (d === "'") {
        out += "$";
        atom = -1;
      } else {
        startAtom(literal(d));
      }
    } else if (c === "[") {
      if (syntax.grep && /^\[:[^\]]*:\]/.test(pattern.slice(i)) ) throw new Error("character class syntax is [[:space:]], not [:space:]");
      const [cls, end] = bracket(pattern, i);
      startAtom(cls);
      i = end;
    } else if (ere && c === "(") {
      i++;
      openGroup();
    } else if (ere && c === ")" && open.length > 0) {
      i++;
      closeGroup();
    } else if (ere && c === "|") {
      i++;
      alternation = true;
      out += "|";
      atom = -1;
      anchorable = true;
    } else if (ere && (c === "*" || c === "+" || c === "?")) {
      i++;
      if (atom >= 0) repeat(c);
      else startWarning(c);
    } else if (ere && c === "{" && /^\{\d*(,\d*)?\}/.test(pattern.slice(i)) && !/^\{\}/.test(pattern.slice(i))) {
      const end = pattern.indexOf("}", i);
      const quantifier = interval(pattern.slice(i + 1, end));
      i = end + 1;
      if (atom >= 0) repeat(quantifier);
      else startWarning("{...}");
    } else if (!ere && c === "*" && atom >= 0) {
      repeat("*");
      i++;
    } else if (anchor) {
      out += "^";
      atom = -1;
      i++;
    } else if (c === "$" && (ere || i === pattern.length - 1 || pattern.startsWith("\\)", i + 1) || pattern.startsWith("\\|", i + 1))) {
      out += "$";
      atom = -1;
      i++;
    } else {
      // One character: a UTF-16 surrogate pair stays one atom (`😀*` repeats the whole character).
      const pair = /[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(pattern[i + 1] ?? "") ? pattern.slice(i, i + 2) : c;
      startAtom(c === "." ? "[\\s\\S]" : pair.length === 2 ? `(?:${pair})` : literal(c));
      i += pair.length;
    }
  }
  if (open.length > 0) throw new Error("Unmatched ( or \\(");
  return { source: out, groups, backrefs, alternation };
}

/** Strings longer than this skip the longest-match search `\|` needs (each length is one more match). */
const LONGEST_MATCH_LIMIT = 4096;

/**
 * `STRING : REGEX` as GNU expr: REGEX a basic regular expression anchored at
 * the start of STRING; with a `\(…\)` group, what group 1 matched ("" when
 * it took no part or nothing matched), else the length of the match ("0"
 * when none).
 */
export function exprMatch(text: string, pattern: string, makeRegex: RegexFactory): string {
  const bre = translateBre(pattern);
  // RE2 has no back references: a pattern with one is matched by JavaScript's own engine.
  const compile = (source: string): UserRegex => {
    if (!bre.backrefs) return makeRegex(source);
    const re = new RegExp(source);
    return { match: (subject) => re.exec(subject) };
  };
  let m = compile(`^(?:${bre.source})`).match(text);
  if (m !== null && bre.alternation && text.length <= LONGEST_MATCH_LIMIT) {
    // POSIX takes the longest match; JavaScript the first alternative that matches.
    const whole = compile(`^(?:${bre.source})$`);
    for (let length = text.length; length > (m[0] as string).length; length--) {
      const longer = whole.match(text.slice(0, length));
      if (longer !== null) {
        m = longer;
        break;
      }
    }
  }
  if (bre.groups > 0) return m?.[1] ?? "";
  return String(m === null ? 0 : (m[0] as string).length);
}

/** Whether `value` is null to expr (status 1, false to `|` and `&`): "", or 0 however many zeros and a `-`. */
export function exprNull(value: string): boolean {
  return /^(?:-?0+)?$/.test(value);
}

/** `value` as an integer when it is one to expr (an optional `-` then digits), else null. */
function integer(value: string): bigint | null {
  return /^-?\d+$/.test(value) ? BigInt(value) : null;
}

/** Bytewise order of two strings (the C locale's strcoll). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const COMPARISONS: Record<string, (order: number) => boolean> = {
  "<": (o) => o < 0,
  "<=": (o) => o <= 0,
  "=": (o) => o === 0,
  "==": (o) => o === 0,
  "!=": (o) => o !== 0,
  ">=": (o) => o >= 0,
  ">": (o) => o > 0,
};

/** GNU's quote() of an argument in an error message. */
function quote(arg: string): string {
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * Evaluates expr's ARGS as GNU expr 9.1 and returns what it prints; throws an
 * Error whose message follows `expr: ` for a syntax error, a non-integer
 * argument, a division by zero or a bad regular expression. `consumeWork`
 * is charged for what `index` and `:` scan; `makeRegex` builds the (RE2)
 * regular expressions.
 */
export function expr(args: readonly string[], consumeWork: (units: number) => void, makeRegex: RegexFactory): string {
  let argv = args;
  if (argv[0] === "--") argv = argv.slice(1);
  if (argv.length === 0) throw new Error("missing operand");
  let at = 0;
  const more = () => at < argv.length;
  const next = (token: string) => {
    if (at < argv.length && argv[at] === token) {
      at++;
      return true;
    }
    return false;
  };
  const toInteger = (value: string): bigint => {
    const n = integer(value);
    if (n === null) throw new Error("non-integer argument");
    return n;
  };

  function orExpr(evaluate: boolean): string {
    let l = andExpr(evaluate);
    while (next("|")) {
      const r = andExpr(evaluate && exprNull(l));
      if (exprNull(l)) l = exprNull(r) ? "0" : r;
    }
    return l;
  }
  function andExpr(evaluate: boolean): string {
    let l = comparison(evaluate);
    while (next("&")) {
      const r = comparison(evaluate && !exprNull(l));
      if (exprNull(l) || exprNull(r)) l = "0";
    }
    return l;
  }
  function comparison(evaluate: boolean): string {
    let l = sum(evaluate);
    for (;;) {
      const op = argv[at];
      const test = more() ? COMPARISONS[op] : undefined;
      if (test === undefined) return l;
      at++;
      const r = sum(evaluate);
      if (!evaluate) continue;
      const a = integer(l);
      const b = integer(r);
      const order = a !== null && b !== null ? (a < b ? -1 : a > b ? 1 : 0) : compareStrings(l, r);
      l = test(order) ? "1" : "0";
    }
  }
  function sum(evaluate: boolean): string {
    let l = product(evaluate);
    for (;;) {
      const op = argv[at];
      if (!more() || (op !== "+" && op !== "-")) return l;
      at++;
      const r = product(evaluate);
      if (evaluate) l = String(op === "+" ? toInteger(l) + toInteger(r) : toInteger(l) - toInteger(r));
    }
  }
  function product(evaluate: boolean): string {
    let l = colon(evaluate);
    for (;;) {
      const op = argv[at];
      if (!more() || (op !== "*" && op !== "/" && op !== "%")) return l;
      at++;
      const r = colon(evaluate);
      if (!evaluate) continue;
      const a = toInteger(l);
      const b = toInteger(r);
      if (op !== "*" && b === 0n) throw new Error("division by zero");
      l = String(op === "*" ? a * b : op === "/" ? a / b : a % b);
    }
  }
  function colon(evaluate: boolean): string {
    let l = primary(evaluate);
    while (next(":")) {
      const r = primary(evaluate);
      if (evaluate) {
        consumeWork(l.length + r.length);
        l = exprMatch(l, r, makeRegex);
      }
    }
    return l;
  }
  function primary(evaluate: boolean): string {
    if (next("+")) {
      if (!more()) throw new Error(`syntax error: missing argument after ${quote(argv[at - 1])}`);
      return argv[at++];
    }
    if (next("length")) {
      const s = primary(evaluate);
      return String(s.length);
    }
    if (next("match")) {
      const s = primary(evaluate);
      const re = primary(evaluate);
      if (!evaluate) return "0";
      consumeWork(s.length + re.length);
      return exprMatch(s, re, makeRegex);
    }
    if (next("index")) {
      const s = primary(evaluate);
      const chars = primary(evaluate);
      consumeWork(s.length + chars.length);
      const set = new Set(chars);
      for (let i = 0; i < s.length; i++) if (set.has(s[i])) return String(i + 1);
      return "0";
    }
    if (next("substr")) {
      const s = primary(evaluate);
      const pos = integer(primary(evaluate));
      const len = integer(primary(evaluate));
      if (pos === null || len === null || pos <= 0n || len <= 0n || pos > BigInt(s.length)) return "";
      const from = Number(pos) - 1;
      return s.slice(from, from + Number(len > BigInt(s.length) ? BigInt(s.length) : len));
    }
    return atom(evaluate);
  }
  function atom(evaluate: boolean): string {
    if (!more()) throw new Error(`syntax error: missing argument after ${quote(argv[at - 1])}`);
    if (next("(")) {
      const v = orExpr(evaluate);
      if (!more()) throw new Error(`syntax error: expecting ')' after ${quote(argv[at - 1])}`);
      if (!next(")")) throw new Error(`syntax error: expecting ')' instead of ${quote(argv[at])}`);
      return v;
    }
    if (argv[at] === ")") throw new Error("syntax error: unexpected ')'");
    return argv[at++];
  }

  const value = orExpr(true);
  if (more()) throw new Error(`syntax error: unexpected argument ${quote(argv[at])}`);
  return value;
}

// ---------------------------------------------------------------------------
// The environment of a command another command runs.

/** The options just-bash's exec takes that matter here. */
interface ExecOptions {
  env?: Record<string, string>;
  replaceEnv?: boolean;
  [option: string]: unknown;
}

/**
 * The options for a command that the running command starts (`timeout 5 sh
 * -c …`, `xargs sh`, `bash FILE`, `env …`): its environment is exactly the
 * caller's exported variables (`exported`) with `options.env` over them — or
 * `options.env` alone when `replaceEnv` (env's own) — not the shell's first
 * variables, so `unset HOME; sh -c 'echo $HOME'` prints nothing.
 */
export function childExec<T extends ExecOptions | undefined>(options: T, exported: Record<string, string> | undefined): T {
  if (options?.replaceEnv) return options;
  return { ...options, env: { ...exported, ...options?.env }, replaceEnv: true } as T;
}

/** Names a child can export (positional and special parameters travel in `env` too, never exported). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables bash 5.2 sets for itself when the environment does not give them. */
const SHELL_DEFAULTS: Record<string, string> = { IFS: " \t\n", OPTIND: "1", PATH: "/usr/bin:/bin" };
/** Variables the shell set for itself at start that a new one has too (describing the machine and its options). */
const SHELL_SET = ["HOSTNAME", "HOSTTYPE", "MACHTYPE", "OSTYPE", "SHELLOPTS", "BASHOPTS"];

/**
 * The variables a command started with a whole new environment has before
 * that environment is added: IFS, OPTIND and PATH as bash 5.2 sets them and
 * the ones `state` (the shell as it started) set for itself — HOSTNAME,
 * SHELLOPTS, … — never one the caller had exported or unset.
 */
export function startEnv(state: { env: Map<string, string> }): Map<string, string> {
  const env = new Map<string, string>(Object.entries(SHELL_DEFAULTS));
  for (const name of SHELL_SET) {
    const value = state.env.get(name);
    if (value !== undefined) env.set(name, value);
  }
  return env;
}

/** The export sets of a command started with environment `env`: each of its variables exported. */
export function childExports(env: Record<string, string> | undefined): { exportedVars: Set<string>; tempExportedVars: Set<string> } {
  return { exportedVars: new Set(Object.keys(env ?? {}).filter((name) => NAME.test(name))), tempExportedVars: new Set() };
}

/** The environment `env` and `printenv` list and start from: the exported variables (bash passes a command no others). */
export function environment(ctx: { env: Map<string, string>; exportedEnv?: Record<string, string> }): Map<string, string> {
  return new Map(ctx.exportedEnv === undefined ? ctx.env : Object.entries(ctx.exportedEnv));
}
