/**
 * Issue 20, twenty-third attack run, fixer SB1: siblings of the tar -x / gzip findings in test/workers/attack23b/
 * (shell-tar-x-writes-through-existing-link, shell-tar-x-drops-hard-link-members, shell-tar-x-drops-member-modes,
 * shell-gzip-f-writes-through-existing-link, shell-gzip-drops-file-mode). Every expectation is what GNU tar 1.34 and
 * gzip 1.12 printed for the same tree and archives, run as a user who is not root with umask 022 and LC_ALL=C
 * (the shell's user is not root), less GNU tar's last line `tar: Exiting with failure status due to previous
 * errors` and the `Removing leading` notes of `tar -t`, which this tar does not print.
 * The helpers: src/backends/worker-shell/isolate/archive.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, resetTree, sh } from "../shell/helpers.js";
import { ustar, type UstarMember } from "../attack23b/ustar.js";

const ARCHIVES: Record<string, UstarMember[]> = {
  "x.tar": [{"name": "a", "content": "FILE\n"}],
  "ls.tar": [{"name": "a", "type": "2", "linkname": "b"}, {"name": "a", "content": "FILE\n"}],
  "sl.tar": [{"name": "a", "content": "FILE\n"}, {"name": "a", "type": "2", "linkname": "b"}],
  "l.tar": [{"name": "a", "type": "2", "linkname": "b"}],
  "d.tar": [{"name": "d/", "type": "5", "mode": 448}, {"name": "d/f", "content": "F\n"}],
  "m.tar": [{"name": "run.sh", "content": "x\n", "mode": 2541}, {"name": "dd/", "type": "5", "mode": 448}, {"name": "dd/f", "content": "f\n", "mode": 384}, {"name": "ro/", "type": "5", "mode": 320}, {"name": "ro/f", "content": "f\n", "mode": 438}],
  "s.tar": [{"name": "top/a", "content": "A\n", "mode": 384}, {"name": "top/b", "type": "1", "linkname": "top/a"}],
  "z.tar": [{"name": "h", "type": "1", "linkname": "../outside/secret"}],
  "hd.tar": [{"name": "dd/", "type": "5"}, {"name": "h", "type": "1", "linkname": "dd"}],
  "hs.tar": [{"name": "a", "content": "A\n"}, {"name": "l", "type": "2", "linkname": "a"}, {"name": "h", "type": "1", "linkname": "l"}],
  "hk.tar": [{"name": "a", "content": "A\n"}, {"name": "b", "type": "1", "linkname": "a"}],
  "hf.tar": [{"name": "a", "content": "A\n"}, {"name": "b", "type": "1", "linkname": "a"}, {"name": "b", "content": "B\n"}],
  "self.tar": [{"name": "a", "content": "A\n"}, {"name": "a", "type": "1", "linkname": "a"}],
  "t.tar": [{"name": "a", "content": "A\n", "mode": 493}, {"name": "l", "type": "2", "linkname": "a", "mode": 511}, {"name": "h", "type": "1", "linkname": "a"}, {"name": "d/", "type": "5", "mode": 448}, {"name": "u", "type": "1", "linkname": "../x/a"}],
};

const TREE = { dirs: ["outside"], files: { a: "NEW\n", "outside/secret": "S\n" } };

/** Runs each command in a fresh copy of TREE (with ARCHIVES when `archives`), in /workspace. */
async function cases(commands: readonly string[], archives: boolean): Promise<[string, string, string][]> {
  return inShellWorkspace(async (ws) => {
    const out: [string, string, string][] = [];
    for (const command of commands) {
      await resetTree(ws, TREE);
      if (archives) for (const [name, members] of Object.entries(ARCHIVES)) await ws.fs.writeFile(`/workspace/${name}`, ustar(members));
      const r = await sh(ws, command, { cwd: "/workspace" });
      out.push([command, r.stdout, r.stderr]);
    }
    return out;
  });
}

