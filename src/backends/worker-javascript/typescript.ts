/**
 * TypeScript Workspace modules of the JavaScript backend (spec 02 §3.3, used
 * by TOOL.md tool directories, spec 03 §9): a Workspace file ending `.ts`,
 * `.mts` or `.cts` (not `.d.ts`) has its types stripped with
 * [sucrase](https://github.com/alangpierce/sucrase) (`transforms:
 * ["typescript"]`, ES syntax left as it is) before the graph scans it; and an
 * import of `./x.js` (`./x.mjs`, `./x.cjs`) that does not exist finds
 * `./x.ts` (`.mts`, `.cts`), as Node ESM TypeScript writes imports.
 *
 * sucrase is loaded on first use, so runs without TypeScript never evaluate it.
 *
 * @module
 */
import { pathCut } from "../../util/cut.js";

/** `true` for a path the graph strips types from: `.ts`, `.mts`, `.cts`, but not a `.d.ts` declaration file. */
export function isTypeScriptPath(path: string): boolean {
  return /\.(?:ts|mts|cts)$/.test(path) && !/\.d\.(?:ts|mts|cts)$/.test(path);
}

/** The TypeScript twin of a `.js`/`.mjs`/`.cjs` path (`a/b.js` → `a/b.ts`); `undefined` for other paths. */
export function typeScriptTwin(path: string): string | undefined {
  const m = /\.(js|mjs|cjs)$/.exec(path);
  if (!m) return undefined;
  return path.slice(0, -m[1]!.length) + { js: "ts", mjs: "mts", cjs: "cts" }[m[1] as "js" | "mjs" | "cjs"];
}

/**
 * Most characters sucrase may parse again after backtracking while stripping
 * the TypeScript modules of one run: {@link STRIP_BACKTRACK_FACTOR} × the
 * total length of the modules stripped + one {@link STRIP_BACKTRACK_BASE},
 * a single budget shared by the run's whole module graph (see
 * {@link StripBudget}; for a run with one TypeScript module, 16 × its length
 * + 262,144). Its TypeScript parser tries type arguments at each `<` and
 * arrow parameters at each `(`, scanning ahead and going back on failure; on
 * `x = a < a < … < b` that is quadratic (1,000 `<` in 4 KB cost seconds, all
 * synchronous in the Durable Object before the run exists — issue 20,
 * thirteenth attack run; a budget per module let 80 modules each just under
 * it hold the object ~30 s — fifteenth attack run). Ordinary modules stay
 * far below (this library's own sources: 0.1–12 × their length).
 */
export const STRIP_BACKTRACK_FACTOR = 16;
/** See {@link STRIP_BACKTRACK_FACTOR}: 256 KiB characters, once per run (not per module), so small runs are never refused. */
export const STRIP_BACKTRACK_BASE = 256 * 1024;

/**
 * The type-stripping budget of one run's module graph (create it with
 * {@link stripBudget}, pass it to every {@link stripTypes} call of the run):
 * starts at {@link STRIP_BACKTRACK_BASE} characters, each module stripped adds
 * {@link STRIP_BACKTRACK_FACTOR} × its length, and its backtracking spends it.
 */
export interface StripBudget {
  /** Characters of backtracking still allowed (never below 0). */
  left: number;
  /** TypeScript modules stripped with this budget so far (successfully). */
  modules: number;
}

/** A fresh {@link StripBudget} for one run: {@link STRIP_BACKTRACK_BASE} characters, no module stripped yet. */
export function stripBudget(): StripBudget {
  return { left: STRIP_BACKTRACK_BASE, modules: 0 };
}

/** Thrown from inside sucrase when the budget is spent (caught by {@link stripTypes}). */
class BacktrackBudget extends Error {}

/** The current strip's budget (characters left, copied from and back to its {@link StripBudget}); stripping is synchronous, so one counter serves every call. */
let budget = Number.POSITIVE_INFINITY;

interface SucraseState {
  prototype: { pos: number; error: { pos?: unknown } | null; restoreFromSnapshot(snapshot: { pos: number }): void };
}

