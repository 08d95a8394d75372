/**
 * A readonly variable as bash 5.2.15 keeps it (issue 20, run 39, fixer ST): every way a script assigns a variable
 * refuses a readonly one with `bash: NAME: readonly variable` on stderr, and — as bash — the refusal fails only that
 * command (status 1) where just-bash either assigned the variable anyway (arithmetic, `for`) or ended the whole script
 * (`local`, `declare`, `typeset`, `export`, `readonly`, `read`, `mapfile`, whose readonly check threw just-bash's
 * ExitError).
 *
 * - `declare`/`typeset`/`local`/`export`/`readonly`: an operand assigning a readonly NAME (`R=5`, `R+=x`, `R[1]=x`),
 *   a `local R` (or a `declare R` in a function, which makes a local) and `declare +r R` are refused and left out;
 *   the others run (`declare x=1 R=2 y=3` sets x and y, status 1). `declare`, `typeset` and `local` name themselves
 *   in the message (`bash: local: R: readonly variable`), `export` and `readonly` do not. A compound assignment
 *   (`declare -a R=(x)`) is left to just-bash, which ends the script, as bash does.
 * - `read`: the line is read (the input is consumed), the names before the first readonly one are assigned, that one
 *   and the rest are not, status 1 (`read -a R` alike).
 * - `mapfile`/`readarray`: refused before reading (the input stays), status 1.
 * - `for R in WORDS`: no iteration, status 1 (an empty word list assigns nothing and is not refused).
 * - arithmetic (`(( R = 2 ))`, `(( R++ ))`, `let R=3`, `for ((R=0; …))`, `$(( R += 1 ))`): just-bash's arithmetic
 *   error, so `(( ))`/`let` fail with status 1 and `$(( ))` ends the command as bash.
 *
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the namespace `__readonlyVars`. This module is
 * bundled into the shell Worker and imports nothing of just-bash.
 *
 * @module
 */

interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  internalOutputAccounting?: { stdout: number; stderr: number };
  [key: string]: unknown;
}

/** The part of just-bash's interpreter context these read. */
interface VarsContext {
  state: {
    env: Map<string, string>;
    readonlyVars?: Set<string>;
    callDepth?: number;
    arrays?: Map<string, unknown>;
    associativeArrays?: Set<string>;
  };
}

/** Whether `name` is readonly in `ctx`'s shell. */
export function isReadonly(ctx: VarsContext, name: string): boolean {
  return ctx.state.readonlyVars?.has(name) ?? false;
}

function refusal(name: string, builtin?: string): string {
  return `bash: ${builtin === undefined ? "" : `${builtin}: `}${name}: readonly variable\n`;
}

const encoder = new TextEncoder();

/** `result` with `stderr` put before its stderr and status 1 unless it failed already. */
function withRefusals(result: ExecResult, stderr: string): ExecResult {
  const accounting = result.internalOutputAccounting;
  return {
    ...result,
    stderr: stderr + result.stderr,
    exitCode: result.exitCode === 0 ? 1 : result.exitCode,
    ...(accounting ? { internalOutputAccounting: { stdout: accounting.stdout, stderr: accounting.stderr + encoder.encode(stderr).length } } : {}),
  };
}

/** An operand `NAME`, `NAME=VALUE`, `NAME+=VALUE`, `NAME[SUB]=VALUE`: its name, whether it assigns, whether compound. */
const OPERAND = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^]*?\])?(\+?=([^]*))?$/;

/**
 * `declare`/`typeset`/`local`/`export`/`readonly` with `args` (just-bash's builtin is `run`): the operands bash
 * refuses for a readonly variable are left out with bash's message and the command's status is 1; the rest run.
 */
export async function declarationGuard(ctx: VarsContext, builtin: string, args: readonly string[], run: (args: string[]) => ExecResult | Promise<ExecResult>): Promise<ExecResult> {
  const readonly = ctx.state.readonlyVars;
  const inFunction = (ctx.state.callDepth ?? 0) > 0;
  if (readonly === undefined || readonly.size === 0 || (builtin === "local" && !inFunction)) return run([...args]);
  const minus = new Set<string>();
  const plus = new Set<string>();
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (!/^[-+]./.test(arg)) break;
    for (const c of arg.slice(1)) (arg[0] === "-" ? minus : plus).add(c);
  }
  if (minus.has("p") || minus.has("f") || minus.has("F")) return run([...args]);
  const declares = builtin === "declare" || builtin === "typeset" || builtin === "local";
  const makesLocal = builtin === "local" || (declares && inFunction && !minus.has("g"));
  const kept = args.slice(0, i);
  let stderr = "";
  let operands = 0;
  for (const arg of args.slice(i)) {
    const m = OPERAND.exec(arg);
    const name = m?.[1];
    const assigns = m?.[3] !== undefined;
    const compound = assigns && m?.[2] === undefined && (m?.[4] ?? "").startsWith("(");
    if (name !== undefined && readonly.has(name) && !compound && (assigns || (declares && (makesLocal || plus.has("r"))))) {
      stderr += refusal(name, declares ? builtin : undefined);
      continue;
    }
    kept.push(arg);
    operands++;
  }
  if (stderr === "") return run([...args]);
  if (operands === 0) return { stdout: "", stderr, exitCode: 1 };
  return withRefusals(await run(kept), stderr);
}

