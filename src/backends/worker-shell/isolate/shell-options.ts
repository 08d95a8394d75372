/**
 * Where a shell's options and its expansion errors stop, as bash 5.2
 * non-interactive (`bash -c`) draws the lines (issue 20, twenty-third attack
 * run): a `failglob` no-match ends the shell, but `eval` and `source` stop
 * only their own text (status 1) and a background job (`cmd &`) is a
 * subshell; a new shell (`bash -c`, `sh s.sh`, `./script`) starts with its
 * options off; and the array words of `declare`/`local`/`readonly`/`export`
 * are expanded as `arr=(…)` is (globbing, `nullglob`, `failglob`).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__shellOptions`.
 *
 * @module
 */

/** just-bash's word (a parsed shell word): its parts, each with a `type`. */
interface Word {
  type: "Word";
  parts: Part[];
}
interface Part {
  type: string;
  value?: string;
  pattern?: string;
}
/** The part of just-bash's interpreter state these functions read and write. */
interface ShellState {
  env: Map<string, string>;
  options: Record<string, boolean>;
  shoptOptions: Record<string, boolean>;
  nextVirtualPid: number;
  lastBackgroundPid: number;
}
interface ShellContext {
  state: ShellState;
}
interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

// ---------------------------------------------------------------------------
// Expansion errors that end the shell, but not an `eval` or `source` around them.

/** Marks a shell-ending error that came from an expansion (bash's `DISCARD`). */
const EXPANSION_EXIT = Symbol("expansion exit");

/**
 * `error` (just-bash's ExitError, status 1) marked as an expansion error:
 * bash 5.2 ends a non-interactive shell on it, but an `eval` or `source`
 * running the text it is in stops there with status 1 and the shell goes on.
 */
export function expansionExit<E extends object>(error: E): E {
  Object.defineProperty(error, EXPANSION_EXIT, { value: true });
  return error;
}

/** Whether `error` is an ExitError {@link expansionExit} marked. */
export function isExpansionExit(error: unknown): error is ExecResult {
  return typeof error === "object" && error !== null && (error as { [EXPANSION_EXIT]?: boolean })[EXPANSION_EXIT] === true;
}

// ---------------------------------------------------------------------------
// Expansion errors that end the shell: an unset variable under `set -u`, `${x:?msg}`.

/** Marks an ExitError that ends a (sub)shell with status 1 but a top-level shell with 127. */
const SUBSHELL_STATUS = Symbol("subshell status");

/** just-bash's ExitError constructor (status, stdout, stderr). */
type ExitErrorClass<E> = new (code: number, stdout: string, stderr: string) => E;

function shellEnding<E extends object>(error: E): E {
  Object.defineProperty(error, SUBSHELL_STATUS, { value: 1 });
  return error;
}

/**
 * The error `set -u` raises for an unset variable `error` (just-bash's
 * NounsetError, whose stderr is `bash: NAME: unbound variable`), as bash 5.2
 * non-interactive treats it: it ends the shell — through functions, groups,
 * loops and `eval`, which just-bash went on after (status 1) — with status
 * 127, or 1 for a subshell, `$(…)` or pipeline element it ends.
 */
export function nounsetExit<E extends object>(error: { stdout?: string; stderr?: string }, exitError: ExitErrorClass<E>): E {
  return shellEnding(new exitError(127, error.stdout ?? "", error.stderr ?? ""));
}

/**
 * The error `${NAME:?word}` / `${NAME?word}` raises for an unset (or empty)
 * parameter: `bash: NAME: word`, or `bash: NAME: parameter null or not set`
 * when `word` is empty, ending the shell as {@link nounsetExit} does
 * (just-bash wrote `bash: word` and ended with status 1).
 */
export function unsetParameterExit<E extends object>(name: string, word: string | undefined, exitError: ExitErrorClass<E>): E {
  return shellEnding(new exitError(127, "", `bash: ${name}: ${word === undefined || word === "" ? "parameter null or not set" : word}\n`));
}

