/**
 * Issue 20, thirty-first run, fixer TC: siblings of attack31d/shell-tar-tv-listing-columns — `tar -tv` lines, `tar -C`
 * of a missing directory, and the cp/mkdir options agent scripts use that just-bash's refused (`cp -f`, `-a`, `-d`,
 * `-P`, `-u`, `-T`, `-t`, `--parents`, `mkdir -m`). Every expectation was taken from GNU tar 1.34 / coreutils 9.1 in a
 * temp dir (umask 022).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function run(source: string): Promise<[number, string, string]> {
  return inShellWorkspace(async (ws) => {
    const r = await sh(ws, source, { cwd: "/workspace" });
    return [r.exitCode, r.stdout, r.stderr];
  });
}

it("tar -tv lines are GNU's: MODE user/group SIZE YYYY-MM-DD HH:MM NAME, links with ->", async () => {
  const out = await run(
    "mkdir src; printf 'hello\\n' > src/a.txt; ln -s a.txt src/l; tar czf o.tgz src; d=$(date -u '+%Y-%m-%d %H:%M'); tar tzvf o.tgz | sed \"s/$d/DATE/\"",
  );
  // GNU tar 1.34 on this archive (its header names the owner user/user).
  expect(out).toEqual([
    0,
    "drwxr-xr-x user/user         0 DATE src/\n-rw-r--r-- user/user         6 DATE src/a.txt\nlrwxrwxrwx user/user         0 DATE src/l -> a.txt\n",
    "",
  ]);
});

it("tar -x and -t with -C of a missing directory or a file fail as GNU tar, extracting nothing", async () => {
  const out = await run(
    "printf 'x\\n' > a; tar czf a.tgz a; tar xzf a.tgz -C nosuchdir; echo $?; tar tzf a.tgz -C nosuch; echo $?; tar xzOf a.tgz -C a; echo $?; ls; mkdir d; tar xzf a.tgz -C d; echo $?; cat d/a",
  );
  expect(out).toEqual([
    0,
    "2\n2\n2\na\na.tgz\n0\nx\n",
    "tar: nosuchdir: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n" +
      "tar: nosuch: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n" +
      "tar: a: Cannot open: Not a directory\ntar: Error is not recoverable: exiting now\n",
  ]);
});

it("mkdir -m MODE gives the directories it makes MODE (octal or symbolic from a=rwx), parents the umask's", async () => {
  const out = await run(
    "mkdir -m 700 m1; mkdir -m go-w m2; mkdir -pm 711 x/y/z; mkdir -m u+x m4; mkdir --mode==rwx m5; mkdir -m -w m6; mkdir -m o-x m7; stat -c '%a %n' m1 m2 m4 m5 m6 m7 x x/y x/y/z; mkdir -m 9 bad; echo $?; mkdir -m 700 m1; echo $?; mkdir -p -m 700 x; stat -c %a x; ls -d bad",
  );
  expect(out).toEqual([
    2,
    "700 m1\n755 m2\n777 m4\n755 m5\n577 m6\n776 m7\n755 x\n755 x/y\n711 x/y/z\n1\n1\n755\n",
    "mkdir: invalid mode '9'\nmkdir: cannot create directory 'm1': File exists\nls: cannot access 'bad': No such file or directory\n",
  ]);
});

it("cp -f copies over a file and still refuses to write through a dangling link", async () => {
  const out = await run("printf 'x\\n' > a; printf 'old\\n' > b; cp -f a b; echo $?; cat b; ln -s nosuch dl; cp -f a dl; echo $?; cp --force a c; cat c");
  expect(out).toEqual([0, "0\nx\n1\nx\n", "cp: not writing through dangling symlink 'dl'\n"]);
});

it("cp -a copies a tree with its links as links and its modes; -d/-P copy a link operand as a link", async () => {
  const out = await run(
    "mkdir -p p/q; printf 'hi\\n' > p/q/f; chmod 600 p/q/f; chmod 750 p/q; ln -s q/f p/lf; cp -a p pa; stat -c '%a %n' pa pa/q pa/q/f; readlink pa/lf; printf 'x\\n' > a; ln -s a la; cp -P la lb; cp -d la lc; cp --no-dereference la ld; cp la le; readlink lb lc ld; cat le; stat -c %F le",
  );
  expect(out).toEqual([0, "755 pa\n750 pa/q\n600 pa/q/f\nq/f\na\na\na\nx\nregular file\n", ""]);
});

it("cp -u copies only when the destination is missing or older, at every level with -r", async () => {
  const out = await run(
    "printf 'x\\n' > a; cp -u a b; cat b; printf 'y\\n' > b; cp -u a b; echo $?; cat b; sleep 1; printf 'z\\n' > a; cp -u a b; cat b; mkdir d e; echo 1 > d/f; cp -u -r d e; printf 'new\\n' > e/d/f; cp -ru d e; cat e/d/f; cp -ru d/. e/; find e | sort",
  );
  expect(out).toEqual([0, "x\n0\ny\nz\nnew\ne\ne/d\ne/d/f\ne/f\n", ""]);
});

it("cp -T treats DEST as a file, cp -t DIR names the directory first", async () => {
  const out = await run(
    "printf 'x\\n' > a; mkdir d; mkdir -p p/q; echo hi > p/q/f; cp -T a d; echo $?; cp -T a b c; echo $?; cp -T a n; cat n; cp -rT p d; echo $?; find d | sort; cp -t d a n; ls d; cp -t nodir a; echo $?; cp -t a a; echo $?; cp --target-directory=d -r p; ls d/p",
  );
  expect(out).toEqual([
    0,
    "1\n1\nx\n0\nd\nd/q\nd/q/f\na\nn\nq\n1\n1\nq\n",
    "cp: cannot overwrite directory 'd' with non-directory\ncp: extra operand 'c'\nTry 'cp --help' for more information.\n" +
      "cp: target directory 'nodir': No such file or directory\ncp: target directory 'a': Not a directory\n",
  ]);
});

it("cp --parents copies p/q/f to DIR/p/q/f, making DIR/p and DIR/p/q with their sources' modes", async () => {
  const out = await run(
    "mkdir d; mkdir -p p/q; chmod 700 p; echo hi > p/q/f; cp --parents p/q/f d; echo $?; stat -c '%a %n' d/p d/p/q d/p/q/f; cat d/p/q/f; printf 'x\\n' > a; cp --parents p/q/f a; echo $?; cp -r --parents p/q d/x 2>&1; mkdir e; cp -r --parents p/q e; find e | sort",
  );
  expect(out).toEqual([
    0,
    "0\n700 d/p\n755 d/p/q\n644 d/p/q/f\nhi\n1\ncp: with --parents, the destination must be a directory\nTry 'cp --help' for more information.\ne\ne/p\ne/p/q\ne/p/q/f\n",
    "cp: with --parents, the destination must be a directory\nTry 'cp --help' for more information.\n",
  ]);
});
