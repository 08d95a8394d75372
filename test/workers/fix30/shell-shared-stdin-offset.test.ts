/**
 * Issue 20, run 30, fixer SP: a group's or loop's redirected stdin is one input offset its commands share, as bash
 * 5.2.15 with GNU coreutils 9.1 / grep / sed 4.9 on a regular file (each expectation below is theirs, run in a temp
 * dir): a command that reads it consumes it — all of it, or, for one that stops early, what it used (head -n/-c, also
 * "all but" counts, grep -m up to the last selected line, sed q/Q, mapfile -n). From a pipe, head/grep/sed take all
 * of it (they read a block and cannot seek back) while read and mapfile take their lines. A command with file
 * operands (base64, paste) leaves the shared stdin alone.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const F = "name,n\ncarol,3\nalice,1\nbob,2\n";
const G = "a\nb\nc\nd\n";

async function run(cases: readonly string[]): Promise<[string, number, string, string][]> {
  return inShellWorkspace(async (ws) => {
    const out: [string, number, string, string][] = [];
    for (const c of cases) {
      await ws.fs.rm("/workspace", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f", F);
      await ws.fs.writeFile("/workspace/g", G);
      const r = await sh(ws, c, { cwd: "/workspace" });
      out.push([c, r.exitCode, r.stdout, r.stderr]);
    }
    return out;
  });
}

it("commands that stop early leave the rest of a redirected file to the next command", async () => {
  const cases: [string, string][] = [
    ["{ read h; head -n2; cat; } < f", "carol,3\nalice,1\nbob,2\n"],
    ["{ head -c 3; echo; cat; } < g", "a\nb\n\nc\nd\n"],
    ["{ head -n -1; cat; } < f", F],
    ["{ head -c -3; echo; cat; } < f", "name,n\ncarol,3\nalice,1\nbob\n,2\n"],
    ["{ head -n 0; cat; } < g", G],
    ["{ head -n1 >/dev/null; head -n1; } < g", "b\n"],
    ["{ head -n1 | cat; cat; } < g", G],
    ["{ grep -m1 x; cat; } < g", ""],
    ["{ grep -m1 b; cat; } < g", "b\nc\nd\n"],
    ["{ grep -m2 ''; cat; } < g", G],
    ["{ grep -m1 -v a; cat; } < g", "b\nc\nd\n"],
    ["{ grep -m1 -o b; cat; } < g", "b\nc\nd\n"],
    ["{ grep -c -m1 ,; cat; } < f", "1\ncarol,3\nalice,1\nbob,2\n"],
    ["{ grep -m1 -A1 carol; echo --; cat; } < f", "carol,3\nalice,1\n--\nalice,1\nbob,2\n"],
    ["{ grep -q carol; cat; } < f", ""],
    ["{ sed 1q; cat; } < f", F],
    ["{ sed 2q; echo --; cat; } < f", "name,n\ncarol,3\n--\nalice,1\nbob,2\n"],
    ["{ sed -n '2{p;q}'; cat; } < g", "b\nc\nd\n"],
    ["{ sed -n q; cat; } < g", "b\nc\nd\n"],
    ["{ sed 2Q; cat; } < g", "a\nc\nd\n"],
    ["{ sed -n 1p; cat; } < f", "name,n\n"],
    ["{ cat; cat; } < f", F],
    ["{ wc -l; cat; } < f", "4\n"],
    ["{ tail -n1; cat; } < f", "bob,2\n"],
    ["(head -n1; cat) < g", G],
    ["f() { head -n1; }; { f; cat; } < g", G],
    ["while read -r l; do echo \"[$l]\"; head -n1 >/dev/null; done < g", "[a]\n[c]\n"],
    ["while read -r l; do echo \"[$l]\"; grep -m1 .; done < g", "[a]\nb\n[c]\nd\n"],
    ["while read -r l; do echo \"[$l]\"; sed -n 1p; done < g", "[a]\nb\n"],
    ["for i in 1 2; do head -n1; done < g", "a\nb\n"],
    ["until ! read -r l; do echo \"<$l>\"; head -c 2; echo; done < g", "<a>\nb\n\n<c>\nd\n\n"],
    ["exec 3< g; head -n1 <&3; cat <&3", G],
    ["exec 3< g; read <&3; head -n1 <&3; cat <&3", "b\nc\nd\n"],
    ["{ head -n1; cat; } 3< g <&3", G],
  ];
  const out = await run(cases.map(([c]) => c));
  expect(out).toEqual(cases.map(([c, stdout]) => [c, 0, stdout, ""]));
});

it("mapfile -n takes its lines only, from a file or a pipe; option words as bash's getopt", async () => {
  const cases: [string, string][] = [
    ["{ mapfile -t -n 2 -s 1 x; echo \"${x[*]}\"; cat; } < g", "b c\nd\n"],
    ["{ readarray -n 1 x; echo \"${x[*]}\"; cat; } < g", "a\n\nb\nc\nd\n"],
    ["{ mapfile -t x; echo \"${x[*]}\"; cat; } < g", "a b c d\n"],
    ["{ mapfile -n1 -t x; echo \"${x[*]}\"; cat; } < g", "a\nb\nc\nd\n"],
    ["{ mapfile -tn2 x; echo \"${x[*]}\"; cat; } < g", "a b\nc\nd\n"],
    ["{ mapfile -t -d, -n1 x; echo \"${x[*]}\"; cat; } < f", "name\nn\ncarol,3\nalice,1\nbob,2\n"],
    ["exec 3< g; mapfile -n1 -t x <&3; echo \"${x[*]}\"; cat <&3", "a\nb\nc\nd\n"],
    ["printf 'a\\nb\\n' | { mapfile -n1 -t x; echo \"${x[*]}\"; cat; }", "a\nb\n"],
    ["printf 'a\\nb\\nc\\n' | { read x; cat; }", "b\nc\n"],
  ];
  const out = await run(cases.map(([c]) => c));
  expect(out).toEqual(cases.map(([c, stdout]) => [c, 0, stdout, ""]));
});

it("from a pipe, head/grep/sed take all of a group's stdin; file operands leave it alone", async () => {
  const cases: [string, string][] = [
    ["printf 'a\\nb\\n' | { head -n1; cat; }", "a\n"],
    ["printf 'a\\nb\\n' | { grep -m1 a; cat; }", "a\n"],
    ["printf 'a\\nb\\n' | { sed 1q; cat; }", "a\n"],
    ["printf 'a\\nb\\n' | (head -n1; cat)", "a\n"],
    ["printf 'a\\nb\\nc\\n' | while read -r l; do echo \"[$l]\"; head -n1; done", "[a]\nb\n"],
    ["{ base64 f; cat; } < g", "bmFtZSxuCmNhcm9sLDMKYWxpY2UsMQpib2IsMgo=\n" + G],
    ["{ paste f; cat; } < g", F + G],
    ["{ head -n1 f; cat; } < g", "name,n\n" + G],
    ["{ grep x f; cat; } < g", G],
    ["{ sort f; cat; } < g", "alice,1\nbob,2\ncarol,3\nname,n\n" + G],
    ["{ sed -n 1p f; cat; } < g", "name,n\n" + G],
    ["{ echo hi | cat; cat; } < g", "hi\n" + G],
  ];
  const out = await run(cases.map(([c]) => c));
  expect(out).toEqual(cases.map(([c, stdout]) => [c, 0, stdout, ""]));
});