describe("tar -x as GNU tar 1.34", () => {
  const expected: [string, string, string][] = [
    ["mkdir o; tar -xf ls.tar -C o; echo rc=$?; stat -c '%F %n' o/a; cat o/a", "rc=0\nregular file o/a\nFILE\n", ""],
    ["mkdir o; tar -xf sl.tar -C o; echo rc=$?; stat -c '%F %n' o/a; readlink o/a", "rc=0\nsymbolic link o/a\nb\n", ""],
    ["mkdir -p o/a/z o2/a; tar -xf x.tar -C o; echo rc=$?; tar -xf x.tar -C o2; echo rc=$?; stat -c '%F %n' o/a o/a/z o2/a; cat o2/a", "rc=2\nrc=0\ndirectory o/a\ndirectory o/a/z\nregular file o2/a\nFILE\n", "tar: a: Cannot open: File exists\n"],
    ["mkdir o; ln -s ../outside o/d; tar -xf d.tar -C o; echo rc=$?; stat -c '%F %a %n' o/d; ls outside; cat o/d/f", "rc=0\ndirectory 700 o/d\nsecret\nF\n", ""],
    ["mkdir o; ln -s ../outside o/d; tar -xkf d.tar -C o; echo rc=$?; stat -c '%F %n' o/d; ls outside", "rc=0\nsymbolic link o/d\nf\nsecret\n", ""],
    ["mkdir o; echo x > o/d; tar -xf d.tar -C o; echo rc=$?; stat -c '%F %n' o/d; cat o/d/f", "rc=0\ndirectory o/d\nF\n", ""],
    ["mkdir o; echo x > o/d; tar -xkf d.tar -C o; echo rc=$?; stat -c '%F %n' o/d; cat o/d", "rc=2\nregular file o/d\nx\n", "tar: d/f: Cannot open: Not a directory\n"],
    ["mkdir -p o/d p/d; tar -xf d.tar -C o; tar -xkf d.tar -C p; echo rc=$?; stat -c '%a %n' o/d p/d", "rc=0\n700 o/d\n755 p/d\n", ""],
    ["mkdir o; echo OLD > o/a; tar -xkf x.tar -C o; echo rc=$?; cat o/a", "rc=2\nOLD\n", "tar: a: Cannot open: File exists\n"],
    ["mkdir o; echo OLD > o/a; tar -xkf l.tar -C o; echo rc=$?; cat o/a", "rc=2\nOLD\n", "tar: a: Cannot create symlink to 'b': File exists\n"],
    ["mkdir o; ln -s ../outside/new o/a; tar -xkf x.tar -C o; echo rc=$?; ls outside", "rc=2\nsecret\n", "tar: a: Cannot open: File exists\n"],
    ["mkdir o p; tar -xf m.tar -C o; echo rc=$?; tar -xpf m.tar -C p; echo rc=$?; stat -c '%a %n' o/run.sh o/dd o/dd/f o/ro o/ro/f p/run.sh p/ro/f", "rc=0\nrc=0\n755 o/run.sh\n700 o/dd\n600 o/dd/f\n500 o/ro\n644 o/ro/f\n4755 p/run.sh\n666 p/ro/f\n", ""],
    ["mkdir o; tar -xf s.tar -C o --strip-components=1; echo rc=$?; stat -c '%F %a %n' o/a o/b; cat o/b", "rc=0\nregular file 600 o/a\nregular file 600 o/b\nA\n", ""],
    ["mkdir o; tar -xf z.tar -C o; echo rc=$?; ls o", "rc=2\n", "tar: Removing leading `../' from hard link targets\ntar: h: Cannot hard link to 'outside/secret': No such file or directory\n"],
    ["mkdir o; tar -xf hd.tar -C o; echo rc=$?; ls o", "rc=2\ndd\n", "tar: h: Cannot hard link to 'dd': Operation not permitted\n"],
    ["mkdir o; tar -xf hs.tar -C o; echo rc=$?; readlink o/h", "rc=0\na\n", ""],
    ["mkdir o; echo OLD > o/b; tar -xkf hk.tar -C o; echo rc=$?; cat o/b", "rc=2\nOLD\n", "tar: b: Cannot hard link to 'a': File exists\n"],
    ["mkdir o; echo OLD > o/b; tar -xf hk.tar -C o; echo rc=$?; cat o/b", "rc=0\nA\n", ""],
    ["mkdir o; tar -xf hf.tar -C o; echo rc=$?; cat o/a o/b", "rc=0\nA\nB\n", ""],
    ["mkdir o; tar -xf self.tar -C o; echo rc=$?; cat o/a", "rc=0\nA\n", ""],
    ["mkdir -p s/d && echo x > s/d/f && ln -s f s/d/l && chmod 700 s/d && chmod 750 s/d/f && tar -czf t.tgz -C s d && mkdir o && tar -xzf t.tgz -C o; echo rc=$?; stat -c '%A %n' o/d o/d/f o/d/l; tar -xOf t.tgz d/f; tar -xzf t.tgz -C o; echo rc=$?; cat o/d/l", "rc=0\ndrwx------ o/d\n-rwxr-x--- o/d/f\nlrwxrwxrwx o/d/l\nx\nrc=0\nx\n", ""],
    ["tar -tvf t.tar | cut -c1-10; tar -tvf t.tar | grep -o ' -> .*\\| link to .*'", "-rwxr-xr-x\nlrwxrwxrwx\nhrw-r--r--\ndrwx------\nhrw-r--r--\n -> a\n link to a\n link to x/a\n", ""],
  ];
  it("replaces what is at a member's path, keeps it with -k (status 2), makes hard links as copies, applies modes", async () => {
    expect(await cases(expected.map(([command]) => command), true)).toEqual(expected);
  });
});