/** read's options that take a value (the rest of the cluster, or the next argument; `-i` always the next). */
const READ_VALUED = new Set("adinNptu");

/**
 * `read` with `args` (just-bash's builtin is `run`): as bash, the line is read, the names before the first readonly
 * one are assigned and that one and the rest are not (they are read into temporary names, dropped after), with
 * bash's message and status 1; `read -a R` alike.
 */
export async function readGuard(ctx: VarsContext, args: readonly string[], run: (args: string[]) => ExecResult | Promise<ExecResult>): Promise<ExecResult> {
  const readonly = ctx.state.readonlyVars;
  if (readonly === undefined || readonly.size === 0) return run([...args]);
  const out = [...args];
  const temps: string[] = [];
  const temp = (): string => {
    const name = `__read_readonly_${temps.length}`;
    temps.push(name);
    return name;
  };
  let refused: string | undefined;
  let array = false;
  let i = 0;
  for (; i < out.length; i++) {
    const arg = out[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (!arg.startsWith("-") || arg.length === 1) break;
    for (let k = 1; k < arg.length; k++) {
      const c = arg[k] as string;
      if (!READ_VALUED.has(c)) continue;
      const inCluster = c !== "i" && k + 1 < arg.length;
      if (c === "a") {
        array = true;
        const name = inCluster ? arg.slice(k + 1) : out[i + 1];
        if (name !== undefined && readonly.has(name) && refused === undefined) {
          refused = name;
          if (inCluster) out[i] = arg.slice(0, k + 1) + temp();
          else out[i + 1] = temp();
        }
      }
      if (!inCluster) i++;
      break;
    }
  }
  if (!array) {
    for (let k = i; k < out.length; k++) {
      const name = out[k] as string;
      if (refused === undefined && readonly.has(name)) refused = name;
      if (refused !== undefined) out[k] = temp();
    }
  }
  if (refused === undefined) return run(out);
  try {
    return withRefusals(await run(out), refusal(refused));
  } finally {
    for (const name of temps) {
      ctx.state.env.delete(name);
      ctx.state.arrays?.delete(name);
      ctx.state.associativeArrays?.delete(name);
    }
  }
}

/** mapfile's options that take a value. */
const MAPFILE_VALUED = new Set("dnOsuCc");

/** `mapfile`/`readarray` with `args`: a readonly array name is refused before anything is read (status 1), as bash. */
export function mapfileRefusal(ctx: VarsContext, args: readonly string[]): ExecResult | undefined {
  const readonly = ctx.state.readonlyVars;
  if (readonly === undefined || readonly.size === 0) return undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (!arg.startsWith("-") || arg.length === 1) break;
    for (let k = 1; k < arg.length; k++) {
      if (!MAPFILE_VALUED.has(arg[k] as string)) continue;
      if (k + 1 === arg.length) i++;
      break;
    }
  }
  const name = args[i] ?? "MAPFILE";
  return readonly.has(name) ? { stdout: "", stderr: refusal(name), exitCode: 1 } : undefined;
}

/** `for NAME in WORDS` about to assign `count` words: bash refuses a readonly NAME (no iteration, status 1). */
export function forRefusal(ctx: VarsContext, name: string, count: number): ExecResult | undefined {
  return count > 0 && isReadonly(ctx, name) ? { stdout: "", stderr: refusal(name), exitCode: 1 } : undefined;
}

/** The arithmetic nodes that assign a named variable (the rest are left alone). */
interface ArithNode {
  type: string;
  variable?: string;
  operator?: string;
  operand?: { type: string; name?: string; array?: string };
}

/**
 * Before just-bash's arithmetic evaluator runs `node`: an assignment (`R = 2`, `R += 1`, `a[0] = 5`) or `++`/`--`
 * of a readonly variable throws just-bash's arithmetic error (`arithmeticError`) `R: readonly variable`.
 */
export function arithReadonly(ctx: VarsContext, node: ArithNode, arithmeticError: new (message: string) => Error): void {
  let name: string | undefined;
  if (node.type === "ArithAssignment") name = node.variable;
  else if (node.type === "ArithUnary" && (node.operator === "++" || node.operator === "--")) {
    const operand = node.operand;
    name = operand?.type === "ArithVariable" ? operand.name : operand?.type === "ArithArrayElement" ? operand.array : undefined;
  }
  if (name !== undefined && isReadonly(ctx, name)) throw new arithmeticError(`${name}: readonly variable`);
}
