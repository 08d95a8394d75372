/**
 * Output and in-place edits of the shell's text commands as GNU coreutils
 * 9.1 and sed 4.9 produce them (issue 20, twenty-second attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__textOutput`.
 *
 * @module
 */

export {};
