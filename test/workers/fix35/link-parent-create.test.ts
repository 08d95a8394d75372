/**
 * Issue 20, run 35, fixer SL: the shell makes a symbolic link through links among its parents as symlink(2) does —
 * `ln -s`, `cp -P`/`-a`/`-r` of a link or a tree holding one, `tar -x` of a link member, into a directory reached
 * through a link (`lnk -> real`), a link to a link (`chain -> lnk`), a relative `..` link (`real/sub/up -> ..`) or
 * from a cwd inside one; a dangling parent link is `No such file or directory`, one to a file `Not a directory`, a
 * loop `Too many levels of symbolic links` (`ln` without `-f` reports the link call's failure, with `-f` the look at the
 * name first: `failed to access`, as GNU ln's do_link). The neighbours that already went through links (`mv`, `mkdir`, `mkdir
 * -p`, `>`, `touch`, `mktemp`) are kept in the sweep. Every expected value is what bash 5.2.15 with GNU coreutils 9.1 and GNU
 * tar 1.34 print on this machine for the same tree and command (exit code, stderr, then `find real real2 | sort`).
 * Attacker's test: test/workers/attack35f/cp-tar-symlink-into-linked-directory.test.ts. The provider's side:
 * test/node/fix35/provider-link-parent.test.ts.
 */
import { expect, it } from "vitest";
import { resetTree, inShellWorkspace, sh, type ShellTree } from "../shell/helpers.js";

const TREE: ShellTree = {
  dirs: ["real/sub", "src/pkg", "src/.bin"],
  files: { "real/t.txt": "T", "src/pkg/cli.js": "CLI" },
  links: {
    "src/.bin/cli": "../pkg/cli.js",
    lnk: "real",
    chain: "lnk",
    "real/sub/up": "..",
    dangling: "nowhere",
    tofile: "real/t.txt",
    loop: "loop",
  },
};

const BASE = "real real/sub real/sub/up real/t.txt";
const SRC = (at: string) => `${at} ${at}/.bin ${at}/.bin/cli ${at}/pkg ${at}/pkg/cli.js`;