/** The status a subshell (`( … )`, `$(…)`) ends with for ExitError `error`: its own, or 1 for {@link nounsetExit}'s. */
export function subshellStatus(error: { exitCode: number }): number {
  return (error as { [SUBSHELL_STATUS]?: number })[SUBSHELL_STATUS] ?? error.exitCode;
}

// ---------------------------------------------------------------------------
// Command substitution: errexit off inside unless inherit_errexit.

/**
 * Runs the body of a command substitution `$(…)` as bash 5.2 runs one (not in
 * POSIX mode): with `set -e` off inside unless `shopt -s inherit_errexit`, so
 * `set -e; x=$(false; echo y)` sets `x` to `y` (the status of the last
 * command is the substitution's) and the caller's options are as they were
 * after. just-bash ran the body with the caller's errexit.
 */
export async function commandSubstitution<R>(ctx: ShellContext, run: () => Promise<R>): Promise<R> {
  const options = ctx.state.options;
  const errexit = options.errexit;
  if (ctx.state.shoptOptions?.inherit_errexit !== true) options.errexit = false;
  try {
    return await run();
  } finally {
    options.errexit = errexit;
  }
}

// ---------------------------------------------------------------------------
// Contexts where `set -e` is ignored: a non-final `&&`/`||` operand and `!`.

/**
 * Runs pipeline `run` of a list in a context where bash ignores `set -e`: a
 * pipeline followed by `&&` or `||`, or one negated with `!` (bash(1), `-e`:
 * "…part of any command executed in a && or || list except the command
 * following the final && or ||, any command in a pipeline but the last, or if
 * the command's return value is being inverted with !"). As in an `if` or
 * `while` condition, the commands inside a function or group run there are not
 * affected by `set -e` either (nor is the ERR trap run for them), so
 * `set -e; f || echo failed` runs all of `f`. just-bash ignored errexit only
 * for the operand's own status and ended the script at the first failing
 * command inside `f`.
 */
export async function errexitIgnored<R>(ctx: ShellContext, run: () => Promise<R>): Promise<R> {
  const state = ctx.state as { inCondition?: boolean };
  const inCondition = state.inCondition;
  state.inCondition = true;
  try {
    return await run();
  } finally {
    state.inCondition = inCondition;
  }
}

// ---------------------------------------------------------------------------
// Where a `set -e` exemption ends (issue 20, run 35, fixer SE).

/**
 * just-bash's command node types whose status is that of the last command of
 * their body, run in the current shell (a group `{ …; }`, `if`, `for`,
 * `for ((…))`, `while`, `until`, `case`): bash 5.2 lets the `set -e`
 * exemption of that last command carry out of them, so
 * `set -e; { false && true; }; echo after` goes on (fixer SE).
 */
const CARRIES_ERREXIT_EXEMPTION = new Set(["Group", "If", "For", "CStyleFor", "While", "Until", "Case"]);

/**
 * Runs command `node` (one element of a pipeline: just-bash's
 * executeCommandInner) so the `set -e` exemption just-bash's executeStatement
 * reads after a pipeline (`state.errexitSafe`: the last command ran as a
 * non-final `&&`/`||` operand or negated with `!`) is only what this command
 * itself left: cleared before it runs, and cleared again when it ends unless
 * `node` is one of {@link CARRIES_ERREXIT_EXEMPTION}. So a function call,
 * `source` and `eval` (simple commands), a subshell, `[[ ]]`, `(( ))` and an
 * assignment `x=$(…)` have their status judged afresh, as bash 5.2 judges a
 * simple command's (bash(1), `-e`; its `execute_command_internal` checks
 * `exit_immediately_on_error` on the call's status):
 * `set -e; f(){ false && true; }; f; echo after` ends with status 1 and runs
 * the ERR trap, as do `x=$([ -f c ] && cat c)`, `[[ -n "$(false && true)" ]]`
 * and `{ false && true; } || (( 0 ))`. just-bash kept the exemption the body's
 * last `&&` list set and went on. Where bash ignores `set -e` for the call
 * itself (`f || …`, `if f`, `! f`, `f && x`, `f | cat`) nothing changes.
 */
