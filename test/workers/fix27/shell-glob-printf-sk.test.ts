/**
 * Issue 20, twenty-seventh run, fixer SK: siblings of the attack27b findings on globstar, nocaseglob, printf's
 * floating-point conversions, the directory stack and echo's option words (isolate/glob-printf.ts and
 * scripts/gen-shell.mjs `// SK`). Every expectation is GNU bash 5.2.15's output for the same command in the same tree
 * (LC_ALL=C.UTF-8, HOME elsewhere), with this shell's `bash:` prefix (no `line 1:`) and printf's `printf:` one.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("globstar: final **, trailing /, links listed but not crossed, hidden names only with dotglob, as bash", async () => {
  const out = await shellCases({"dirs": ["a/b/c", "h/.hid", "l/m"], "files": {"a/x.t": "", "a/b/y.t": "", "a/b/c/z.t": "", "top.t": "", "h/.hid/q.t": "", "h/v.t": "", "l/m/k": ""}, "links": {"l/la": "../a", "la": "a"}}, [
    "shopt -s globstar; echo **",
    "shopt -s globstar; echo **/",
    "shopt -s globstar; echo */**",
    "shopt -s globstar; echo */**/",
    "shopt -s globstar; echo */**/*.t",
    "shopt -s globstar; echo la/**; echo l/**",
    "shopt -s globstar; echo ./**/k; echo a/./**",
    "shopt -s globstar; echo a/**/c/**; echo **/c; echo a/**/b; echo a/**/*/",
    "shopt -s globstar; echo **/.hid; echo h/**/.*; echo h/.*/**",
    "shopt -s globstar dotglob; echo h/**; echo h/**/",
    "shopt -s globstar; echo nope/** top.t/** a/**/nope",
    "shopt -s globstar nullglob; echo nope/** x",
    "shopt -s globstar failglob; echo nope/**; echo st=$?",
    "shopt -s globstar; echo /workspace/a/**",
    "shopt -s globstar; echo \"a\"/**/\"x.t\" a/**/x.\\t",
    "shopt -s globstar; echo a** a/**x",
    "echo a/**/*.t; echo h/.*/v.t",
  ]);
  expect(out).toEqual([
      ["shopt -s globstar; echo **", "a a/b a/b/c a/b/c/z.t a/b/y.t a/x.t h h/v.t l l/la l/m l/m/k la top.t\n", ""],
      ["shopt -s globstar; echo **/", "a/ a/b/ a/b/c/ h/ l/ l/la/ l/m/ la/\n", ""],
      ["shopt -s globstar; echo */**", "a a/b a/b/c a/b/c/z.t a/b/y.t a/x.t h h/v.t l l/la l/m l/m/k la la/b la/b/c la/b/c/z.t la/b/y.t la/x.t\n", ""],
      ["shopt -s globstar; echo */**/", "a/ a/b/ a/b/c/ h/ l/ l/la/ l/m/ la/ la/b/ la/b/c/\n", ""],
      ["shopt -s globstar; echo */**/*.t", "a/b/c/z.t a/b/y.t a/x.t h/v.t l/la/x.t la/b/c/z.t la/b/y.t la/x.t\n", ""],
      ["shopt -s globstar; echo la/**; echo l/**", "la/ la/b la/b/c la/b/c/z.t la/b/y.t la/x.t\nl/ l/la l/m l/m/k\n", ""],
      ["shopt -s globstar; echo ./**/k; echo a/./**", "./l/m/k\na/./ a/./b a/./b/c a/./b/c/z.t a/./b/y.t a/./x.t\n", ""],
      ["shopt -s globstar; echo a/**/c/**; echo **/c; echo a/**/b; echo a/**/*/", "a/b/c a/b/c/z.t\na/b/c\na/b\na/b/ a/b/c/\n", ""],
      ["shopt -s globstar; echo **/.hid; echo h/**/.*; echo h/.*/**", "h/.hid\nh/.hid\nh/.hid h/.hid/q.t\n", ""],
      ["shopt -s globstar dotglob; echo h/**; echo h/**/", "h/ h/.hid h/.hid/q.t h/v.t\nh/ h/.hid/\n", ""],
      ["shopt -s globstar; echo nope/** top.t/** a/**/nope", "nope/** top.t/** a/**/nope\n", ""],
      ["shopt -s globstar nullglob; echo nope/** x", "x\n", ""],
      ["shopt -s globstar failglob; echo nope/**; echo st=$?", "", "bash: no match: nope/**\n"],
      ["shopt -s globstar; echo /workspace/a/**", "/workspace/a/ /workspace/a/b /workspace/a/b/c /workspace/a/b/c/z.t /workspace/a/b/y.t /workspace/a/x.t\n", ""],
      ["shopt -s globstar; echo \"a\"/**/\"x.t\" a/**/x.\\t", "a/x.t a/x.t\n", ""],
      ["shopt -s globstar; echo a** a/**x", "a a/**x\n", ""],
      ["echo a/**/*.t; echo h/.*/v.t", "a/b/y.t\nh/.*/v.t\n", ""],
  ]);
});

