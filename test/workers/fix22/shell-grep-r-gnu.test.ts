/**
 * Issue 20, twenty-second attack run, fix of test/workers/attack22b/shell-grep-r-without-operand-reads-stdin.test.ts:
 * the siblings of grep -r's operands. Each expected output is GNU grep 3.8 / coreutils 9.1 du on the same tree
 * (/workspace with a.txt, d/f.txt, d/sub/, e/, .env and .git/c, each holding "x"), the lines sorted where GNU's order
 * is the directory's.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["d/sub", "e", ".git"],
  files: { "a.txt": "x\n", "d/f.txt": "x\n", ".env": "x\n", ".git/c": "x\n" },
};

const cases: [string, string, string][] = [
  // No file operand: the working directory, names without `./`, hidden names included; stdin is not read.
  ["grep -r x | sort", ".env:x\n.git/c:x\na.txt:x\nd/f.txt:x\n", ""],
  ["echo x | grep -rl x | sort", ".env\n.git/c\na.txt\nd/f.txt\n", ""],
  ["cd d && grep -rn x", "f.txt:1:x\n", ""],
  // An explicit `.` (or `./`, `..`) is a start point like any other: its name leads every line.
  ["grep -r x . | sort", "./.env:x\n./.git/c:x\n./a.txt:x\n./d/f.txt:x\n", ""],
  ["grep -r x ./ d/ | sort", "./.env:x\n./.git/c:x\n./a.txt:x\n./d/f.txt:x\nd/f.txt:x\n", ""],
  ["cd d && grep -rl x .. | sort", "../.env\n../.git/c\n../a.txt\n../d/f.txt\n", ""],
  ["grep -rL y .; echo rc=$?", "./.env\n./.git/c\n./a.txt\n./d/f.txt\nrc=1\n", ""],
  // Hidden directories are skipped only when asked.
  ["grep -r --exclude-dir=.git x . | sort", "./.env:x\n./a.txt:x\n./d/f.txt:x\n", ""],
  // A start point that cannot be read: GNU's message and status 2, the others still searched.
  ["grep -r x nosuch; echo rc=$?", "rc=2\n", "grep: nosuch: No such file or directory\n"],
  ["grep -rl x d nosuch; echo rc=$?", "d/f.txt\nrc=2\n", "grep: nosuch: No such file or directory\n"],
  ["grep -r x ''; echo rc=$?", "rc=2\n", "grep: : No such file or directory\n"],
  // du names what it finds under `.` with the `./` GNU du gives it, with or without the operand.
  ["du -a | cut -f2 | sort", ".\n./.env\n./.git\n./.git/c\n./a.txt\n./d\n./d/f.txt\n./d/sub\n./e\n", ""],
  ["du -a d/.. | cut -f2 | sort", "d/..\nd/../.env\nd/../.git\nd/../.git/c\nd/../a.txt\nd/../d\nd/../d/f.txt\nd/../d/sub\nd/../e\n", ""],
];

it("grep -r with no operand, `.`, hidden names and unreadable start points; du's names under `.` — as GNU", async () => {
  expect(await shellCases(TREE, cases.map(([command]) => command))).toEqual(cases);
}, 60_000);