/** Counts, in sucrase's tokenizer state, how far each backtrack goes back (both builds: Node loads the CommonJS one, bundlers the ES one). */
function meter(module: unknown): void {
  const exported = (module as { default?: unknown } | null)?.default;
  const State = ((exported as { default?: unknown } | undefined)?.default ?? exported) as SucraseState | undefined;
  const proto = State?.prototype;
  if (!proto || typeof proto.restoreFromSnapshot !== "function" || (proto.restoreFromSnapshot as { metered?: boolean }).metered) return;
  const restore = proto.restoreFromSnapshot;
  const metered = function (this: { pos: number; error: { pos?: unknown } | null }, snapshot: { pos: number }) {
    // How far the abandoned try read: where it failed (sucrase's unexpected() moves pos to the end of
    // the input and keeps the failing token's start in error.pos), else where it stopped.
    const reached = this.error !== null && typeof this.error.pos === "number" ? this.error.pos : this.pos;
    budget -= Math.max(0, reached - snapshot.pos);
    if (budget < 0) throw new BacktrackBudget();
    return restore.call(this, snapshot);
  };
  (metered as { metered?: boolean }).metered = true;
  proto.restoreFromSnapshot = metered;
}

let sucrase: Promise<typeof import("sucrase")> | undefined;

async function loadSucrase(): Promise<typeof import("sucrase")> {
  const [mod, esm, cjs] = await Promise.all([
    import("sucrase"),
    // @ts-expect-error -- a file of sucrase's ES build (no types): its tokenizer state, to meter backtracking.
    import("sucrase/dist/esm/parser/tokenizer/state.js").catch(() => undefined),
    // @ts-expect-error -- the same file of its CommonJS build (what Node's import("sucrase") loads).
    import("sucrase/dist/parser/tokenizer/state.js").catch(() => undefined),
  ]);
  meter(esm);
  meter(cjs);
  return mod;
}

/**
 * Strips the types of TypeScript module `source` (read from `path`), keeping
 * its ES module syntax, imports that are only used as types removed.
 *
 * @param run - the run's shared budget ({@link stripBudget}); without it, a budget of this module alone.
 * @throws SyntaxError `<path>: <sucrase's message>` (the path cut past 64 characters, `pathCut`) for source sucrase cannot parse; SyntaxError
 *   `<path>: too costly to strip types from …` past the run's backtracking budget ({@link STRIP_BACKTRACK_FACTOR}).
 */
export async function stripTypes(source: string, path: string, run: StripBudget = stripBudget()): Promise<string> {
  sucrase ??= loadSucrase();
  const { transform } = await sucrase;
  run.left += STRIP_BACKTRACK_FACTOR * source.length;
  budget = run.left;
  try {
    const code = transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: path }).code;
    run.modules++;
    return code;
  } catch (err) {
    if (err instanceof BacktrackBudget) {
      if (run.modules === 0) {
        throw new SyntaxError(
          `${pathCut(path)}: too costly to strip types from: the TypeScript parser went back over more than ${STRIP_BACKTRACK_FACTOR} × the module's length + ${STRIP_BACKTRACK_BASE} characters ` +
            "(long chains of `<` comparisons or deeply nested parentheses make it retry); split such expressions, or write the module as .js",
        );
      }
      throw new SyntaxError(
        `${pathCut(path)}: too costly to strip types from: the TypeScript parser went back over more than ${STRIP_BACKTRACK_FACTOR} × the length of this module and the ` +
          `${run.modules} TypeScript module${run.modules === 1 ? "" : "s"} stripped before it in this run + ${STRIP_BACKTRACK_BASE} characters ` +
          "(one budget for the run's whole module graph; long chains of `<` comparisons or deeply nested parentheses make it retry); " +
          "split such expressions, import fewer such modules in one run, or write them as .js",
      );
    }
    const message = err instanceof Error ? err.message : String(err);
    throw new SyntaxError(`${pathCut(path)}: ${message}`);
  } finally {
    run.left = Math.max(0, budget);
    budget = Number.POSITIVE_INFINITY;
  }
}
