/**
 * Issue 20, run 36, fixer DD2 — the neighbourhood of attack35f/dotdot-after-link-is-lexical-in-shell: a `..` after a
 * symbolic link goes up from where the link leads, in every form the shell meets it, checked against bash 5.2.15 with
 * GNU coreutils 9.1 / grep 3.8 / tar 1.34 on this machine (a temp copy of the same tree; the expected rows below are
 * that run's stdout + `rc=<status>` and stderr, the temp prefix dropped; rg's row is GNU `grep -rl`'s, as ripgrep names
 * files the same way and is not installed here).
 * Tree (each row in a fresh copy): a/b/x "X", a/f "INNER", f "OUTER", d/t "T", lnkdir/ (empty), lnk -> a/b,
 * lnk2 -> lnk (a chain of two links), abs -> /workspace/a/b (absolute), dangling -> nowhere.
 * Single paths: cat/rm/mv/cp/ls/test/[ ]/redirections (>, >>, <)/mkdir/touch/ln -s/readlink -f/realpath/head/wc/stat,
 * `cd` + relative, `cd` logical (`cd lnk/..` is the directory holding lnk, as bash's `cd -L`), `cd -P`, `pwd -P`,
 * a dangling link or a file before the `..` (ENOENT, ENOTDIR).
 * Walkers: find, ls -R, grep -r, du -a, cp -r (into-itself refusal on real paths), chmod -R, tar c, rg, rm -r on
 * `d/..`, `lnk/..`, `./lnk/../b`, `lnk/../..` and from a cwd entered through the link — names printed from the operand
 * text as GNU prints them; the two cp into-itself rows compare the status only (just-bash words the refusal
 * `cannot copy 'X' into itself, '/abs/dest'` where GNU says `cannot copy a directory, 'X', into itself, 'dest'`, also
 * without a `..`); the two tar rows hold what our tar stores: the real tree's entries (a/b/x, a/f — not /workspace's),
 * named by the operand text (`lnk/../b/x`), where GNU tar strips a leading prefix ending in `../` from member names
 * (`b/x`, with a warning) — just-bash's tar keeps member names as given also for `tar cf - ../x`, a separate gap (run 35's attempt printed `d/../t` for du and ran workerd out of heap on these operands).
 */
import { describe, expect, it } from "vitest";
import { shellCases, type ShellTree } from "../shell/helpers.js";

const TREE: ShellTree = {
  dirs: ["a/b", "d", "lnkdir"],
  files: { "a/f": "INNER", f: "OUTER", "a/b/x": "X", "d/t": "T" },
  links: { lnk: "a/b", lnk2: "lnk", abs: "/workspace/a/b", dangling: "nowhere" },
};

type Row = [command: string, stdoutAndStatus: string, stderr: string];