it("nocaseglob in every pathname pattern, literal directory names exact, as bash", async () => {
  const out = await shellCases({"dirs": ["Dir/sub", "sub"], "files": {"ABC": "", "Abd": "", "abc": "", "Dir/sub/F.txt": "", "sub/g.TXT": ""}}, [
    "shopt -s nocaseglob; echo dir/*/f.*; echo d*/*/f.*; echo D*/S*/f*",
    "shopt -s nocaseglob; echo [a-b]*; echo *.txt; echo */*.txt",
    "shopt -s nocaseglob globstar; echo **/*.txt",
    "shopt -s nocaseglob extglob\necho @(a|x)b*; echo !(a*)",
    "shopt -s nocaseglob; shopt -u nocaseglob; echo a*",
  ]);
  expect(out).toEqual([
      ["shopt -s nocaseglob; echo dir/*/f.*; echo d*/*/f.*; echo D*/S*/f*", "dir/*/f.*\nDir/sub/F.txt\nDir/sub/F.txt\n", ""],
      ["shopt -s nocaseglob; echo [a-b]*; echo *.txt; echo */*.txt", "ABC Abd abc\n*.txt\nsub/g.TXT\n", ""],
      ["shopt -s nocaseglob globstar; echo **/*.txt", "Dir/sub/F.txt sub/g.TXT\n", ""],
      ["shopt -s nocaseglob extglob\necho @(a|x)b*; echo !(a*)", "ABC Abd abc\nDir sub\n", ""],
      ["shopt -s nocaseglob; shopt -u nocaseglob; echo a*", "abc\n", ""],
  ]);
});

