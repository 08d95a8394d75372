/**
 * Issue 20, twenty-second attack run (fixer SH2): the siblings of the attack22b shell findings on sed -i, the
 * checksum commands, ls -l modes, printf's BOM and od/uniq/wc columns. Every expectation is GNU bash 5.2 /
 * coreutils 9.1 / sed 4.9 output, compared side by side in a temporary directory.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const cases: [name: string, script: string, stdout: string, stderr: string][] = [
  // sed -i with a backup suffix
  ["sed -ni.bak is -n -i.bak", "echo a > f; sed -ni.bak 's/a/b/p' f; cat f f.bak", "b\na\n", ""],
  ["sed -ie makes the backup fe", "echo a > f; sed -ie s/a/b/ f; cat f fe", "b\na\n", ""],
  ["sed --in-place=SUFFIX", "echo a > f; sed --in-place=.orig s/a/b/ f; cat f f.orig", "b\na\n", ""],
  ["sed -i'bk/*.old' puts the backup in bk", "mkdir bk; echo a > f; sed -i'bk/*.old' s/a/b/ f; cat f bk/f.old", "b\na\n", ""],
  ["sed -i'*' is the operand as written", "mkdir s old_s; echo a > s/f; sed -i'old_*' s/a/b/ s/f; cat s/f old_s/f", "b\na\n", ""],
  ["sed -i backup keeps the mode", "echo a > f; chmod 600 f; sed -i.m s/a/b/ f; stat -c '%a %n' f f.m", "600 f\n600 f.m\n", ""],
  ["sed -i backup it cannot make", "echo a > f; sed -i'nodir/*' s/a/b/ f; echo rc=$?; cat f", "rc=4\na\n", "sed: cannot rename f: No such file or directory\n"],
  ["sed -i stops at a directory", "mkdir d; echo a > f; echo a > g; sed -i s/a/b/ f d g; echo rc=$?; cat f g", "rc=4\nb\na\n", "sed: couldn't edit d: not a regular file\n"],
  ["sed -i of only a missing file", "sed -i.bak s/a/b/ nope; echo rc=$?; ls", "rc=2\n", "sed: can't read nope: No such file or directory\n"],
  // sed without -i over several files
  ["sed goes on past a missing file", "echo a > f; echo a > g; sed s/a/b/ f nope g; echo rc=$?", "b\nb\nrc=2\n", "sed: can't read nope: No such file or directory\n"],
  ["sed stops at a directory", "mkdir d; echo a > f; echo a > g; sed s/a/b/ f d g; echo rc=$?", "b\nrc=4\n", "sed: read error on d: Is a directory\n"],
  // md5sum / sha1sum / sha256sum
  ["checksum error not in the sums", "sha256sum nope > sums; echo rc=$?; wc -c < sums", "rc=1\n0\n", "sha256sum: nope: No such file or directory\n"],
  ["-c with an improper line", "echo a > a; sha1sum a > s; echo zz >> s; sha1sum -c s; echo rc=$?", "a: OK\nrc=0\n", "sha1sum: WARNING: 1 line is improperly formatted\n"],
  [
    "-c with a missing file",
    "echo a > a; sha1sum a > s; rm a; sha1sum -c s; echo rc=$?",
    "a: FAILED open or read\nrc=1\n",
    "sha1sum: a: No such file or directory\nsha1sum: WARNING: 1 listed file could not be read\n",
  ],
  ["-c of no checksum lines", "echo x | sha1sum -c; echo rc=$?", "rc=1\n", "sha1sum: 'standard input': no properly formatted checksum lines found\n"],
  ["-c of a missing list", "md5sum -c nosums; echo rc=$?", "rc=1\n", "md5sum: nosums: No such file or directory\n"],
  // ls -l and stat %A modes
  ["stat %A setuid, setgid, sticky", "touch a b; mkdir d; chmod 4755 a; chmod 2644 b; chmod 1777 d; stat -c %A a b d", "-rwsr-xr-x\n-rw-r-Sr--\ndrwxrwxrwt\n", ""],
  ["ls -l entries of a directory", "mkdir e; touch e/x e/y; chmod 700 e/x; ls -l e | tail -n +2 | cut -c1-10", "-rwx------\n-rw-r--r--\n", ""],
  ["ls lists file operands first, then directories", "mkdir e; touch e/x e/y c a; ls c e a", "a\nc\n\ne:\nx\ny\n", ""],
  // printf and $'…' keep a BOM written as \x escapes
  ["printf %b keeps a BOM", "printf '%b' '\\xef\\xbb\\xbfhi' | od -An -tx1", " ef bb bf 68 69\n", ""],
  ["$'…' keeps a BOM", "printf '%s' $'\\xef\\xbb\\xbfhi' | od -An -tx1", " ef bb bf 68 69\n", ""],
  // od, uniq -c, wc
  ["od with two formats", "printf 'abc' > f; od -c -tx1 f", "0000000   a   b   c\n         61  62  63\n0000003\n", ""],
  ["od -An folds repeated lines", "printf '%048d' 0 | tr 0 a | od -An -tx1", `${" 61".repeat(16)}\n*\n`, ""],
  ["od -v prints every line", "printf '%032d' 0 | tr 0 a | od -v -An -c", `${"   a".repeat(16)}\n${"   a".repeat(16)}\n`, ""],
  ["wc of stdin pads to 7", "echo hi | wc; echo hi | wc -l", "      1       1       3\n1\n", ""],
  ["wc width from the total size", "seq 10 > h; : > f; wc -l h f", "10 h\n 0 f\n10 total\n", ""],
  ["wc with a directory pads to 7", "mkdir d; printf 'abc' > f; wc f d", "      0       1       3 f\n      0       0       0 d\n      0       1       3 total\n", "wc: d: Is a directory\n"],
  ["wc when the first operand is missing", "printf 'abc' > f; wc nope f", "0 1 3 f\n0 1 3 total\n", "wc: nope: No such file or directory\n"],
  ["uniq -c -d", "printf 'a\\na\\nb\\n' | uniq -c -d", "      2 a\n", ""],
];

it("sed -i, checksums, ls modes, printf and od/uniq/wc columns answer as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: [string, string, string][] = [];
    for (const [name, script] of cases) {
      const dir = `/workspace/${results.length}`;
      await ws.fs.mkdir(dir, { recursive: true });
      const r = await sh(ws, script, { cwd: dir });
      results.push([name, r.stdout, r.stderr]);
    }
    return results;
  });
  expect(out).toEqual(cases.map(([name, , stdout, stderr]) => [name, stdout, stderr]));
});