export async function errexitScope<R>(ctx: ShellContext, node: { type: string }, run: () => Promise<R>): Promise<R> {
  const state = ctx.state as { errexitSafe?: boolean };
  state.errexitSafe = false;
  try {
    return await run();
  } finally {
    if (!CARRIES_ERREXIT_EXEMPTION.has(node.type)) state.errexitSafe = false;
  }
}

/**
 * Runs `pipeline` (just-bash's executePipeline) so that one of more than one
 * command leaves no `set -e` exemption behind: each element is a subshell in
 * bash (the last one too, even with `shopt -s lastpipe`), so
 * `set -e; true | { false && true; }` ends with status 1 as bash 5.2 does,
 * where just-bash let the group's exemption through (fixer SE). A lone
 * command is left to {@link errexitScope}.
 */
export async function errexitPipeline<R>(ctx: ShellContext, pipeline: { commands: readonly unknown[] }, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } finally {
    if (pipeline.commands.length > 1) (ctx.state as { errexitSafe?: boolean }).errexitSafe = false;
  }
}

// ---------------------------------------------------------------------------
// A command's own `<` redirect of an empty file is its whole stdin.

/**
 * Runs command `run` whose stdin is its own redirect (`< file`, `<< EOF`, or
 * `<&N`) that gave the empty string: with the enclosing loop's or group's
 * stdin hidden, so the command (and `read`/`mapfile`, and a function's body)
 * reads nothing, as in bash — `… | while read -r f; do n=$(wc -l < "$f");
 * done` counts an empty `$f` as 0. just-bash took an empty redirect for "no
 * redirect" (`stdin || groupStdin`) and gave the command the loop's remaining
 * input, which `read`/`mapfile` then consumed. The hidden stdin is put back
 * as it was after the command.
 */
export async function emptyRedirectedStdin<R>(ctx: ShellContext, run: () => Promise<R>): Promise<R> {
  const state = ctx.state as { groupStdin?: string; groupStdinSourceFd?: number };
  const { groupStdin, groupStdinSourceFd } = state;
  state.groupStdin = "";
  state.groupStdinSourceFd = undefined;
  try {
    return await run();
  } finally {
    state.groupStdin = groupStdin;
    state.groupStdinSourceFd = groupStdinSourceFd;
  }
}

// ---------------------------------------------------------------------------
// A new shell's options.

/** The `shopt` options bash 5.2 turns on in a new non-interactive shell (of those just-bash knows, only globskipdots). */
const SHOPT_ON = new Set(["checkwinsize", "cmdhist", "complete_fullquote", "extquote", "force_fignore", "globasciiranges", "globskipdots", "hostcomplete", "interactive_comments", "patsub_replacement", "progcomp", "promptvars", "sourcepath"]);
/** The `set -o` options always on in just-bash's SHELLOPTS. */
const SET_ALWAYS_ON = ["braceexpand", "hashall", "interactive-comments"];

/** `options` with each key set as a new bash has it: on when `on` has it, else off. */
function fresh(options: Record<string, boolean>, on: ReadonlySet<string>): Record<string, boolean> {
  return Object.fromEntries(Object.keys(options).map((name) => [name, on.has(name)]));
}

/** BASHOPTS for `shopt`: the options on, by name, `:`-separated (bash's order). */
function bashopts(shopt: Record<string, boolean>): string {
  return Object.keys(shopt)
    .filter((name) => shopt[name])
    .sort()
    .join(":");
}

/**
 * The `shopt` options of a new shell (`bash -c`, `bash FILE`, `sh …`): each
 * of `current`'s keys as bash 5.2 starts them (all off but globskipdots), not
 * the caller's, and `env`'s BASHOPTS to match. A new bash takes its
 * variables from the environment only (just-bash passes the exported ones).
 */
export function newShellShopt(current: Record<string, boolean>, env: Map<string, string>): Record<string, boolean> {
  const shopt = fresh(current, SHOPT_ON);
  env.set("BASHOPTS", bashopts(shopt));
  return shopt;
}

/**
 * The rest of just-bash's interpreter state a new shell starts afresh (each
 * field is one just-bash saves before running a script file and restores
 * after it).
 */
