/**
 * find's `-exec` as GNU findutils 4.9 runs it (issue 20, twenty-ninth attack run, fixer FX).
 *
 * just-bash replaced `{}` only where it was a whole argument (`-exec mv {} {}.bak \;` moved every file onto `./{}.bak`),
 * counted `-exec … \;` as always true and gave find the status of the last command that failed. GNU find replaces every
 * `{}` inside every argument of `-exec … \;`, takes the command's status as the test's value (true iff it exits 0;
 * find's own status stays 0), evaluates the expression in order with -a/-o/! short-circuiting (`-name x -exec …` runs
 * the command for matches only), and for `-exec … {} +` allows a lone `{}` as the last argument only, is always true
 * and makes find exit 1 when a batch fails. A `+` ends the command only after an argument holding `{}`.
 *
 * just-bash walks the tree first and runs the actions afterwards, in the walk's order (scripts/gen-shell.mjs, entries
 * marked `// FX`); an expression with an `-exec … \;` is evaluated per entry at that point by {@link evaluate}, so
 * each command runs, and each test sees its status, in GNU's order. `-prune` is decided while walking, so an
 * expression whose `-prune` is reached only after an `-exec … \;` test is refused ({@link refusal}) rather than
 * pruned on a guess.
 *
 * @module
 */

/** The part of just-bash's find expression tree this module reads. */
export type FindExpr =
  | { type: "and" | "or"; left: FindExpr; right: FindExpr }
  | { type: "not"; expr: FindExpr }
  | { type: "action"; action: { type: string; batchMode?: boolean } }
  | { type: string };

/** A parsed `-exec`: the command's words, whether `+` ended it, the index of its terminator; or GNU's message. */
export type ParsedExec = { command: string[]; batch: boolean; end: number; error?: undefined } | { error: string };

/**
 * The index of the `;` or `+` that ends an `-exec`/`-ok` whose command starts at `start` in `args` (`args.length` when
 * none does). As GNU: `+` ends it only right after an argument that holds `{}`; elsewhere it is a word of the command.
 */
export function execEnd(args: readonly string[], start: number): number {
  let end = start;
  for (; end < args.length; end++) {
    if (args[end] === ";") break;
    if (args[end] === "+" && end > start && args[end - 1]!.includes("{}")) break;
  }
  return end;
}

/** The `-exec` whose command starts at `start` in `args`, checked as GNU findutils 4.9 checks it. */
export function parseExec(args: readonly string[], start: number): ParsedExec {
  const end = execEnd(args, start);
  if (end >= args.length) return { error: "find: missing argument to `-exec'\n" };
  if (end === start) return { error: `find: invalid argument \`${args[end]}' to \`-exec'\n` };
  const command = args.slice(start, end);
  const batch = args[end] === "+";
  if (batch) {
    if (command.filter((word) => word.includes("{}")).length > 1) return { error: "find: Only one instance of {} is supported with -exec ... +\n" };
    const last = command.at(-1)!;
    if (last !== "{}") return { error: `find: In '-exec ... {} +' the '{}' must appear by itself, but you specified '${last}'\n` };
  }
  return { command, batch, end };
}

/** `-exec … \;` whose status is the test's value. */
function isExecTest(expr: FindExpr): boolean {
  return expr.type === "action" && "action" in expr && expr.action.type === "exec" && expr.action.batchMode !== true;
}

/** Whether `expr` holds an `-exec … \;` (its entries are then evaluated by {@link evaluate}). */
export function hasExecTest(expr: FindExpr | null): boolean {
  if (expr === null) return false;
  if (isExecTest(expr)) return true;
  if ("left" in expr) return hasExecTest(expr.left) || hasExecTest(expr.right);
  if ("expr" in expr) return hasExecTest(expr.expr);
  return false;
}

/**
 * GNU's words for an expression find cannot evaluate as GNU does: a `-prune` reached only after an `-exec … \;` test
 * (whether it prunes depends on the command's status, which is known only after the walk here); null otherwise.
 */
export function refusal(expr: FindExpr | null): string | null {
  if (expr === null) return null;
  // Walks `e` in evaluation order; `after` tells whether an -exec test may already have run.
  const pruneAfterExec = (e: FindExpr, after: boolean): boolean => {
    if (e.type === "prune") return after;
    if ("left" in e) return pruneAfterExec(e.left, after) || pruneAfterExec(e.right, after || hasExecTest(e.left));
    if ("expr" in e) return pruneAfterExec(e.expr, after);
    return false;
  };
  return pruneAfterExec(expr, false) ? "find: -prune after an -exec ... ; test is not supported by this shell\n" : null;
}

/** One entry's deferred evaluation, as the patched find queues it. */
export type Evaluation<Result> = {
  expr: FindExpr;
  /** Evaluates a test (not and/or/not/action) for this entry with just-bash's evaluator. */
  test: (expr: FindExpr) => { matches: boolean };
  path: string;
  printfData: unknown;
  /** The status of the last `-exec … \;` run (set by find's action runner). */
  fxStatus?: number;
  action?: unknown;
  __result?: Result;
};

/**
 * Evaluates `entry.expr` for one entry as GNU find does: in order, -a/-o/! short-circuiting, each action run when it
 * is reached through `run` (find's own action runner); `-exec … \;` is true iff its command exited 0, the other
 * actions are true. Returns what `run` returned to end find (an early result), or undefined.
 */
export async function evaluate<Result>(
  entry: Evaluation<Result>,
  run: (effect: { action: unknown; path: string; printfData: unknown; fxStatus?: number }) => Promise<Result | undefined>,
): Promise<Result | undefined> {
  let early: Result | undefined;
  const visit = async (e: FindExpr): Promise<boolean> => {
    if (early !== undefined) return false;
    if (e.type === "and" && "left" in e) return (await visit(e.left)) && (await visit(e.right));
    if (e.type === "or" && "left" in e) return (await visit(e.left)) || (await visit(e.right));
    if (e.type === "not" && "expr" in e) return !(await visit(e.expr));
    if (e.type === "action" && "action" in e) {
      const effect: { action: unknown; path: string; printfData: unknown; fxStatus?: number } = { action: e.action, path: entry.path, printfData: entry.printfData };
      const result = await run(effect);
      if (result !== undefined) {
        early = result;
        return false;
      }
      return isExecTest(e) ? effect.fxStatus === 0 : true;
    }
    return entry.test(e).matches;
  };
  await visit(entry.expr);
  return early;
}
