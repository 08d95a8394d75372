/**
 * Issue 20, twenty-second attack run: `grep -r PATTERN` with no file operand — the everyday `grep -rn TODO` — reads
 * standard input (empty under the exec tool) and answers "no match", exit 1, where GNU grep searches the working
 * directory; and `grep -r PATTERN missing-dir` says nothing and exits 1 (GNU: `grep: missing-dir: No such file or
 * directory`, exit 2). An agent is told, silently and wrongly, that nothing matches.
 * Tried: in /workspace with d/f.txt and d/e/g.md holding "hi", side by side with GNU grep 3.8: `grep -r hi`,
 * `grep -rn hi`, `grep -rl hi`, `grep -R hi`, `cd d; grep -rc hi`, `echo hi | grep -r hi` (GNU ignores stdin with
 * -r and no operand), `grep -r hi - < d/f.txt` (held), `grep -r hi nope`, `grep -rq hi nope d`, `grep hi nope`.
 * Held: an explicit `-` operand, `grep hi nope` (message and 2), grep -r with operands (modulo the known `./`
 * prefix and directory order).
 * Found (medium — a wrong "no match" on the most common recursive search; 2 of 2 runs): `grep -rn hi` → no output,
 * $? 1 (GNU `d/f.txt:1:hi` and `d/e/g.md:1:hi`, 0); `echo hi | grep -r hi` → `hi` (GNU searches .); `grep -r hi
 * nope` → no output, $? 1 (GNU message, 2).
 * Suggested fix: in the grep shadow (src/backends/worker-shell/walks.ts), when -r/-R is given and no file operand,
 * append `.` and print names without the `./` prefix (GNU's behaviour for the implicit operand); report a missing
 * operand with GNU's message and exit 2 (unless -s).
 * Fixed: scripts/gen-shell.mjs patches just-bash's grep (SOURCE_PATCHES "grep -r operands", "grep -r hidden
 * names", "grep -r start point unreadable"): with -r/-R and no file operand it searches `.` whatever stdin holds,
 * naming files without a `./`; an explicit `.` names them `./d/f.txt` as GNU; hidden names (`.env`, `.github/`) are
 * searched like any other (just-bash skipped them); a start point that cannot be read is reported with GNU's message
 * and status 2. du's names under `.` got the same `./` (`du -a` → `./d/f.txt`). Siblings:
 * test/workers/fix22/shell-grep-r-gnu.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("grep -r without a file operand searches the working directory; a missing operand is exit 2, as GNU grep", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/e", { recursive: true });
    await ws.fs.writeFile("/workspace/d/f.txt", "hi\n");
    await ws.fs.writeFile("/workspace/d/e/g.md", "hi\n");
    const results = [];
    for (const command of ["grep -rn hi | sort; echo rc=${PIPESTATUS[0]}", "echo hi | grep -rl hi | sort", "grep -r hi nope; echo rc=$?"]) {
      const r = await sh(ws, command, { cwd: "/workspace" });
      results.push({ stdout: r.stdout, stderr: r.stderr });
    }
    return results;
  });
  expect(out).toEqual([
    { stdout: "d/e/g.md:1:hi\nd/f.txt:1:hi\nrc=0\n", stderr: "" },
    { stdout: "d/e/g.md\nd/f.txt\n", stderr: "" },
    { stdout: "rc=2\n", stderr: "grep: nope: No such file or directory\n" },
  ]);
});