describe("gzip as GNU gzip 1.12", () => {
  const expected: [string, string, string][] = [
    ["ln -s outside/new a.gz; gzip a; echo rc=$?; ls outside", "rc=2\nsecret\n", "gzip: a.gz already exists;\tnot overwritten\n"],
    ["mkdir a.gz; gzip -f a; echo rc=$?; ls", "rc=1\na\na.gz\noutside\n", "gzip: a.gz: Is a directory\n"],
    ["mkdir d; echo x > d/a; echo y > d/a.gz; gzip d/a; echo rc=$?", "rc=2\n", "gzip: d/a.gz already exists;\tnot overwritten\n"],
    ["ln -s a l; gzip -f l; echo rc=$?; ls; gzip -dc l.gz", "rc=0\na\nl.gz\noutside\nNEW\n", ""],
    ["ln -s a l; gzip -c l | gzip -dc; ls", "NEW\na\nl\noutside\n", ""],
    ["gzip -k a; ln -s a.gz lz.gz; gzip -d lz.gz; echo rc=$?; ls", "rc=1\na\na.gz\nlz.gz\noutside\n", "gzip: lz.gz: Too many levels of symbolic links\n"],
    ["mkdir r; echo x > r/f; ln -s f r/lf; gzip -r r; echo rc=$?; ls r", "rc=1\nf.gz\nlf\n", "gzip: r/lf: Too many levels of symbolic links\n"],
    ["mkdir r; echo x > t; ln -s ../t r/lt; gzip -rf r; echo rc=$?; ls r; cat t", "rc=0\nlt.gz\nx\n", ""],
    ["chmod 755 a; gzip -k a; stat -c '%a %n' a.gz; gzip -dfk a.gz; stat -c '%a %n' a", "755 a.gz\n755 a\n", ""],
    ["gzip -k a; gzip -dk a.gz; echo rc=$?; ls", "rc=2\na\na.gz\noutside\n", "gzip: a already exists;\tnot overwritten\n"],
  ];
  it("never writes through a link, refuses a link operand without -f/-c, keeps the mode, says `already exists` (status 2)", async () => {
    expect(await cases(expected.map(([command]) => command), false)).toEqual(expected);
  });
});
