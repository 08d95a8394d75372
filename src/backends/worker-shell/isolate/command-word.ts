/**
 * CW (issue 20, run 30): the command word of a simple command, as bash 5.2 reads it.
 *
 * bash expands the command word like every other word of the command — brace, tilde, parameter, command and
 * arithmetic expansion, then field splitting on IFS (unquoted parts only) and pathname expansion — and the first
 * resulting field is the command, the others its leading arguments: `cmd="ls -1"; $cmd src` runs `ls -1 src`,
 * `"$@"` and `"${cmd[@]}"` keep one field per element. When the words expand to no field at all (`$EMPTY`, `"$@"`
 * with no parameters) there is no command: the redirections are made, the assignments stay in the shell, and the
 * status is that of the last command substitution performed, else 0.
 *
 * just-bash expanded the command word to one string without splitting (scripts/gen-shell.mjs, CW_PATCHES, makes
 * it use the interpreter's own split-and-glob expansion of arguments and these helpers).
 */

/** The result of the interpreter's split-and-glob expansion of one word. */
export interface ExpandedWord {
  values: string[];
  quoted: boolean;
}

/** The command name a command word's expansion gives: its first field, "" when it gave none. */
export function commandName(word: ExpandedWord): string {
  return word.values.length > 0 ? word.values[0] : "";
}

/** The fields after the first, the command's leading arguments. */
export function leadingArguments(word: ExpandedWord): string[] {
  return word.values.slice(1);
}

/** Whether the command word expanded to no field (then the first argument field, if any, is the command). */
export function noField(word: ExpandedWord): boolean {
  return word.values.length === 0;
}

/**
 * The status of a simple command that has no command after expansion — its command word expanded to no field, or it
 * has none (assignments and redirections only: `x=1`, `rc=$?`, `x=$(false) >f`; issue 20, run 38, fixer SE): the
 * status of the last command substitution its words (for a command of assignments only, its assignments) performed
 * (each one takes a new virtual pid), else 0 — not the previous command's status (bash 5.2, execute_null_command).
 */
export function noCommandStatus(state: { nextVirtualPid: number; lastExitCode: number }, pidBefore: number): number {
  return state.nextVirtualPid !== pidBefore ? state.lastExitCode : 0;
}