it("printf %e/%f/%g read a long double and print it as C, as bash", async () => {
  const out = await shellCases({}, [
    "printf '%.20f|%.25g|%g|%.17g|%e|%g\\n' 0.1 0.1 1e-5 0.3 1.5 123456789",
    "printf '%f|%f|%f|%F|%g|%e|%5.1f|%-5f|\\n' inf -inf nan inf infinity -nan INF nan",
    "printf '%f\\n' 0x1p3 ' 12' 12abc 1e5000 1e-5000 '' 'a' \"'A\"; echo \"rc $?\"",
    "printf '%f\\n' 1e-400; echo \"rc $?\"; printf '%.30e\\n' 1e-4940 4.9e-324; echo \"rc $?\"",
    "printf '%g|%G|%e\\n' -0 -0.0 -0",
    "printf '%f|%f|%f\\n' ' 1.5' '1.5 ' '+.5'; echo \"rc $?\"",
    "printf '%.3f|%f\\n' 0x1.8p1 0X10; printf '%f|%f|%f\\n' infinity nanx -Infinity; echo rc $?",
    "printf '%#g|%#.0f|%#e|%#.0e\\n' 1 2 3 4; printf '%+.2e|% f|%010.2f|%-10.1e|\\n' 5 6 -7 8",
    "printf '%.0f\\n' 1e19 123456789012345678901234567890",
    "printf '%f\\n' 1e300 | cut -c1-40; printf '%f\\n' 1e4933; echo rc=$?",
    "printf '%*.*f|%-*g|\\n' 10 3 3.14159 8 2.5",
    "printf '%Lf %lf\\n' 1.5 2.5",
    "printf '%.3g|%.10g|%#g|%-8g|%08g|%.2g|%.1g|\\n' 3.14159 1 2.5 2.5 2.5 0.000123456 99",
    "printf '%e|%E|%g\\n' 12345.678 1e-300 1e-300",
    "printf '%f\\n' 1e; printf '%f\\n' 0x; printf '%f\\n' 07.5x; echo rc $?",
    "printf '%g\\n' 0.0001 123456 1234567 9.9999995e-5; printf '%.0e|%.0g|%g\\n' 2.5e10 0 0",
    "printf -v v '%.1f' 0.25; echo $v; x=$(printf '%.0f' 2.5); echo $x",
    "awk 'BEGIN { printf \"%.1g|%.2g|%g\\n\", 99, 999, 100000 }'",
  ]);
  expect(out).toEqual([
      ["printf '%.20f|%.25g|%g|%.17g|%e|%g\\n' 0.1 0.1 1e-5 0.3 1.5 123456789", "0.10000000000000000000|0.1000000000000000000013553|1e-05|0.3|1.500000e+00|1.23457e+08\n", ""],
      ["printf '%f|%f|%f|%F|%g|%e|%5.1f|%-5f|\\n' inf -inf nan inf infinity -nan INF nan", "inf|-inf|nan|INF|inf|-nan|  inf|nan  |\n", ""],
      ["printf '%f\\n' 0x1p3 ' 12' 12abc 1e5000 1e-5000 '' 'a' \"'A\"; echo \"rc $?\"", "8.000000\n12.000000\n12.000000\ninf\n0.000000\n0.000000\n0.000000\n65.000000\nrc 1\n", "printf: 12abc: invalid number\nprintf: warning: 1e5000: Numerical result out of range\nprintf: warning: 1e-5000: Numerical result out of range\nprintf: a: invalid number\n"],
      ["printf '%f\\n' 1e-400; echo \"rc $?\"; printf '%.30e\\n' 1e-4940 4.9e-324; echo \"rc $?\"", "0.000000\nrc 0\n9.999999999960532520011856533460e-4941\n4.900000000000000000095750333786e-324\nrc 0\n", "printf: warning: 1e-4940: Numerical result out of range\n"],
      ["printf '%g|%G|%e\\n' -0 -0.0 -0", "-0|-0|-0.000000e+00\n", ""],
      ["printf '%f|%f|%f\\n' ' 1.5' '1.5 ' '+.5'; echo \"rc $?\"", "1.500000|1.500000|0.500000\nrc 1\n", "printf: 1.5 : invalid number\n"],
      ["printf '%.3f|%f\\n' 0x1.8p1 0X10; printf '%f|%f|%f\\n' infinity nanx -Infinity; echo rc $?", "3.000|16.000000\ninf|nan|-inf\nrc 1\n", "printf: nanx: invalid number\n"],
      ["printf '%#g|%#.0f|%#e|%#.0e\\n' 1 2 3 4; printf '%+.2e|% f|%010.2f|%-10.1e|\\n' 5 6 -7 8", "1.00000|2.|3.000000e+00|4.e+00\n+5.00e+00| 6.000000|-000007.00|8.0e+00   |\n", ""],
      ["printf '%.0f\\n' 1e19 123456789012345678901234567890", "10000000000000000000\n123456789012345678899921813504\n", ""],
      ["printf '%f\\n' 1e300 | cut -c1-40; printf '%f\\n' 1e4933; echo rc=$?", "1000000000000000000008997324079559193870\ninf\nrc=0\n", "printf: warning: 1e4933: Numerical result out of range\n"],
      ["printf '%*.*f|%-*g|\\n' 10 3 3.14159 8 2.5", "     3.142|2.5     |\n", ""],
      ["printf '%Lf %lf\\n' 1.5 2.5", "1.500000 2.500000\n", ""],
      ["printf '%.3g|%.10g|%#g|%-8g|%08g|%.2g|%.1g|\\n' 3.14159 1 2.5 2.5 2.5 0.000123456 99", "3.14|1|2.50000|2.5     |000002.5|0.00012|1e+02|\n", ""],
      ["printf '%e|%E|%g\\n' 12345.678 1e-300 1e-300", "1.234568e+04|1.000000E-300|1e-300\n", ""],
      ["printf '%f\\n' 1e; printf '%f\\n' 0x; printf '%f\\n' 07.5x; echo rc $?", "1.000000\n0.000000\n7.500000\nrc 1\n", "printf: 1e: invalid number\nprintf: 0x: invalid hex number\nprintf: 07.5x: invalid octal number\n"],
      ["printf '%g\\n' 0.0001 123456 1234567 9.9999995e-5; printf '%.0e|%.0g|%g\\n' 2.5e10 0 0", "0.0001\n123456\n1.23457e+06\n0.0001\n2e+10|0|0\n", ""],
      ["printf -v v '%.1f' 0.25; echo $v; x=$(printf '%.0f' 2.5); echo $x", "0.2\n2\n", ""],
      ["awk 'BEGIN { printf \"%.1g|%.2g|%g\\n\", 99, 999, 100000 }'", "1e+02|1e+03|100000\n", ""],
  ]);
});

