/**
 * Issue 20, twenty-fifth run (fixer SY): the siblings of the chmod, expr and env findings in test/workers/attack25b/,
 * each expectation what GNU coreutils 9.1 / bash 5.2 give in a temporary directory under umask 022.
 * - chmod: a directory keeps its set-group-ID bit under a numeric mode of fewer than 5 digits, u/g/o copies,
 *   `chmod -w` says "new permissions are" (status 1), invalid modes, -R with X on an executable file.
 * - expr: comparisons of non-integers as strings, exact integers, non-integer arguments refused, `\|` takes the
 *   longest match, back references, substr's out-of-range operands, GNU's syntax and regex errors.
 * - env and the commands a command runs: `env -i`, `env -u`, exports through timeout and xargs, an unset exported
 *   variable stays unset in a child shell, env/printenv list only exported variables.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

/** Each command's stdout and stderr; `rc=$?`/`st=$?` inside a command shows a status. */
async function run(commands: string[]) {
  return shellCases({ dirs: ["d/e"], files: { f: "a\n", "d/g": "x\n", "d/e/h": "xx\n" } }, commands);
}

it("chmod keeps a directory's set-ID bits, copies u/g/o and reports umask surprises, as GNU chmod", async () => {
  const out = await run([
    "mkdir s; chmod 2755 s; chmod 755 s; stat -c %a s; chmod 00755 s; stat -c %a s",
    "chmod 600 f; chmod o=u f; stat -c %a f; chmod 640 f; chmod go=u-w f; stat -c %a f",
    "chmod 777 f; chmod -w f; echo rc=$?; stat -c %a f",
    "chmod 777 f; chmod -r f; echo rc=$?; stat -c %a f",
    "chmod 644 f; chmod -X f; echo rc=$?; stat -c %a f",
    "chmod 77777 f; echo rc=$?; chmod a+q f; echo rc=$?; stat -c %a f",
    "chmod 700 d/g; chmod -R go+rX d; stat -c %a d d/g d/e/h",
  ]);
  expect(out).toEqual([
    ["mkdir s; chmod 2755 s; chmod 755 s; stat -c %a s; chmod 00755 s; stat -c %a s", "2755\n755\n", ""],
    ["chmod 600 f; chmod o=u f; stat -c %a f; chmod 640 f; chmod go=u-w f; stat -c %a f", "606\n644\n", ""],
    ["chmod 777 f; chmod -w f; echo rc=$?; stat -c %a f", "rc=1\n577\n", "chmod: f: new permissions are r-xrwxrwx, not r-xr-xr-x\n"],
    ["chmod 777 f; chmod -r f; echo rc=$?; stat -c %a f", "rc=0\n333\n", ""],
    ["chmod 644 f; chmod -X f; echo rc=$?; stat -c %a f", "rc=0\n644\n", ""],
    ["chmod 77777 f; echo rc=$?; chmod a+q f; echo rc=$?; stat -c %a f", "rc=1\nrc=1\n644\n", "chmod: invalid mode: '77777'\nTry 'chmod --help' for more information.\nchmod: invalid mode: 'a+q'\nTry 'chmod --help' for more information.\n"],
    ["chmod 700 d/g; chmod -R go+rX d; stat -c %a d d/g d/e/h", "755\n755\n644\n", ""],
  ]);
});

