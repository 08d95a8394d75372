/**
 * Issue 20, thirty-fourth attack run: the shell's `ls` expands an operand containing `*`, `?` or `[` as a glob a
 * second time, after the shell has already expanded (or the script has quoted) it. `ls 'app/[id]'` — a dynamic-route
 * directory of every Next.js / SvelteKit project — reads `[id]` as a class matching `i` or `d` and answers
 * `ls: app/[id]: No such file or directory`, status 2, for a directory that exists; `ls -l 'x[1]'` (a file
 * beside `x1`) is the same `No such file or directory`. GNU ls 9.1 takes an operand as a path: `page.tsx`, status 0, and
 * `-rw-r--r-- … x[1]`.
 * Tried: ls, ls -l, ls -d, ls -R, a trailing slash and backslash escapes of bracketed names; du -a, stat, wc, head,
 * tree, find, chmod -R, rm -r, cp -r, mv and tar of the same operand; differential: bash 5.2.15 + GNU ls on this
 * machine.
 * Held: `ls -ld 'app/[id]'` (one operand with -d), stat, du, tree, find, cp, mv, rm, chmod and the shell's own
 * pathname expansion take the bracketed name as a path.
 * Found (medium — an agent that lists a route directory before editing is told it does not exist (and may recreate it or
 * give up on it); 2 of 2 runs): see the `Was:` lines.
 * Suggested fix: just-bash's ls (node_modules/just-bash chunk with `name:"ls"`: `$.includes("*")||$.includes("?")||
 * $.includes("[")` → its own glob) — patch that branch out in scripts/gen-shell.mjs so an operand is always a
 * literal path (the shell already expanded it), as the grep sibling grep-operand-with-brackets-reglobbed.test.ts.
 *
 * Fixed: scripts/gen-shell.mjs GO_PATCHES ("ls operands taken literally") turns off the glob branch of just-bash's
 * ls, so every operand is a path (issue 20, run 34, fixer GO). Siblings: test/workers/fix34/shell-literal-operands.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("ls takes a quoted operand with brackets as a path, as GNU ls", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/app/[id]", { recursive: true });
    await ws.fs.writeFile("/workspace/app/[id]/page.tsx", "hi\n");
    await ws.fs.writeFile("/workspace/x[1]", "");
    await ws.fs.writeFile("/workspace/x1", "");
    const r = await sh(ws, "ls 'app/[id]'; echo rc=$?; ls -l 'x[1]' | awk '{print $1, $NF}'; ls 'app/[id]/' x\\[1\\]; echo rc=$?", {
      cwd: "/workspace",
    });
    return [r.stdout, r.stderr];
  });
  // Was: ["rc=2\nrc=2\n", "ls: app/[id]: No such file or directory\nls: x[1]: No such file or directory\nls: x[1]: No such file or directory\nls: app/[id]/: No such file or directory\n"]
  expect(out).toEqual(["page.tsx\nrc=0\n-rw-r--r-- x[1]\nx[1]\n\napp/[id]/:\npage.tsx\nrc=0\n", ""]);
}, 60000);
