/**
 * Issue 20, twenty-ninth run, fixer AX: a command substitution inside shell arithmetic runs in the running shell
 * (its variables, functions, arrays and working directory; `$?` set; stderr passed on) and is parsed by the full
 * substitution parser, in every arithmetic context — `$(( ))`, `(( ))`, `$[ ]`, `for (( ))`, `${s:…}` offsets, array
 * subscripts — and `$(( ))`, `(( ))` and `for (( ))` substitute before they evaluate. Expected outputs are bash
 * 5.2.15's (run side by side in a temp dir holding the same files).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, resetTree, sh, shellCases } from "../shell/helpers.js";

const TREE = { files: { "my f": "a\nb\n", f: "x\ny\nz\n" } };

it("$( ) and backquotes inside $(( )) see the shell's variables, functions and cwd", async () => {
  const out = await shellCases(TREE, [
    "g=f; echo $(( $(wc -l < $g) + 1 ))",
    "x=5; echo $(( $(echo $x) + 1 ))",
    "x=5; echo $(( $(echo \"$x\") + 1 ))",
    "x=5; echo $(( $(echo \"${x}\") + 1 ))",
    "x=5; echo $(( `echo \"$x\"` + 1 ))",
    "x=5; echo $(( $(echo \"$x\" | tr 5 6) + 1 ))",
    "x=4; echo $(( $(echo $((x+1))) * 2 ))",
    "fn() { echo 7; }; echo $(( $(fn) + 1 ))",
    "mkdir -p d/e d/f; cd d; echo $(( $(ls | wc -l) + 1 ))",
    "x=5; echo $(( $(x=7; echo $x) + x ))",
    "x=1; y=$(( $(echo \"$x\") ? 10 : 20 )); echo $y",
    "x=5; echo $(( $(echo $'7') + 1 ))",
    "x=5; echo $(( $(echo \"a)b\" | wc -c) ))",
    "echo $(( $(cat <<EOF\n4\nEOF\n) + 1 ))",
  ]);
  expect(out).toEqual([
    // Was: "1\n", "bash: : No such file or directory\n" (a new shell without the script's variables).
    ["g=f; echo $(( $(wc -l < $g) + 1 ))", "4\n", ""],
    // Was: "1\n".
    ["x=5; echo $(( $(echo $x) + 1 ))", "6\n", ""],
    ["x=5; echo $(( $(echo \"$x\") + 1 ))", "6\n", ""],
    ["x=5; echo $(( $(echo \"${x}\") + 1 ))", "6\n", ""],
    ["x=5; echo $(( `echo \"$x\"` + 1 ))", "6\n", ""],
    ["x=5; echo $(( $(echo \"$x\" | tr 5 6) + 1 ))", "7\n", ""],
    // Was: "2\n".
    ["x=4; echo $(( $(echo $((x+1))) * 2 ))", "10\n", ""],
    // Was: "1\n", "bash: fn: command not found\n".
    ["fn() { echo 7; }; echo $(( $(fn) + 1 ))", "8\n", ""],
    ["mkdir -p d/e d/f; cd d; echo $(( $(ls | wc -l) + 1 ))", "3\n", ""],
    ["x=5; echo $(( $(x=7; echo $x) + x ))", "12\n", ""],
    // Was: "20\n".
    ["x=1; y=$(( $(echo \"$x\") ? 10 : 20 )); echo $y", "10\n", ""],
    ["x=5; echo $(( $(echo $'7') + 1 ))", "8\n", ""],
    // Was: a syntax error at `)b"` (the body's end found by counting parentheses).
    ["x=5; echo $(( $(echo \"a)b\" | wc -c) ))", "4\n", ""],
    ["echo $(( $(cat <<EOF\n4\nEOF\n) + 1 ))", "5\n", ""],
  ]);
});

it("a substitution inside $(( )) sets $? and passes its stderr on, in order", async () => {
  const out = await shellCases(TREE, [
    "echo $(( $(false) + 1 )) $?",
    "x=5; echo $(( $(exit 3) + 1 )); echo $?",
    "x=5; echo $(( x + $(echo \"$x\" >&2; echo 1) ))",
    "i=0; echo $(( i++ + $(echo $i) ))",
  ]);
  expect(out).toEqual([
    // Was: "1 0\n".
    ["echo $(( $(false) + 1 )) $?", "1 1\n", ""],
    ["x=5; echo $(( $(exit 3) + 1 )); echo $?", "1\n0\n", ""],
    // Was: stderr "\n".
    ["x=5; echo $(( x + $(echo \"$x\" >&2; echo 1) ))", "6\n", "5\n"],
    ["i=0; echo $(( i++ + $(echo $i) ))", "0\n", ""],
  ]);
});

it("$(( )), (( )), $[ ], for (( )), offsets and subscripts substitute the text before evaluating it", async () => {
  const out = await shellCases(TREE, [
    "echo $(( $(echo 1 + 2) * 3 ))",
    "echo $(( `echo 1 + 2` * 3 ))",
    "echo $(( $(printf '%s+' 3 1 2) 0 ))",
    "echo $(( $(echo 3) $(echo + 4) ))",
    "echo $(( 1 + $(echo 3)$(echo 4) ))",
    "x34=9; echo $(( 1 + x$(echo 34) ))",
    "echo $(( $(echo) + 1 ))",
    "(( y = $(echo 1 + 2) * 3 )); echo $y",
    "y=$[ $(echo 1 + 2) * 3 ]; echo $y",
    "for (( i = $(echo 1 + 1) * 2; i < 6; i++ )); do echo $i; done",
    "s=abcdefgh; echo ${s:$(echo 1 + 2) * 1:2}",
    "a=(p q r s t u v w); echo ${a[$(echo 1 + 2) * 2]}",
  ]);
  expect(out).toEqual([
    ["echo $(( $(echo 1 + 2) * 3 ))", "7\n", ""],
    ["echo $(( `echo 1 + 2` * 3 ))", "7\n", ""],
    ["echo $(( $(printf '%s+' 3 1 2) 0 ))", "6\n", ""],
    ["echo $(( $(echo 3) $(echo + 4) ))", "7\n", ""],
    ["echo $(( 1 + $(echo 3)$(echo 4) ))", "35\n", ""],
    ["x34=9; echo $(( 1 + x$(echo 34) ))", "10\n", ""],
    ["echo $(( $(echo) + 1 ))", "1\n", ""],
    ["(( y = $(echo 1 + 2) * 3 )); echo $y", "7\n", ""],
    ["y=$[ $(echo 1 + 2) * 3 ]; echo $y", "7\n", ""],
    ["for (( i = $(echo 1 + 1) * 2; i < 6; i++ )); do echo $i; done", "3\n4\n5\n", ""],
    ["s=abcdefgh; echo ${s:$(echo 1 + 2) * 1:2}", "de\n", ""],
    ["a=(p q r s t u v w); echo ${a[$(echo 1 + 2) * 2]}", "u\n", ""],
  ]);
});

it("the other arithmetic contexts run a quoted variable's substitution in the shell", async () => {
  const out = await shellCases(TREE, [
    "(( $(echo 0) )); echo $?",
    "x=5; (( y = $(echo \"$x\") * 2 )); echo $y",
    "f='my f'; (( $(wc -l < \"$f\") == 2 )) && echo two",
    "x=5; echo $[ $(echo \"$x\") + 1 ]",
    "x=2; for (( i=$(echo \"$x\"); i<4; i++ )); do echo $i; done",
    "f='my f'; for (( i = 0; i < $(wc -l < \"$f\"); i++ )); do echo \"$i\"; done",
    "s=abcdef; n=2; echo ${s:$(echo \"$n\"):1}",
    "x=2; a[$(echo \"$x\")]=z; declare -p a",
    "x=5; let \"y = $(echo \"$x\") * 2\"; echo $y",
    "x=5; declare -i y=$(echo \"$x\")*2; echo $y",
  ]);
  expect(out).toEqual([
    ["(( $(echo 0) )); echo $?", "1\n", ""],
    // Was: "0\n".
    ["x=5; (( y = $(echo \"$x\") * 2 )); echo $y", "10\n", ""],
    ["f='my f'; (( $(wc -l < \"$f\") == 2 )) && echo two", "two\n", ""],
    // Was: "1\n".
    ["x=5; echo $[ $(echo \"$x\") + 1 ]", "6\n", ""],
    // Was: "0\n1\n2\n3\n".
    ["x=2; for (( i=$(echo \"$x\"); i<4; i++ )); do echo $i; done", "2\n3\n", ""],
    ["f='my f'; for (( i = 0; i < $(wc -l < \"$f\"); i++ )); do echo \"$i\"; done", "0\n1\n", ""],
    // Was: "a\n".
    ["s=abcdef; n=2; echo ${s:$(echo \"$n\"):1}", "c\n", ""],
    // Was: declare -a a=([0]="z").
    ["x=2; a[$(echo \"$x\")]=z; declare -p a", "declare -a a=([2]=\"z\")\n", ""],
    ["x=5; let \"y = $(echo \"$x\") * 2\"; echo $y", "10\n", ""],
    ["x=5; declare -i y=$(echo \"$x\")*2; echo $y", "10\n", ""],
  ]);
});

it("a count computed in $(( )) is the one written to storage", async () => {
  await inShellWorkspace(async (ws) => {
    await resetTree(ws, TREE);
    const r = await sh(ws, "f='my f'; n=$(( $(wc -l < \"$f\") * 2 )); echo $n > out; cat out", { cwd: "/workspace" });
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(["4\n", "", 0]);
    expect(await ws.fs.readFile("/workspace/out", "utf8")).toBe("4\n");
  });
});
