/**
 * Tree walks that stop at links: just-bash's own `grep`/`egrep`/`fgrep`
 * (recursive) and `tar` (create) run with the shell's filesystem adapter in
 * a {@link WalkMode}, as GNU grep and tar walk a tree (issue 20, a link to
 * `.` or `..` made them walk forever):
 *
 * - `grep -r` follows no link met while walking (links named on the
 *   command line are followed);
 * - `grep -R` follows links but lists each directory once;
 * - `tar -c` stores a link as a link (unless `-h`/`--dereference`).
 *
 * Each is a just-bash custom command of the same name that runs the bundled
 * command (`ctx.origCommand`) inside {@link WorkspaceFsAdapter.walking}.
 * This module is bundled into the shell Worker (no runtime imports of just-bash).
 *
 * @module
 */
import type { WalkMode, WorkspaceFsAdapter } from "./fs-adapter.js";

/** What just-bash hands a custom command that shadows a bundled one (the parts used here). */
interface ShadowingContext {
  origCommand?: (args: string[]) => Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

/** Short options of grep that take the next argument (its value is not read as options). */
const GREP_VALUE_OPTIONS = new Set(["e", "f", "m", "A", "B", "C", "d", "D"]);

/** The walk `grep args` needs: `"once"` with -R, `"skip-links"` with -r, none otherwise. */
export function grepWalk(args: readonly string[]): WalkMode | undefined {
  let mode: WalkMode | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    if (arg === "--dereference-recursive") return "once";
    if (arg === "--recursive" || arg === "--directories=recurse") mode ??= "skip-links";
    else if (/^-[^-]/.test(arg)) {
      for (let k = 1; k < arg.length; k++) {
        const c = arg[k]!;
        if (c === "R") return "once";
        if (c === "r") mode ??= "skip-links";
        if (GREP_VALUE_OPTIONS.has(c)) {
          if (k === arg.length - 1) i++; // the value is the next argument
          break;
        }
      }
    }
  }
  return mode;
}

/** The walk `tar args` needs: `"links-as-links"` when it creates an archive without -h, none otherwise. */
export function tarWalk(args: readonly string[]): WalkMode | undefined {
  let create = false;
  let dereference = false;
  for (const [i, arg] of args.entries()) {
    if (arg === "--") break;
    if (arg === "--create") create = true;
    else if (arg === "--dereference") dereference = true;
    else if (/^-[^-]/.test(arg) || (i === 0 && /^[A-Za-z]+$/.test(arg))) {
      // "-cf" or the old style "cf" as the first argument
      const letters = arg.replace(/^-/, "");
      if (letters.includes("c")) create = true;
      if (letters.includes("h")) dereference = true;
    }
  }
  return create && !dereference ? "links-as-links" : undefined;
}

/**
 * Custom commands `grep`, `egrep`, `fgrep` and `tar` (those of `available`
 * only) that run just-bash's own command with `fs` walking as GNU does.
 */
export function walkingCommands(fs: WorkspaceFsAdapter, available: readonly string[]): { name: string; execute(args: string[], ctx: ShadowingContext): Promise<unknown> }[] {
  const shadow = (name: string, walk: (args: readonly string[]) => WalkMode | undefined) => ({
    name,
    async execute(args: string[], ctx: ShadowingContext): Promise<unknown> {
      const original = ctx.origCommand;
      if (original === undefined) return { stdout: "", stderr: `${name}: the bundled command is not available\n`, exitCode: 127 };
      const mode = walk(args);
      return mode === undefined ? original(args) : fs.walking(mode, () => original(args));
    },
  });
  const out = [];
  for (const name of ["grep", "egrep", "fgrep"]) if (available.includes(name)) out.push(shadow(name, grepWalk));
  if (available.includes("tar")) out.push(shadow("tar", tarWalk));
  return out;
}