/** bash 5.2.15 + GNU tools on this machine, one fresh tree per row. */
const SINGLE: Row[] = [
  ["cat lnk/../f", "INNERrc=0", ""],
  ["cat lnk2/../f", "INNERrc=0", ""],
  ["cat abs/../f", "INNERrc=0", ""],
  ["cat lnk/../../f", "OUTERrc=0", ""],
  ["cat lnkdir/../f", "OUTERrc=0", ""],
  ["cat dangling/../f", "rc=1", "cat: dangling/../f: No such file or directory"],
  ["cat f/../f", "rc=1", "cat: f/../f: Not a directory"],
  ["cd lnk && cat ../f", "INNERrc=0", ""],
  ["cd lnk && pwd && pwd -P", "/workspace/lnk\n/workspace/a/b\nrc=0", ""],
  ["cd lnk/.. && pwd", "/workspace\nrc=0", ""],
  ["cd -P lnk/.. && pwd", "/workspace/a\nrc=0", ""],
  ["cd lnk && cd -P .. && pwd", "/workspace/a\nrc=0", ""],
  ["rm lnk/../f; echo $?; ls a; cat f", "0\nb\nOUTERrc=0", ""],
  ["mv lnk/../f g && cat g && ls a", "INNERb\nrc=0", ""],
  ["cp lnk/../f g && cat g", "INNERrc=0", ""],
  ["cp f lnk/../h && cat a/h", "OUTERrc=0", ""],
  ["ls lnk/..", "b\nf\nrc=0", ""],
  ["ls -d lnk/../b", "lnk/../b\nrc=0", ""],
  ["test -e lnk/../f && echo yes; test -e lnk/../nope || echo no", "yes\nno\nrc=0", ""],
  ["[ -f lnk/../f ] && echo file", "file\nrc=0", ""],
  ["echo new > lnk/../g && cat a/g", "new\nrc=0", ""],
  ["echo z >> lnk/../f; cat a/f", "INNERz\nrc=0", ""],
  ["cat < lnk/../f", "INNERrc=0", ""],
  ["cd lnk && echo w > ../w && cd .. && cat a/w", "w\nrc=0", ""],
  ["mkdir lnk/../m && ls -d a/m", "a/m\nrc=0", ""],
  ["touch lnk/../t && ls a", "b\nf\nt\nrc=0", ""],
  ["ln -s x lnk/../s && readlink a/s", "x\nrc=0", ""],
  ["readlink -f lnk/../f", "/workspace/a/f\nrc=0", ""],
  ["realpath lnk/../b/x", "/workspace/a/b/x\nrc=0", ""],
  ["head -c 3 lnk/../f", "INNrc=0", ""],
  ["wc -c lnk/../f", "5 lnk/../f\nrc=0", ""],
  ["stat -c %s lnk/../f", "5\nrc=0", ""],
];