it("expr compares, computes and matches as GNU expr", async () => {
  const out = await run([
    "expr 10 \\> 9a; expr 10 \\> 9; expr 9a + 1; echo st=$?",
    "expr 99999999999999999999 + 1; expr -7 / 2; expr -7 % 2",
    "expr abc : 'a\\|ab'; expr abc : '\\(a\\)\\|\\(ab\\)'; echo st=$?",
    "expr aa : '\\(a\\)\\1'; expr a0 : 'a\\(0*\\)'; echo st=$?",
    "expr substr hello 0 2; expr substr hello 2 x; expr substr hello 4 9; echo st=$?",
    "expr length; echo st=$?; expr abc : 'a\\('; echo st=$?; expr 1 + ; echo st=$?",
    "expr 2 \\| 0 \\& 1; expr '' \\| ''; echo st=$?; expr 0 \\| 5 / 0; echo st=$?",
    "expr match 'v1.20' 'v[0-9]*\\.\\([0-9]*\\)'; expr 'x y' : '.* \\(.*\\)'; expr + match",
    "expr '*a' : '*a'; expr 'a+' : 'a+'; expr aaa : 'a\\{2\\}'; expr 'a$b' : 'a$b'; expr ab : '[[:alpha:]]*'",
  ]);
  expect(out).toEqual([
    ["expr 10 \\> 9a; expr 10 \\> 9; expr 9a + 1; echo st=$?", "0\n1\nst=2\n", "expr: non-integer argument\n"],
    ["expr 99999999999999999999 + 1; expr -7 / 2; expr -7 % 2", "100000000000000000000\n-3\n-1\n", ""],
    ["expr abc : 'a\\|ab'; expr abc : '\\(a\\)\\|\\(ab\\)'; echo st=$?", "2\n\nst=1\n", ""],
    ["expr aa : '\\(a\\)\\1'; expr a0 : 'a\\(0*\\)'; echo st=$?", "a\n0\nst=1\n", ""],
    ["expr substr hello 0 2; expr substr hello 2 x; expr substr hello 4 9; echo st=$?", "\n\nlo\nst=0\n", ""],
    [
      "expr length; echo st=$?; expr abc : 'a\\('; echo st=$?; expr 1 + ; echo st=$?",
      "st=2\nst=2\nst=2\n",
      "expr: syntax error: missing argument after 'length'\nexpr: Unmatched ( or \\(\nexpr: syntax error: missing argument after '+'\n",
    ],
    ["expr 2 \\| 0 \\& 1; expr '' \\| ''; echo st=$?; expr 0 \\| 5 / 0; echo st=$?", "2\n0\nst=1\nst=2\n", "expr: division by zero\n"],
    ["expr match 'v1.20' 'v[0-9]*\\.\\([0-9]*\\)'; expr 'x y' : '.* \\(.*\\)'; expr + match", "20\ny\nmatch\n", ""],
    ["expr '*a' : '*a'; expr 'a+' : 'a+'; expr aaa : 'a\\{2\\}'; expr 'a$b' : 'a$b'; expr ab : '[[:alpha:]]*'", "2\n2\n2\n3\n2\n", ""],
  ]);
});

it("a command another command runs gets the caller's exported variables, as bash and GNU env", async () => {
  const out = await run([
    "env -i sh -c 'echo \"[$HOME]\"'; env -i printenv; echo rc=$?; env -i FOO=1 env",
    "export X=1; env -u X sh -c 'echo \"[$X]\"'",
    "echo a | env FOO=bar xargs sh -c 'echo \"[$FOO]\"'",
    "export X=1; timeout 5 sh -c 'echo \"[$X]\"'; echo a | xargs sh -c 'echo \"[$X]\"'",
    "unset HOME; sh -c 'echo \"[$HOME]\"'",
    "A=1; printenv A; echo rc=$?; env | grep -c '^A='; B=2 printenv B",
    "env FOO=bar bash -c 'bash -c \"echo [\\$FOO]\"'",
    "set -- p q; sh -c 'echo \"[$1]\" $0 $#' x y; cd d; sh -c pwd; env pwd; timeout 5 pwd",
  ]);
  expect(out).toEqual([
    ["env -i sh -c 'echo \"[$HOME]\"'; env -i printenv; echo rc=$?; env -i FOO=1 env", "[]\nrc=0\nFOO=1\n", ""],
    ["export X=1; env -u X sh -c 'echo \"[$X]\"'", "[]\n", ""],
    ["echo a | env FOO=bar xargs sh -c 'echo \"[$FOO]\"'", "[bar]\n", ""],
    ["export X=1; timeout 5 sh -c 'echo \"[$X]\"'; echo a | xargs sh -c 'echo \"[$X]\"'", "[1]\n[1]\n", ""],
    ["unset HOME; sh -c 'echo \"[$HOME]\"'", "[]\n", ""],
    ["A=1; printenv A; echo rc=$?; env | grep -c '^A='; B=2 printenv B", "rc=1\n0\n2\n", ""],
    ["env FOO=bar bash -c 'bash -c \"echo [\\$FOO]\"'", "[bar]\n", ""],
    ["set -- p q; sh -c 'echo \"[$1]\" $0 $#' x y; cd d; sh -c pwd; env pwd; timeout 5 pwd", "[y] x 1\n/workspace/d\n/workspace/d\n/workspace/d\n", ""],
  ]);
});
