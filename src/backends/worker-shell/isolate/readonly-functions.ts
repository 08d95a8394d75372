/**
 * `readonly -f` as bash 5.2.15 (issue 20, run 40, fixer f40sh), where just-bash took `-f` for nothing and left the
 * function as it was: `readonly -f NAME…` makes each function readonly (`bash: readonly: NAME: not a function`, status 1,
 * for one that is not; bash's messages carry `line N`), a readonly function is neither redefined (`bash: line N: NAME: readonly function`, status 1)
 * nor unset by `unset -f` (`bash: unset: NAME: cannot unset: readonly function`, status 1), and `readonly -f` alone
 * (or `-fp`) prints each readonly function's definition followed by `declare -fr NAME`.
 *
 * The mark is kept on the function's definition object, which a subshell's copy of the function table shares.
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the namespace `__readonlyFunctions`. This module
 * is bundled into the shell Worker and imports nothing of just-bash.
 *
 * @module
 */
import { functionText } from "./expand-decl.js";

interface Result {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Ctx {
  state: { functions: Map<string, object>; currentLine?: number };
}

function isReadonly(fn: object | undefined): boolean {
  return (fn as { readonlyFunction?: boolean } | undefined)?.readonlyFunction === true;
}

/** `readonly ARGS` when ARGS has `-f` among its options: the result; null for any other `readonly` (just-bash's own). */
export function builtin(ctx: Ctx, args: string[]): Result | null {
  let functions = false;
  const names: string[] = [];
  let operands = false;
  for (const arg of args) {
    if (!operands && arg === "--") operands = true;
    else if (!operands && /^-[a-zA-Z]+$/.test(arg)) functions ||= arg.includes("f");
    else {
      operands = true;
      names.push(arg);
    }
  }
  if (!functions) return null;
  if (names.length === 0) {
    let stdout = "";
    for (const name of [...ctx.state.functions.keys()].sort()) {
      const fn = ctx.state.functions.get(name);
      if (isReadonly(fn)) stdout += `${functionText(name, fn as never)}declare -fr ${name}\n`;
    }
    return { stdout, stderr: "", exitCode: 0 };
  }
  let stderr = "";
  for (const name of names) {
    const fn = ctx.state.functions.get(name);
    if (fn === undefined) stderr += `bash: line ${ctx.state.currentLine ?? 1}: readonly: ${name}: not a function\n`;
    else (fn as { readonlyFunction?: boolean }).readonlyFunction = true;
  }
  return { stdout: "", stderr, exitCode: stderr === "" ? 0 : 1 };
}

/** Defining function `name`: the refusal when the function there is readonly, else null. */
export function redefinition(ctx: Ctx, name: string): Result | null {
  if (!isReadonly(ctx.state.functions.get(name))) return null;
  return { stdout: "", stderr: `bash: line ${ctx.state.currentLine ?? 1}: ${name}: readonly function\n`, exitCode: 1 };
}

/** `unset -f name`: the error text when function `name` is readonly (not unset), else null. */
export function unsetRefusal(ctx: Ctx, name: string): string | null {
  return isReadonly(ctx.state.functions.get(name)) ? `bash: line ${ctx.state.currentLine ?? 1}: unset: ${name}: cannot unset: readonly function\n` : null;
}
