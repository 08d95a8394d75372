/**
 * Issue 20, twenty-seventh attack run: a descriptor duplicated from stdout or stderr (`exec 3>&1`, `exec 3>&2`,
 * `{ …; } 3>&1`) is not a copy of where stdout pointed then: it follows whatever stdout/stderr is at the time of the
 * write. So the standard idioms `exec 3>&1; r=$(f)` with `f` logging to `>&3`, `err=$({ cmd; } 2>&1 1>&3)` and
 * `{ echo progress >&3; …; } > file` put the "terminal" output into the captured variable or the file instead —
 * silently, exit 0.
 * Tried: side by side with GNU bash 5.2.15 — `exec 3>&1` then `>&3` inside `$( … )` (a function, a group, a
 * subshell), inside a group / function / subshell / loop redirected to a file, in a pipeline element; `exec 3>&2`
 * then a group with `2>file`; `{ …; } 3>&1 > file`; `exec 3>f` (a file) inside `$( … )`; `exec 4>&2; $(echo >&4)`.
 * Held: `exec 3>f` then `>&3` inside `$( … )` writes the file; `exec 4>&2; x=$(echo e >&4)`; a simple command
 * `echo x >&3 > file`; `exec 3>&1 1>out; … exec 1>&3` restores stdout; `exec 3>&-` then `>&3` is Bad file
 * descriptor; `{fd}>file`, `4<>f`, `exec 3<<<…`.
 * Found (medium — output meant for the caller lands in a captured variable or a file, exit 0; 2 of 2 runs).
 * Suggested fix: in just-bash's fd table (interpreter/fd-table, patched by scripts/gen-shell.mjs) a `dup-out`
 * entry stores `sourceFd` and is resolved when written; resolve it when the duplicate is made instead — store what
 * fd 1/2 designates at that moment (the run's stdout/stderr sink, a file, a pipe) so a later `> file` or `$( … )`
 * around the writer does not change it, as dup2() does.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it.fails("a descriptor duplicated from stdout/stderr keeps the target it had when duplicated, as bash", async () => {
  const out = await shellCases({}, [
    'exec 3>&1; f() { echo log >&3; echo ret; }; r=$(f); echo "r=[$r]"',
    'exec 3>&1; out=$( { echo o; echo e >&2; } 2>&1 1>&3 3>&- ); echo "[$out]"',
    'exec 3>&1; { echo x >&3; echo y; } > file; echo "file=[$(cat file)]"',
    'exec 3>&1; ( echo x >&3 ) > file; echo "file=[$(cat file)]"',
    'exec 3>&2; { echo x >&3; } 2>file; echo "file=[$(cat file)]"',
    '{ echo x >&3; } 3>&1 > file; echo "file=[$(cat file)]"',
    "exec 3>&1; echo x >&3 | tr x X",
  ]);
  expect(out).toEqual([
    // Was: "r=[log\nret]\n".
    ['exec 3>&1; f() { echo log >&3; echo ret; }; r=$(f); echo "r=[$r]"', "log\nr=[ret]\n", ""],
    // Was: "[o\ne]\n".
    ['exec 3>&1; out=$( { echo o; echo e >&2; } 2>&1 1>&3 3>&- ); echo "[$out]"', "o\n[e]\n", ""],
    // Was: "file=[x\ny]\n".
    ['exec 3>&1; { echo x >&3; echo y; } > file; echo "file=[$(cat file)]"', "x\nfile=[y]\n", ""],
    // Was: "file=[x]\n".
    ['exec 3>&1; ( echo x >&3 ) > file; echo "file=[$(cat file)]"', "x\nfile=[]\n", ""],
    // Was: "file=[x]\n" and nothing on stderr.
    ['exec 3>&2; { echo x >&3; } 2>file; echo "file=[$(cat file)]"', "file=[]\n", "x\n"],
    // Was: "file=[x]\n".
    ['{ echo x >&3; } 3>&1 > file; echo "file=[$(cat file)]"', "x\nfile=[]\n", ""],
    // Was: "X\n".
    ["exec 3>&1; echo x >&3 | tr x X", "x\n", ""],
  ]);
});
