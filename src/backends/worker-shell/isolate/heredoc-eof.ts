/**
 * A here-document whose end line never comes runs to the end of the script, as bash 5.2.15 (issue 20, run 40, fixer
 * f40sh): the worker runs a script as the group {@link GROUP_START} + SCRIPT + {@link GROUP_END} (so just-bash hands back the output
 * made before an abort); just-bash's lexer, patched, stops an open here-document where the caller's script ends
 * rather than reading the group's closing `}` into it, and the script's stderr ends with bash's warning
 * `bash: line N: warning: here-document at line M delimited by end-of-file (wanted `EOF')`.
 *
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the namespace `__heredocEof`. This module is
 * bundled into the shell Worker and imports nothing of just-bash.
 *
 * @module
 */

/** What the worker puts before a caller's script: the group's `{` and BASH_VERSINFO, as bash 5.2 sets it (readonly). */
export const GROUP_START = "{ declare -ar BASH_VERSINFO=(5 1 0 1 release x86_64-pc-linux-gnu); ";

/** What the worker puts after a caller's script: two newlines (closing a trailing comment or `\`), the group's `}`. */
export const GROUP_END = "\n\n}";

/** Where an open here-document in `input` ends: the end of the caller's script when `input` is the worker's group. */
export function limit(input: string): number {
  return input.startsWith(GROUP_START) && input.endsWith(GROUP_END) ? input.length - GROUP_END.length : input.length;
}

/** The warnings of the here-documents the parse running now found open at the end. */
let warnings: string[] = [];

/**
 * Notes a here-document (its text from line `firstLine`, end word `delimiter`) that `input` ended before its end
 * line; the line bash names as where it met the end is the script's last line.
 */
export function unterminated(input: string, firstLine: number, delimiter: string): void {
  const text = input.slice(0, limit(input)).replace(/\n$/, "");
  let last = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) last++;
  const start = Math.max(1, firstLine - 1);
  warnings.push(`bash: line ${Math.max(last, start)}: warning: here-document at line ${start} delimited by end-of-file (wanted \`${delimiter}')\n`);
}

/** Runs parse `run`, returning its AST with the warnings it gave (as `heredocWarnings`, when any). */
export function parsed<T>(run: () => T): T {
  const saved = warnings;
  warnings = [];
  try {
    const ast = run();
    if (warnings.length > 0 && typeof ast === "object" && ast !== null) (ast as { heredocWarnings?: string }).heredocWarnings = warnings.join("");
    return ast;
  } finally {
    warnings = saved;
  }
}

/** `result` (of running `ast`) with the here-document warnings of `ast`'s parse after its stderr. */
export function withWarnings<R extends { stderr: string }>(ast: unknown, result: R): R {
  const text = (ast as { heredocWarnings?: string } | null)?.heredocWarnings;
  return text === undefined ? result : { ...result, stderr: result.stderr + text };
}