interface ScriptShellState extends ShellState {
  cwd: string;
  arrays?: Map<string, unknown>;
  functions: Map<string, unknown>;
  exportedVars?: Set<string>;
  tempExportedVars?: Set<string>;
  readonlyVars?: Set<string>;
  [attributes: string]: unknown;
}

/** The variable attribute sets a new shell starts empty (bash passes a child only exported strings, no attributes). */
const ATTRIBUTE_SETS = ["associativeArrays", "namerefs", "boundNamerefs", "invalidNamerefs", "integerVars", "lowercaseVars", "uppercaseVars", "declaredVars"];
/** The function-call, local-scope and condition bookkeeping a new shell starts without. */
const CALL_STATE = ["localExportedVars", "localArrayScopes", "localVarDepth", "localVarStack", "fullyUnsetLocals", "tempEnvBindings", "mutatedTempEnvVars", "accessedTempEnvVars", "directoryStack", "errexitSafe", "callLineStack", "funcNameStack", "sourceStack"];
/** Variables bash 5.2 sets itself at start when the environment does not give them (IFS and OPTIND even when it does). */
const SHELL_SET = ["OSTYPE", "MACHTYPE", "HOSTTYPE", "HOSTNAME"];

/**
 * Sets `state` up as a new shell running a script file (`./script`), as
 * bash 5.2 runs `bash FILE`: its `set -o` and `shopt` options as bash starts
 * them, with SHELLOPTS and BASHOPTS to match, and only the caller's exported
 * variables (`export v`, `v=1 ./script`, `set -a`) — as strings with no other
 * attribute — so its unexported variables, arrays, functions, locals and
 * positional parameters are not there; IFS and OPTIND are bash's defaults
 * and PWD is the working directory. (just-bash runs such a script in a copy
 * of the caller's state, which it restores after.)
 */
export function newShell(state: ScriptShellState): void {
  const env = new Map<string, string>();
  for (const name of SHELL_SET) {
    const value = state.env.get(name);
    if (value !== undefined) env.set(name, value);
  }
  const exported = new Set([...(state.exportedVars ?? []), ...(state.tempExportedVars ?? [])]);
  for (const name of exported) {
    const value = state.env.get(name);
    if (value !== undefined) env.set(name, value);
    else exported.delete(name);
  }
  env.set("IFS", " \t\n");
  env.set("OPTIND", "1");
  env.set("PWD", state.cwd);
  env.set("?", "0");
  state.env = env;
  state.exportedVars = exported;
  state.tempExportedVars = new Set();
  state.readonlyVars = new Set(["SHELLOPTS", "BASHOPTS"]);
  state.arrays = new Map();
  state.functions = new Map();
  for (const name of ATTRIBUTE_SETS) state[name] = new Set();
  for (const name of CALL_STATE) state[name] = undefined;
  Object.assign(state, { localScopes: [], callDepth: 0, sourceDepth: 0, inCondition: false, lastExitCode: 0, lastArg: "", hashTable: new Map() });
  state.options = fresh(state.options, new Set());
  state.shoptOptions = newShellShopt(state.shoptOptions, state.env);
  const setOn = [...SET_ALWAYS_ON, ...Object.keys(state.options).filter((name) => state.options[name])];
  state.env.set("SHELLOPTS", setOn.sort((a, b) => a.localeCompare(b)).join(":"));
}

// ---------------------------------------------------------------------------
// Background jobs and `wait`.

interface Job {
  pid: number;
  status: number;
  /** Whether `wait` took it by pid or job spec (bash then forgets the job, `%N`, but not its pid). */
  reaped: boolean;
}
/** Each shell state's background jobs, in the order started (job N is `jobs[N-1]`). */
const jobsByState = new WeakMap<ShellState, Job[]>();

function jobsOf(state: ShellState): Job[] {
  let jobs = jobsByState.get(state);
  if (jobs === undefined) jobsByState.set(state, (jobs = []));
  return jobs;
}

/** The interpreter methods a background job runs through. */
interface Interpreter {
  ctx: ShellContext;
  executeSubshell(node: unknown, stdin: string, useStdin: boolean): Promise<ExecResult>;
}

