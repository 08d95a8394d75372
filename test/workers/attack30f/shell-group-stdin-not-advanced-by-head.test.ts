/**
 * Issue 20, thirtieth attack run: a command that stops early on a redirected file does not move the shared input
 * offset, so the next command in the group reads the file again from the start: `{ head -n1; sort; } < data` (keep
 * the header, sort the body) prints the header twice — once on its own and once sorted into the body — and
 * `{ grep -m1 pat; cat; } < f` repeats the lines before the match; `read` (a builtin) does advance it. bash 5.2 with
 * GNU head/grep leaves the offset just past what was processed, as POSIX requires of utilities reading a seekable
 * file (XCU 1.4, "INPUT FILES").
 * Tried: side by side with bash 5.2.15 + GNU coreutils 9.1 / grep 3.8 in a temp dir — `{ read -r h; sort; } < f`,
 * `{ head -n1; sort; } < f`, `{ head -c 6; cat; } < f`, `{ grep -m1 x; cat; } < f`, `exec 3< f; read <&3; cat <&3`,
 * `while read -r l; do head -n1 >/dev/null; done < f`, `(read a; read b; cat) < f`, `cat - -`.
 * Held: `read`, `read -d ''`, `IFS=: read`, `exec 3<` + `read <&3` + `cat <&3`, `(read; read; cat) < f`, here-strings
 * and here-documents to `while read`.
 * Found (medium — the usual "header, then the sorted rest" idiom silently duplicates the header into the data, and a
 * loop body that reads a line with head does not skip it; 2 of 2 runs).
 * Suggested fix: the shell's stdin for commands run from a group/loop with a redirected file (src/backends/worker-
 * shell, where the redirect's content is handed to each command): after an external command that reads stdin, advance
 * the shared offset by what it consumed — for head -n/-c and grep -m, the bytes up to and including the last line or
 * byte it used (as GNU's lseek back) — instead of giving every command the whole remaining input.
 * Fixed: a command that reads a group's or loop's redirected stdin now moves the shared offset past what it used —
 * all of it, or head -n/-c's output, grep -m's lines up to the last selected one, sed q/Q's lines, mapfile -n's lines
 * (the command runner notes the stdin it read and executeSimpleCommand advances state.groupStdin and its `<&N`
 * descriptor; from a pipe, head/grep/sed take it all) — src/backends/worker-shell/isolate/shared-stdin.ts, SP_PATCHES in
 * scripts/gen-shell.mjs, grep-gnu.ts (`consumed`). Siblings in test/workers/fix30/shell-shared-stdin-offset.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("head -n1 / head -c / grep -m1 in a group leave the rest of a redirected file to the next command", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/data.csv", "name,n\ncarol,3\nalice,1\nbob,2\n");
    const r = await sh(
      ws,
      "{ head -n1; sort; } < data.csv; echo --; { head -c 5; echo; cat; } < data.csv; echo --; { grep -m1 alice; cat; } < data.csv",
      { cwd: "/workspace" },
    );
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "name,n\nalice,1\nbob,2\ncarol,3\nname,n\n--\nname,\nname,n\ncarol,3\nalice,1\nbob,2\n--\nalice,1\nname,n\ncarol,3\nalice,1\nbob,2\n", ""]
  expect(out).toEqual([
    0,
    "name,n\nalice,1\nbob,2\ncarol,3\n--\nname,\nn\ncarol,3\nalice,1\nbob,2\n--\nalice,1\nbob,2\n",
    "",
  ]);
});
