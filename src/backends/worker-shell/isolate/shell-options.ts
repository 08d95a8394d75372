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
 * Sets `state` up as a new shell running a script file (`./script`): its
 * `set -o` and `shopt` options as bash 5.2 starts them, with SHELLOPTS and
 * BASHOPTS to match. (just-bash runs such a script in a copy of the caller's
 * state, which it restores after.)
 */
export function newShell(state: ShellState): void {
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

/** Whether element `parts` is `[KEY]=VALUE` (or `+=`), as just-bash tells a keyed element of `arr=(…)`. */
function isKeyed(parts: readonly Part[]): boolean {
  const [first, second, third] = parts;
  if (first?.type !== "Glob" || !first.pattern?.startsWith("[") || second === undefined) return false;
  if (first.pattern === "[" && (second.type === "DoubleQuoted" || second.type === "SingleQuoted")) {
    return third?.type === "Literal" && (third.value?.startsWith("]=") === true || third.value?.startsWith("]+=") === true);
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
