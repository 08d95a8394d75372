/**
 * Path handling and error reasons of the shell's commands as GNU coreutils
 * 9.1 and bash 5.2 give them (issue 20, twenty-second attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__pathErrors`.
 *
 * @module
 */

export {};