/**
 * Runs `statement` (an and-or list ended by `&`) as bash 5.2 runs a
 * background job: in a subshell (what it changes, and an `exit` or
 * expansion error in it, stay there), reading the stdin of the commands
 * around it (a pipe or redirection into its group; bash gives a job at the
 * script's own top level /dev/null instead). just-bash has no processes, so
 * the job runs to its end here, before the next command; the statement's
 * status is 0, `$!` names the job, and `wait $!` gives the job's status.
 */
export async function backgroundJob(interpreter: Interpreter, statement: object): Promise<ExecResult> {
  const state = interpreter.ctx.state;
  const pid = state.nextVirtualPid;
  const result = await interpreter.executeSubshell({ type: "Subshell", body: [{ ...statement, background: false }], redirections: [] }, "", false);
  state.lastBackgroundPid = pid;
  jobsOf(state).push({ pid, status: result.exitCode, reaped: false });
  return { ...result, exitCode: 0 };
}

/**
 * The `wait` builtin over the jobs {@link backgroundJob} ran (all finished):
 * no operand → 0; each `PID` or `%N` (`%%`, `%+`, `%-`) → that job's status,
 * the last one's is wait's; an unknown pid → `pid N is not a child of this
 * shell` (127), an unknown job → `%N: no such job` (127), anything else →
 * `not a pid or valid job spec` (1). `-n` takes the oldest job not waited
 * for (127 when none), `-f` changes nothing, `-p VAR` sets VAR to the pid.
 */
export function wait(ctx: ShellContext, args: readonly string[]): ExecResult {
  const jobs = jobsOf(ctx.state);
  let next = false;
  let pidVar: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (!/^-[nfp]+$/.test(arg)) break;
    if (arg.includes("n")) next = true;
    if (arg.includes("p")) {
      pidVar = args[++i];
      if (pidVar === undefined) return { stdout: "", stderr: "bash: wait: -p: option requires an argument\nwait: usage: wait [-fn] [-p var] [id ...]\n", exitCode: 2 };
    }
  }
  const operands = args.slice(i);
  const took = (job: Job): ExecResult => {
    job.reaped = true;
    if (pidVar !== undefined) ctx.state.env.set(pidVar, String(job.pid));
    return { stdout: "", stderr: "", exitCode: job.status };
  };
  if (next) {
    const job = jobs.find((j) => !j.reaped && (operands.length === 0 || operands.includes(String(j.pid))));
    return job === undefined ? { stdout: "", stderr: "", exitCode: 127 } : took(job);
  }
  let stderr = "";
  let exitCode = 0;
  for (const operand of operands) {
    const live = jobs.filter((j) => !j.reaped);
    let job: Job | undefined;
    if (/^[0-9]+$/.test(operand)) {
      job = jobs.findLast((j) => String(j.pid) === operand);
      if (job === undefined) {
        stderr += `bash: wait: pid ${operand} is not a child of this shell\n`;
        exitCode = 127;
        continue;
      }
    } else if (/^%(?:[%+-]?|[0-9]+)$/.test(operand)) {
      const spec = operand.slice(1);
      job = spec === "" || spec === "%" || spec === "+" ? live.at(-1) : spec === "-" ? live.at(-2) : jobs[Number(spec) - 1];
      if (job === undefined || job.reaped) {
        stderr += `bash: wait: ${operand}: no such job\n`;
        exitCode = 127;
        continue;
      }
    } else {
      stderr += `bash: wait: \`${operand}': not a pid or valid job spec\n`;
      exitCode = 1;
      continue;
    }
    exitCode = took(job).exitCode;
  }
  return { stdout: "", stderr, exitCode };
}

// ---------------------------------------------------------------------------
// The array words of declaration builtins.

/** just-bash's functions a declaration's array word is expanded with. */
interface ArrayWordImpl {
  /** just-bash's own reading of a `NAME=(…)` word into the text `NAME=(…)` the builtin parses (or null). */
  compound(ctx: ShellContext, word: Word): Promise<string | null>;
  /** Full word expansion (braces, tilde, parameters, splitting, globbing with nullglob/failglob). */
  expand(ctx: ShellContext, word: Word): Promise<{ values: string[] }>;
  /** Parses `text` (an unquoted word) into a word. */
  parseWord(text: string): Word;
}