/** command → [stdout, stderr, listing] as GNU gives them. */
const CASES: readonly [string, string, string, string][] = [
  ["ln -s t.txt lnk/a; echo $?", "0\n", "", "real real/a real/sub real/sub/up real/t.txt"],
  ["cd lnk && ln -s t.txt b; echo $?", "0\n", "", "real real/b real/sub real/sub/up real/t.txt"],
  ["ln -s t.txt chain/sub/c; echo $?", "0\n", "", "real real/sub real/sub/c real/sub/up real/t.txt"],
  ["ln -s t.txt real/sub/up/d; echo $?", "0\n", "", "real real/d real/sub real/sub/up real/t.txt"],
  ["ln -s t.txt dangling/x; echo $?", "1\n", "ln: failed to create symbolic link 'dangling/x': No such file or directory\n", BASE],
  ["ln -s t.txt tofile/x; echo $?", "1\n", "ln: failed to create symbolic link 'tofile/x': Not a directory\n", BASE],
  ["ln -s t.txt loop/x; echo $?", "1\n", "ln: failed to create symbolic link 'loop/x': Too many levels of symbolic links\n", BASE],
  ["ln -sf t.txt loop/x; echo $?", "1\n", "ln: failed to access 'loop/x': Too many levels of symbolic links\n", BASE],
  ["ln -s t.txt lnk/nope/x; echo $?", "1\n", "ln: failed to create symbolic link 'lnk/nope/x': No such file or directory\n", BASE],
  ["ln -s t.txt lnk/t.txt; echo $?", "1\n", "ln: failed to create symbolic link 'lnk/t.txt': File exists\n", BASE],
  ["ln -sf t.txt lnk/t2; ln -sf x.txt lnk/t2; echo $?; readlink real/t2", "0\nx.txt\n", "", `${BASE} real/t2`],
  ["cp -P src/.bin/cli lnk/c1; echo $?; readlink real/c1", "0\n../pkg/cli.js\n", "", "real real/c1 real/sub real/sub/up real/t.txt"],
  ["cp -P src/.bin/cli dangling/x; echo $?", "1\n", "cp: cannot create symbolic link 'dangling/x': No such file or directory\n", BASE],
  ["cp -a src lnk/; echo $?", "0\n", "", `real ${SRC("real/src")} real/sub real/sub/up real/t.txt`],
  ["cp -a src chain/sub/; echo $?", "0\n", "", `real real/sub ${SRC("real/sub/src")} real/sub/up real/t.txt`],
  ["cp -r src real/sub/up/r; echo $?", "0\n", "", `real ${SRC("real/r")} real/sub real/sub/up real/t.txt`],
  ["cd lnk && cp -r ../src s3; echo $?", "0\n", "", `real ${SRC("real/s3")} real/sub real/sub/up real/t.txt`],
  [
    "mkdir -p tmp real2 && ln -s real2 l2 && tar -cf tmp/x.tar src && tar -xf tmp/x.tar -C l2/; echo $?",
    "0\n",
    "",
    `${BASE} real2 ${SRC("real2/src")}`,
  ],
  ["mkdir -p tmp && tar -cf tmp/x.tar src && cd lnk && tar -xf ../tmp/x.tar; echo $?", "0\n", "", `real ${SRC("real/src")} real/sub real/sub/up real/t.txt`],
  ["mv src/.bin/cli lnk/moved; echo $?; readlink real/moved", "0\n../pkg/cli.js\n", "", "real real/moved real/sub real/sub/up real/t.txt"],
  [
    "mkdir lnk/d lnk/sub/e && mkdir -p chain/p/q && echo W > lnk/w.txt && touch real/sub/up/sub/t3; echo $?",
    "0\n",
    "",
    "real real/d real/p real/p/q real/sub real/sub/e real/sub/t3 real/sub/up real/t.txt real/w.txt",
  ],
  [
    'd=$(mktemp -d lnk/tmp.XXXXXX) && f=$(mktemp -p lnk) && cd lnk && g=$(mktemp x.XXXX) && cd .. && ls real | wc -l && test -d "real/${d#lnk/}" && test -f "real/${f#lnk/}" && test -f "real/$g" && rm -r "$d" "$f" "lnk/$g"; echo $?',
    "5\n0\n",
    "",
    BASE,
  ],
];

it("ln -s, cp -P/-a/-r and tar -x make links through linked parents, and fail as GNU where the parent does", async () => {
  const got = await inShellWorkspace(async (ws) => {
    const out: [string, string, string, string][] = [];
    for (const [command] of CASES) {
      await resetTree(ws, TREE);
      const r = await sh(ws, command, { cwd: "/workspace" });
      const listing = await sh(ws, "find real real2 2>/dev/null | sort", { cwd: "/workspace" });
      out.push([command, r.stdout, r.stderr, listing.stdout.trim().split("\n").join(" ")]);
    }
    return out;
  });
  expect(got).toEqual(CASES);
}, 300000);

it("a copied or extracted link keeps its target and reads through in the real directory", async () => {
  const got = await inShellWorkspace(async (ws) => {
    await resetTree(ws, TREE);
    const r = await sh(ws, "cp -a src lnk/ && cat real/src/.bin/cli && mkdir -p real2 && ln -s real2 l2 && tar -cf x.tar src && tar -xf x.tar -C l2 && cat l2/src/.bin/cli", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr, cli: await ws.fs.readlink("/workspace/real/src/.bin/cli"), cli2: await ws.fs.readlink("/workspace/real2/src/.bin/cli") };
  });
  expect(got).toEqual({ stdout: "CLICLI", stderr: "", cli: "../pkg/cli.js", cli2: "../pkg/cli.js" });
}, 120000);