it("pushd/popd/dirs forms, errors and -n, as bash", async () => {
  const out = await shellCases({"dirs": ["a", "b", "c"]}, [
    "HOME=/nonexistent; pushd; echo $?; pushd +1; echo $?; popd; echo $?; popd +0; echo $?",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; pushd +5; echo $?; pushd -1; echo $?; pushd -n ../a; echo $?; pwd; dirs -v",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; popd -n; pwd; popd -n +1; popd -3; echo $?; popd +x; echo $?; popd 1; echo $?",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd -n +1; echo $?; dirs; pushd -n -0; dirs; pushd -0; echo $?; popd -0; popd -0; echo $?",
    "HOME=/nonexistent; pushd -x; echo $?; pushd -n +1; echo $?; pushd a b; echo $?; pushd -n; echo $?",
    "HOME=/workspace/a; pushd a >/dev/null; pushd ../b >/dev/null; dirs; dirs -9; echo $?; dirs +1; dirs -v +1; dirs -l +1; dirs -p -1; dirs +0 +1",
    "HOME=/nonexistent; dirs -lv; echo $?; dirs -x; echo $?; dirs a; echo $?; pushd a >/dev/null; dirs -c +1; echo $?; dirs",
    "HOME=/nonexistent; pushd a; pushd -- ../b; pushd -; dirs -p; echo $OLDPWD",
    "HOME=/nonexistent; pushd nonexist; echo $?; pushd -n nonexist; echo $?; popd; echo $?; pwd",
  ]);
  expect(out).toEqual([
      ["HOME=/nonexistent; pushd; echo $?; pushd +1; echo $?; popd; echo $?; popd +0; echo $?", "1\n1\n1\n1\n", "bash: pushd: no other directory\nbash: pushd: directory stack empty\nbash: popd: directory stack empty\nbash: popd: directory stack empty\n"],
      ["HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; pushd +5; echo $?; pushd -1; echo $?; pushd -n ../a; echo $?; pwd; dirs -v", "1\n/workspace/a /workspace /workspace/c /workspace/b\n0\n/workspace/a ../a /workspace /workspace/c /workspace/b\n0\n/workspace/a\n 0  /workspace/a\n 1  ../a\n 2  /workspace\n 3  /workspace/c\n 4  /workspace/b\n", "bash: pushd: +5: directory stack index out of range\n"],
      ["HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; popd -n; pwd; popd -n +1; popd -3; echo $?; popd +x; echo $?; popd 1; echo $?", "/workspace/c /workspace/a /workspace\n/workspace/c\n/workspace/c /workspace\n1\n2\n2\n", "bash: popd: -3: directory stack index out of range\nbash: popd: +x: invalid number\npopd: usage: popd [-n] [+N | -N]\nbash: popd: 1: invalid argument\npopd: usage: popd [-n] [+N | -N]\n"],
      ["HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd -n +1; echo $?; dirs; pushd -n -0; dirs; pushd -0; echo $?; popd -0; popd -0; echo $?", "0\n/workspace/b /workspace /workspace/b\n/workspace/b /workspace/b /workspace\n/workspace /workspace/b /workspace/b\n0\n/workspace /workspace/b\n/workspace\n0\n", ""],
      ["HOME=/nonexistent; pushd -x; echo $?; pushd -n +1; echo $?; pushd a b; echo $?; pushd -n; echo $?", "2\n1\n1\n0\n", "bash: pushd: -x: invalid number\npushd: usage: pushd [-n] [+N | -N | dir]\nbash: pushd: directory stack empty\nbash: pushd: too many arguments\n"],
      ["HOME=/workspace/a; pushd a >/dev/null; pushd ../b >/dev/null; dirs; dirs -9; echo $?; dirs +1; dirs -v +1; dirs -l +1; dirs -p -1; dirs +0 +1", "/workspace/b ~ /workspace\n1\n~\n 1  ~\n/workspace/a\n~\n~\n", "bash: dirs: 9: directory stack index out of range\n"],
      ["HOME=/nonexistent; dirs -lv; echo $?; dirs -x; echo $?; dirs a; echo $?; pushd a >/dev/null; dirs -c +1; echo $?; dirs", "2\n2\n2\n0\n/workspace/a\n", "bash: dirs: -lv: invalid number\ndirs: usage: dirs [-clpv] [+N] [-N]\nbash: dirs: -x: invalid number\ndirs: usage: dirs [-clpv] [+N] [-N]\nbash: dirs: a: invalid option\ndirs: usage: dirs [-clpv] [+N] [-N]\n"],
      ["HOME=/nonexistent; pushd a; pushd -- ../b; pushd -; dirs -p; echo $OLDPWD", "/workspace/a /workspace\n/workspace/b /workspace/a /workspace\n/workspace/a\n/workspace/a /workspace/b /workspace/a /workspace\n/workspace/a\n/workspace/b\n/workspace/a\n/workspace\n/workspace/b\n", ""],
      ["HOME=/nonexistent; pushd nonexist; echo $?; pushd -n nonexist; echo $?; popd; echo $?; pwd", "1\n/workspace nonexist\n0\n1\n/workspace\n", "bash: pushd: nonexist: No such file or directory\nbash: popd: nonexist: No such file or directory\n"],
  ]);
});

it("echo takes any word of n, e and E letters as options, as bash", async () => {
  const out = await shellCases({}, [
    "echo -nn x; echo; echo -neE 'a\\tb'; echo -n -e x; echo; echo -nx y; echo -Ee 'a\\tb'; echo - -n; echo -- x; echo -e -n 'q\\n'",
  ]);
  expect(out).toEqual([
      ["echo -nn x; echo; echo -neE 'a\\tb'; echo -n -e x; echo; echo -nx y; echo -Ee 'a\\tb'; echo - -n; echo -- x; echo -e -n 'q\\n'", "x\na\\tbx\n-nx y\na\tb\n- -n\n-- x\nq\n", ""],
  ]);
});