/**
 * The element words just-bash's parser read for each declaration word
 * `NAME=(…)` before it wrote them back as text (which keeps neither a
 * command substitution nor an escaped blank).
 */
const arrayElements = new WeakMap<object, readonly Word[]>();

/**
 * `word` (the parser's one-word `NAME=(…)` argument of a command), noting
 * `elements`, the words between the parentheses as the parser read them,
 * for {@link declarationArray}.
 */
export function withArrayElements<W extends object>(word: W, elements: readonly Word[]): W {
  arrayElements.set(word, elements);
  return word;
}

/** Whether element `parts` is `[KEY]=VALUE` (or `+=`), as just-bash tells a keyed element of `arr=(…)`. */
function isKeyed(parts: readonly Part[]): boolean {
  const [first, second, third] = parts;
  if (first?.type !== "Glob" || !first.pattern?.startsWith("[") || second === undefined) return false;
  if (first.pattern === "[" && (second.type === "DoubleQuoted" || second.type === "SingleQuoted")) {
    return third?.type === "Literal" && (third.value?.startsWith("]=") === true || third.value?.startsWith("]+=") === true);
  }
  if (!first.pattern.includes("]") && second.type !== "Literal") {
    // `[$i]=v`, `[$((i+1))]=v`: the subscript's expansions, then `]=`.
    const close = parts.slice(1).find((part) => part.type === "Literal");
    return close?.value?.startsWith("]=") === true || close?.value?.startsWith("]+=") === true;
  }
  if (second.type !== "Literal") return false;
  const value = second.value ?? "";
  if (value.startsWith("]")) return value.startsWith("]=") || value.startsWith("]+=");
  return first.pattern.endsWith("]") && (value.startsWith("=") || value.startsWith("+="));
}

