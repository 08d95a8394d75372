/**
 * Issue 20, run 27, fixer SJ: siblings of the attack27b findings on case modification of lists, `${#@}`, `@A`/`@Q`,
 * `declare -f`/`type` and `local -` (src/backends/worker-shell/isolate/expand-decl.ts, `// SJ` in
 * scripts/gen-shell.mjs). Expected outputs are GNU bash 5.2.15's.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("case modification of a list changes each element and keeps the words, as bash", async () => {
  const out = await shellCases({}, [
    "a=(apple banana); printf '<%s>' \"${a[@]^^}\" \"${a[*]^^}\" \"x${a[@]^^}y\" ${a[@]^}; echo",
    "IFS=:; a=(ab cd); x=\"${a[*]^}\"; echo \"$x\"; set -- q r; echo \"${*^}\"",
    "b=(); printf '<%s>' \"${b[@]^}\"; echo \"[${b[*]^}]\"",
  ]);
  expect(out).toEqual([
    ["a=(apple banana); printf '<%s>' \"${a[@]^^}\" \"${a[*]^^}\" \"x${a[@]^^}y\" ${a[@]^}; echo", "<APPLE><BANANA><APPLE BANANA><xAPPLE><BANANAy><Apple><Banana>\n", ""],
    ["IFS=:; a=(ab cd); x=\"${a[*]^}\"; echo \"$x\"; set -- q r; echo \"${*^}\"", "Ab:Cd\nQ:R\n", ""],
    ["b=(); printf '<%s>' \"${b[@]^}\"; echo \"[${b[*]^}]\"", "<>[]\n", ""],
  ]);
});

it("@A and @Q as bash", async () => {
  const out = await shellCases({}, [
    "v=\"a'b\"; echo \"${v@Q}\" \"${v@A}\"; w=$'x\\ty'; echo \"${w@Q}\"",
    "a=(1 \"x y\"); echo \"${a@A}|${a[1]@A}\"; printf '<%s>' \"${a[@]@A}\" \"${a[*]@A}\"; echo",
    "set -- a 'b c'; echo \"${@@A}\"; declare -ir q=4; echo \"${q@A}\"; unset u; echo \"[${u@A}]\"",
  ]);
  expect(out).toEqual([
    ["v=\"a'b\"; echo \"${v@Q}\" \"${v@A}\"; w=$'x\\ty'; echo \"${w@Q}\"", "'a'\\''b' v='a'\\''b'\n$'x\\ty'\n", ""],
    ["a=(1 \"x y\"); echo \"${a@A}|${a[1]@A}\"; printf '<%s>' \"${a[@]@A}\" \"${a[*]@A}\"; echo", "declare -a a='1'|declare -a a='x y'\n<declare><-a><a=([0]=\"1\" [1]=\"x y\")><declare -a a=([0]=\"1\" [1]=\"x y\")>\n", ""],
    ["set -- a 'b c'; echo \"${@@A}\"; declare -ir q=4; echo \"${q@A}\"; unset u; echo \"[${u@A}]\"", "set -- 'a' 'b c'\ndeclare -ir q='4'\n[]\n", ""],
  ]);
});

it("declare -f, type and local - as bash", async () => {
  const out = await shellCases({}, [
    "f(){ echo a; }; g(){ echo b; }; declare -f g nope f; echo \"rc=$?\"",
    "f(){ if true; then echo y; fi; }; type f | head -1; eval \"$(type f | sed '1d;s/^f /h /')\"; h",
    "f(){ local x=1; local -; set -u; echo \"in:$-\"; }; f; echo \"out:$-\"",
  ]);
  expect(out).toEqual([
    ["f(){ echo a; }; g(){ echo b; }; declare -f g nope f; echo \"rc=$?\"", "g () \n{ \n    echo b\n}\nf () \n{ \n    echo a\n}\nrc=1\n", ""],
    ["f(){ if true; then echo y; fi; }; type f | head -1; eval \"$(type f | sed '1d;s/^f /h /')\"; h", "f is a function\ny\n", ""],
    ["f(){ local x=1; local -; set -u; echo \"in:$-\"; }; f; echo \"out:$-\"", "in:huBs\nout:hBs\n", ""],
  ]);
});

it("writing to a closed stdout (`>&-`) fails with Bad file descriptor, as bash", async () => {
  const out = await shellCases({}, [
    'echo x >&-; echo "s=$?"; true >&-; echo "t=$?"',
    "printf 'q\\n' 1>&- 2>/dev/null; echo $?",
  ]);
  expect(out).toEqual([
    // Was: "s=0\nt=0\n", nothing on stderr. (bash adds `line 1: ` after `bash: `.)
    ['echo x >&-; echo "s=$?"; true >&-; echo "t=$?"', "s=1\nt=0\n", "bash: echo: write error: Bad file descriptor\n"],
    ["printf 'q\\n' 1>&- 2>/dev/null; echo $?", "1\n", ""],
  ]);
});
