/**
 * Issue 20, thirty-fourth attack run: the shell's `grep` (and `egrep`/`fgrep`) expands a file operand containing
 * `*`, `?` or `[` as a glob a second time, after the shell has already expanded (or the script has quoted) it. A
 * quoted `grep -rn hi 'app/[id]'` — the dynamic-route directories of every Next.js / SvelteKit project — reads
 * `[id]` as a bracket class matching `i` or `d`, finds nothing and exits 1 with no output, and with a sibling file
 * `f1.txt` beside `f[1].txt`, `grep h 'f[1].txt'` searches the WRONG file (prints f1.txt's `ho`). GNU grep 3.8 takes
 * an operand as a path: `app/[id]/page.tsx:hi`, `hi`, status 0.
 * Tried: grep, grep -r, grep -rl with a trailing slash, an escaped `app/\[id\]/`, `grep -c hi` over a glob of app's pages, grep -r
 * of the parent, cat/head/sed/awk/wc/sort of the same operands; differential: bash 5.2.15 + GNU grep on this machine.
 * Held: the shell's own pathname expansion (`app/*`, app's pages one level down), `grep -r hi app` (the parent), and cat, head,
 * sed, awk, wc and sort of `'f[1].txt'` read the right file.
 * Found (medium — an agent greps a route directory, is told "no match" (status 1) and acts on it, or reads another
 * file's lines as the named file's; 2 of 2 runs): see the `Was:` lines.
 * Suggested fix: just-bash's grep (node_modules/just-bash chunk with `name:"grep"`: `s.includes("*")||s.includes("?")||
 * s.includes("[")` → its own glob) — patch it out in scripts/gen-shell.mjs (or wrap grep in src/backends/worker-shell/
 * isolate/grep-gnu.ts) so an operand is always a literal path; the shell already expanded it. `rg` has the same branch.
 *
 * Fixed: scripts/gen-shell.mjs GO_PATCHES ("grep operands taken literally") turns off the glob branch of just-bash's
 * grep, so every operand of grep/egrep/fgrep is a path (issue 20, run 34, fixer GO). Siblings:
 * test/workers/fix34/shell-literal-operands.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("grep takes a quoted operand with brackets as a path, as GNU grep", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/app/[id]", { recursive: true });
    await ws.fs.mkdir("/workspace/app/i", { recursive: true });
    await ws.fs.writeFile("/workspace/app/[id]/page.tsx", "hi\n");
    await ws.fs.writeFile("/workspace/app/i/page.tsx", "no\n");
    await ws.fs.writeFile("/workspace/f[1].txt", "hi\n");
    await ws.fs.writeFile("/workspace/f1.txt", "ho\n");
    const r = await sh(
      ws,
      "grep -rn h 'app/[id]'; echo rc=$?; grep -rl hi app/\\[id\\]/; echo rc=$?; grep h 'f[1].txt'; echo rc=$?",
      { cwd: "/workspace" },
    );
    return [r.stdout, r.stderr];
  });
  // Was: ["rc=1\nrc=1\nho\nrc=0\n", ""]
  expect(out).toEqual(["app/[id]/page.tsx:1:hi\nrc=0\napp/[id]/page.tsx\nrc=0\nhi\nrc=0\n", ""]);
}, 60000);
