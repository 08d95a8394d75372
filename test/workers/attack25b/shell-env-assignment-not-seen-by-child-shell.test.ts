/**
 * Issue 20, twenty-fifth attack run: `env NAME=value COMMAND` does not give NAME to a child shell unless NAME was
 * already exported: `env FOO=bar sh -c 'echo "[$FOO]"'` prints `[]` (GNU env + bash 5.2: `[bar]`), also `bash
 * script.sh`, `env FOO=bar xargs sh -c …`, `timeout 5 env FOO=bar sh -c …` and `env FOO=bar timeout 5 sh -c …`;
 * `export G=1; env G=2 sh -c 'echo $G'` does print 2, and `env FOO=bar printenv FOO` prints bar, so the assignment
 * reaches builtin commands but a new shell builds its variables from the caller's exports alone. `env -i sh -c` still
 * sees HOME (and `env -i printenv` lists PWD). The common `env VAR=x bash -c '…'` / `env VAR=x sh script` way to pass
 * settings to a script silently passes nothing.
 * Tried: env NAME=v with printenv, env, sh -c, bash -c, bash FILE, xargs, timeout; `NAME=v sh -c` (works); env -i;
 * env -u.
 * Held: `NAME=v sh -c`, `env NAME=v printenv/env`, `env -u NAME printenv NAME`.
 * Found (medium — silent missing configuration; 2 of 2 runs).
 * Suggested fix: have env run its command with the assignments applied as the environment the child shell imports
 * (as a `NAME=v cmd` prefix assignment does), and `-i` start it from an empty environment.
 * Fixed (fixer SY): a command another command runs (env, timeout, xargs, sh -c, bash FILE, find -exec) now starts
 * with exactly the caller's exported variables as its environment, all of them exported again (isolate/mode-expr.ts
 * childExec/startEnv/childExports, patched into just-bash's command context and exec): env's NAME=VALUE reach a
 * child shell through any number of commands, `env -i` starts empty (no HOME), `env -u NAME` removes NAME, an
 * exported variable reaches `timeout 5 sh -c`/`xargs sh -c`, an unset one stays unset in a child shell, and
 * env/printenv list only exported variables. Siblings: test/workers/fix25/shell-mode-expr-env.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("env NAME=value passes NAME to a child shell, as GNU env", async () => {
  const out = await shellCases({ files: { "s.sh": 'echo "[$FOO]"\n' } }, [
    "env FOO=bar sh -c 'echo \"[$FOO]\"'",
    "env FOO=bar bash s.sh",
    "FOO=1; env FOO=2 sh -c 'echo \"[$FOO]\"'",
    "env FOO=bar timeout 5 sh -c 'echo \"[$FOO]\"'",
  ]);
  expect(out).toEqual([
    // Was: "[]\n".
    ["env FOO=bar sh -c 'echo \"[$FOO]\"'", "[bar]\n", ""],
    ["env FOO=bar bash s.sh", "[bar]\n", ""],
    ["FOO=1; env FOO=2 sh -c 'echo \"[$FOO]\"'", "[2]\n", ""],
    ["env FOO=bar timeout 5 sh -c 'echo \"[$FOO]\"'", "[bar]\n", ""],
  ]);
});