/** The tree walkers on operands holding a `..` after a name (bash 5.2.15 + GNU tools, one fresh tree per row). */
const WALKERS: Row[] = [
  ["find d/.. | sort", "d/..\nd/../a\nd/../a/b\nd/../a/b/x\nd/../a/f\nd/../abs\nd/../d\nd/../d/t\nd/../dangling\nd/../f\nd/../lnk\nd/../lnk2\nd/../lnkdir\nrc=0", ""],
  ["find lnk/.. | sort", "lnk/..\nlnk/../b\nlnk/../b/x\nlnk/../f\nrc=0", ""],
  ["find ./lnk/../b | sort", "./lnk/../b\n./lnk/../b/x\nrc=0", ""],
  ["find lnk/../.. | sort", "lnk/../..\nlnk/../../a\nlnk/../../a/b\nlnk/../../a/b/x\nlnk/../../a/f\nlnk/../../abs\nlnk/../../d\nlnk/../../d/t\nlnk/../../dangling\nlnk/../../f\nlnk/../../lnk\nlnk/../../lnk2\nlnk/../../lnkdir\nrc=0", ""],
  ["ls -R d/..", "d/..:\na\nabs\nd\ndangling\nf\nlnk\nlnk2\nlnkdir\n\nd/../a:\nb\nf\n\nd/../a/b:\nx\n\nd/../d:\nt\n\nd/../lnkdir:\nrc=0", ""],
  ["ls -R lnk/..", "lnk/..:\nb\nf\n\nlnk/../b:\nx\nrc=0", ""],
  ["ls -R ./lnk/../b", "./lnk/../b:\nx\nrc=0", ""],
  ["grep -r . d/.. | sort", "d/../a/b/x:X\nd/../a/f:INNER\nd/../d/t:T\nd/../f:OUTER\nrc=0", ""],
  ["grep -r . lnk/.. | sort", "lnk/../b/x:X\nlnk/../f:INNER\nrc=0", ""],
  ["grep -r . ./lnk/../b | sort", "./lnk/../b/x:X\nrc=0", ""],
  ["grep -r . lnk/../.. | sort", "lnk/../../a/b/x:X\nlnk/../../a/f:INNER\nlnk/../../d/t:T\nlnk/../../f:OUTER\nrc=0", ""],
  ["du -a d/.. | cut -f2 | sort", "d/..\nd/../a\nd/../a/b\nd/../a/b/x\nd/../a/f\nd/../abs\nd/../d\nd/../d/t\nd/../dangling\nd/../f\nd/../lnk\nd/../lnk2\nd/../lnkdir\nrc=0", ""],
  ["du -a lnk/.. | cut -f2 | sort", "lnk/..\nlnk/../b\nlnk/../b/x\nlnk/../f\nrc=0", ""],
  ["du -a ./lnk/../b | cut -f2 | sort", "./lnk/../b\n./lnk/../b/x\nrc=0", ""],
  ["du -a lnk/../.. | cut -f2 | sort", "lnk/../..\nlnk/../../a\nlnk/../../a/b\nlnk/../../a/b/x\nlnk/../../a/f\nlnk/../../abs\nlnk/../../d\nlnk/../../d/t\nlnk/../../dangling\nlnk/../../f\nlnk/../../lnk\nlnk/../../lnk2\nlnk/../../lnkdir\nrc=0", ""],
  ["cp -r lnk/.. out && find out | sort", "out\nout/b\nout/b/x\nout/f\nrc=0", ""],
  ["cp -r ./lnk/../b out && find out | sort", "out\nout/x\nrc=0", ""],
  ["cp -r lnk/../.. out 2>/dev/null; echo $?", "1\nrc=0", ""],
  ["cp -r d/.. d/out 2>/dev/null; echo $?", "1\nrc=0", ""],
  ["chmod -R 700 lnk/.. && stat -c '%a %n' a a/b a/b/x a/f d f", "700 a\n700 a/b\n700 a/b/x\n700 a/f\n755 d\n644 f\nrc=0", ""],
  ["chmod -R 700 ./lnk/../b && stat -c '%a %n' a a/b a/b/x", "755 a\n700 a/b\n700 a/b/x\nrc=0", ""],
  ["tar cf - lnk/.. 2>/dev/null | tar tf - | sort", "lnk/../\nlnk/../b/\nlnk/../b/x\nlnk/../f\nrc=0", ""], // GNU: ./ b/ b/x f (see the header)
  ["tar cf - ./lnk/../b 2>/dev/null | tar tf - | sort", "./lnk/../b/\n./lnk/../b/x\nrc=0", ""], // GNU: b/ b/x
  ["rm -r lnk/..; echo $?; ls a", "1\nb\nf\nrc=0", "rm: refusing to remove '.' or '..' directory: skipping 'lnk/..'"],
  ["rm -r ./lnk/../b; echo $?; ls a", "0\nf\nrc=0", ""],
  ["rm -r lnk/../b && ls a", "f\nrc=0", ""],
  ["cd lnk && ls -R .. && du -a .. | cut -f2 | sort", "..:\nb\nf\n\n../b:\nx\n..\n../b\n../b/x\n../f\nrc=0", ""],
  ["cd lnk && find .. | sort && grep -r . .. | sort", "..\n../b\n../b/x\n../f\n../b/x:X\n../f:INNER\nrc=0", ""],
  ["rg -l . lnk/.. | sort", "lnk/../b/x\nlnk/../f\nrc=0", ""],
];

/** What the reference run recorded: `$(bash -c "$row"; echo "rc=$?")` (stdout as is, then the status) and stderr without its last newlines. */
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, `${r.stdout}rc=${r.exitCode}`, r.stderr.replace(/\n+$/, "")];

describe("a `..` after a symbolic link in the shell, as bash on Linux (fixer DD2, run 36)", () => {
  it("single paths: reads, writes, removals, tests, redirections, cd/pwd", async () => {
    const rows = await shellCases(TREE, SINGLE.map(([command]) => command), { collect });
    expect(rows).toEqual(SINGLE);
  }, 300000);

  // In groups of ten rows, each group in its own Durable Object.
  for (let at = 0; at < WALKERS.length; at += 10) {
    const group = WALKERS.slice(at, at + 10);
    it(`tree walkers start from the real directory and print names from the operand text (${group[0]![0]} …)`, async () => {
      const rows = await shellCases(TREE, group.map(([command]) => command), { collect });
      expect(rows).toEqual(group);
    }, 300000);
  }
});
