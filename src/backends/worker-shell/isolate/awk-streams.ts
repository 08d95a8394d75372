/**
 * awk's calls, standard streams and close() as gawk 5.2.1 and mawk 1.3.4 have them (issue 20, run 31, fixer AW):
 *
 * - `NAME (expr)` — a name, a blank, then `(` — is a concatenation of the variable NAME with `(expr)` (POSIX: a user
 *   function call has its `(` right after the name), so `s = s (NR > 1 ? "," : "") $1` joins; a built-in
 *   (`length ("abc")`, `substr ($0, 2)`) and a function the program defines are still called with a blank
 *   ({@link isCall}; gawk refuses a blank after a user function's name, mawk calls it);
 * - `print`/`printf` `> "/dev/stdout"` / `"/dev/fd/1"` write to awk's standard output and `"/dev/stderr"` /
 *   `"/dev/fd/2"` to its standard error, with `>` or `>>` ({@link standardStream}); they are not files;
 * - `close(name)` of a file read by `getline < name` or a command read by `cmd | getline` forgets it, so the next
 *   getline opens the file again at its start, or runs the command again; it returns 0 for a file, the command's exit
 *   status for a command, -1 for a name that is not open ({@link close}; output files: isolate/awk-io.ts).
 *
 * scripts/gen-shell.mjs patches just-bash's awk chunk to call these (entries marked `// AW`), imported as the
 * namespace `__awkSt`. Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** A token of just-bash's awk lexer. */
interface Token {
  type: string;
  value: unknown;
  line: number;
  column: number;
}

/** The parser fields {@link isCall} reads (just-bash's awk parser). */
interface Parser {
  tokens: Token[];
  pos: number;
  awkDefinedFunctions?: Set<string>;
}

/** just-bash's awk built-ins (its built-in map's names) and gawk's that a program may call with a blank. */
const BUILTINS = new Set([
  "length", "substr", "index", "split", "sub", "gsub", "match", "gensub", "tolower", "toupper", "sprintf", "int",
  "sqrt", "sin", "cos", "atan2", "log", "exp", "rand", "srand", "system", "close", "fflush", "systime", "mktime",
  "strftime",
]);

/** The functions the program defines (`function NAME`), anywhere in it. */
function definedFunctions(parser: Parser): Set<string> {
  if (parser.awkDefinedFunctions) return parser.awkDefinedFunctions;
  const names = new Set<string>();
  const { tokens } = parser;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].type === "FUNCTION" && tokens[i + 1].type === "IDENT") names.add(String(tokens[i + 1].value));
  }
  parser.awkDefinedFunctions = names;
  return names;
}

/**
 * Whether the name just read (`parser.tokens[parser.pos - 1]`), with the parser at a `(`, is a call: the `(` right
 * after the name, or a blank between and the name a built-in or a function the program defines. Otherwise the name
 * is a variable (or an array element) and `(…)` the next operand of a concatenation.
 */
export function isCall(parser: Parser, name: string): boolean {
  const ident = parser.tokens[parser.pos - 1];
  const paren = parser.tokens[parser.pos];
  if (ident === undefined || paren === undefined) return true;
  if (ident.line === paren.line && paren.column === ident.column + String(ident.value).length) return true;
  return BUILTINS.has(name) || definedFunctions(parser).has(name);
}

/** The awk runtime context fields these read and write (just-bash's). */
interface AwkContext {
  fs?: { resolvePath(base: string, path: string): string };
  cwd?: string;
  output: string;
  /** What the program printed to `"/dev/stderr"`: the command's standard error, before any error message. */
  errOutput?: string;
  maxOutputSize?: number;
  openedFiles?: Set<string>;
  getlineFileStreams?: Map<string, unknown>;
  getlineCommandStreams?: Map<string, { exitCode?: number }>;
}

/**
 * `print`/`printf` `text` redirected to `name`: to awk's standard output (`/dev/stdout`, `/dev/fd/1`) or standard
 * error (`/dev/stderr`, `/dev/fd/2`), true; false for any other name (a file). The caller checks stdout's size limit.
 */
export function standardStream(ctx: AwkContext, name: string, text: string): boolean {
  if (name === "/dev/stdout" || name === "/dev/fd/1") {
    ctx.output += text;
    return true;
  }
  if (name === "/dev/stderr" || name === "/dev/fd/2") {
    ctx.errOutput = (ctx.errOutput ?? "") + text;
    const limit = ctx.maxOutputSize ?? 0;
    if (limit > 0 && ctx.errOutput.length > limit) throw new Error(`awk: output size limit exceeded (${limit} bytes)`);
    return true;
  }
  return false;
}

/** The program's standard error text so far (`print > "/dev/stderr"`). */
export function errText(ctx: AwkContext | undefined): string {
  return ctx?.errOutput ?? "";
}

/** A built-in's helper (just-bash's, with SA's `str`). */
interface BuiltinHelper {
  evalExpr(node: unknown): Promise<unknown>;
  str?(value: unknown): string;
}

/**
 * awk's `close(name)` for input: forgets the file `getline < name` reads (the next one starts again at the top) and
 * the command `name | getline` reads (the next one runs it again). 0 for a file, the command's exit status for a
 * command, -1 when `name` is open for neither (nor for output with `>`: that opening ends too).
 */
export async function close(args: unknown[], ctx: AwkContext, helper: BuiltinHelper): Promise<number> {
  if (args.length === 0) return -1;
  const value = await helper.evalExpr(args[0]);
  const name = helper.str ? helper.str(value) : String(value);
  let result = -1;
  const command = ctx.getlineCommandStreams?.get(name);
  if (command !== undefined) {
    ctx.getlineCommandStreams?.delete(name);
    result = command.exitCode ?? 0;
  }
  if (ctx.fs && ctx.cwd !== undefined) {
    const path = ctx.fs.resolvePath(ctx.cwd, name);
    if (ctx.getlineFileStreams?.delete(path) && result === -1) result = 0;
    if (ctx.openedFiles?.delete(path) && result === -1) result = 0;
  }
  return result;
}