/** `value` as an element of the builtin's array text: as is, or `'…'` (a `'` as `'\''`) when it has a special character or is empty, as just-bash writes one. */
function arrayElement(value: string): string {
  return value !== "" && !/[\s"'\\$`!*?[\]{}|&;<>()]/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The text `NAME=(…)` / `NAME+=(…)` a declaration builtin (`declare`,
 * `typeset`, `local`, `readonly`, `export`) parses for its argument `word`,
 * with each element expanded as bash 5.2 expands the words of `NAME=(…)`:
 * an element other than `[KEY]=VALUE` goes through full word expansion, so
 * `declare -a y=(*.txt)` lists the files (`nullglob` drops a pattern with
 * no match, `failglob` throws just-bash's GlobError) and `local x=($v)`
 * splits `$v`. A `[KEY]=VALUE` element, and a word of any other form, is
 * read by just-bash as before.
 */
export async function declarationArray(ctx: ShellContext, word: Word, impl: ArrayWordImpl): Promise<string | null> {
  const parts = word.parts;
  const first = parts[0];
  const last = parts.at(-1);
  const head = first?.type === "Literal" ? /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)\(/.exec(first.value ?? "") : null;
  if (head === null || last?.type !== "Literal" || !(last.value ?? "").endsWith(")")) return impl.compound(ctx, word);
  const [prefix, name, operator] = head as unknown as [string, string, string];
  const words = arrayElements.get(word);
  if (words !== undefined) {
    // The parser's own element words: each expanded whole, as bash expands the words of `NAME=(…)`.
    const out: string[] = [];
    for (const element of words) {
      if (isKeyed(element.parts)) {
        // just-bash's own reading of `[KEY]=VALUE` (VALUE expanded, neither split nor globbed), written back with
        // VALUE quoted (just-bash writes it bare, so the builtin split a value with a blank).
        const text = await impl.compound(ctx, { type: "Word", parts: [{ type: "Literal", value: `${name}=(` }, ...element.parts, { type: "Literal", value: ")" }] });
        const keyed = text === null ? null : /^(\[.*?\]\+?=)(.*)$/s.exec(text.slice(name.length + 2, -1));
        if (keyed !== null) out.push(`${keyed[1]}${arrayElement(keyed[2] as string)}`);
        continue;
      }
      for (const value of (await impl.expand(ctx, element)).values) out.push(arrayElement(value));
    }
    return `${name}${operator}(${out.join(" ")})`;
  }
  // The elements: the parts between `(` and `)`, split where a literal part has white space.
  const inner: Part[] = parts.map((part, index) => {
    let value = part.value ?? "";
    if (part.type !== "Literal") return part;
    if (index === 0) value = value.slice(prefix.length);
    if (index === parts.length - 1) value = value.slice(0, -1);
    return { ...part, value };
  });
  const elements: Part[][] = [];
  let current: Part[] = [];
  for (const part of inner) {
    if (part.type !== "Literal") {
      current.push(part);
      continue;
    }
    const pieces = (part.value ?? "").split(/\s+/);
    pieces.forEach((piece, index) => {
      if (index > 0 && current.length > 0) {
        elements.push(current);
        current = [];
      }
      if (piece !== "") current.push({ ...part, value: piece });
    });
  }
  if (current.length > 0) elements.push(current);
  const out: string[] = [];
  for (const element of elements) {
    if (isKeyed(element)) {
      // just-bash's own reading of the one element (`[KEY]=VALUE`, VALUE neither split nor globbed).
      const text = await impl.compound(ctx, { type: "Word", parts: [{ type: "Literal", value: `${name}=(` }, ...element, { type: "Literal", value: ")" }] });
      if (text !== null) out.push(text.slice(name.length + 2, -1));
      continue;
    }
    // An unquoted literal element is read again as a word, for its braces, tilde and pattern parts.
    const plain = element.every((part) => part.type === "Literal" || part.type === "Glob");
    const elementWord: Word = plain ? impl.parseWord(element.map((part) => (part.type === "Glob" ? part.pattern : part.value)).join("")) : { type: "Word", parts: element };
    for (const value of (await impl.expand(ctx, elementWord)).values) out.push(arrayElement(value));
  }
  return `${name}${operator}(${out.join(" ")})`;
}

/** A declaration word's text `NAME=(…)` / `NAME+=(…)` as {@link declarationArray} writes it. */
const ARRAY_WORD = /^[A-Za-z_][A-Za-z0-9_]*\+?=\(.*\)$/s;

/**
 * The `export` builtin, where an operand `NAME=(…)` / `NAME+=(…)` makes an
 * exported array as bash 5.2 does (`declare -ax NAME=(…)`; just-bash's export
 * stored the text `(…)` as a string): each such operand goes to `declare`
 * with `-x` (and `-g`, unless NAME is a local of the function running, as
 * `export` sets the variable it sees), every other operand to `export`, in
 * order. `export -n` goes to `export` whole.
 */
export async function exportBuiltin(ctx: ShellContext, args: readonly string[], exportFn: (ctx: ShellContext, args: string[]) => ExecResult | Promise<ExecResult>, declareFn: (ctx: ShellContext, args: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  if (args.includes("-n") || !args.some((arg) => ARRAY_WORD.test(arg))) return exportFn(ctx, [...args]);
  const scopes = (ctx.state as unknown as { localScopes?: Map<string, unknown>[] }).localScopes ?? [];
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  for (const arg of args) {
    if (arg === "-p" || arg === "--") continue;
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(arg)?.[0] ?? "";
    const result = ARRAY_WORD.test(arg) ? await declareFn(ctx, [scopes.at(-1)?.has(name) === true ? "-x" : "-gx", "--", arg]) : await exportFn(ctx, [arg]);
    stdout += result.stdout;
    stderr += result.stderr.replace(/^bash: (?:declare|typeset): /gm, "bash: export: ");
    if (result.exitCode !== 0) exitCode = result.exitCode;
  }
  return { stdout, stderr, exitCode };
}

/**
 * The attribute letters `declare -p` writes after `a` or `A` for an array,
 * from just-bash's letters for a scalar (`-rx`, or `--` for none): bash 5.2
 * writes `declare -ax e=(…)`, `declare -ar r=(…)` (just-bash wrote `-a` alone).
 */
export function arrayAttributes(scalarFlags: string): string {
  return scalarFlags === "--" ? "" : scalarFlags.slice(1);
}
