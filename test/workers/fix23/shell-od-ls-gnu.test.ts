/**
 * Issue 20, twenty-third attack run (lead engineer, from run 22's left-alone list): `od` stopped at the first
 * operand it could not read ("No such file or directory" for a directory too) and dumped bytes where GNU od
 * dumps two-byte words; `ls -l` put a `/` after every directory's name. Each expectation is what GNU coreutils
 * 9.1 printed for the same tree ("a\nb\n" in f, a directory d) on this machine, but for the `total` line of
 * `ls -l` (1 KiB blocks of the stored sizes, not of a disk's 4 KiB blocks).
 * Run 36, fixer FS: the `total` pinned here was 2, the number of entries just-bash printed, not blocks; it is now
 * the entries' blocks as this header says — d/e 4096 bytes (8 blocks of 512, as `stat -c %b`), d/g 2 bytes (1) →
 * 5 KiB (GNU on ext4: 8, each file taking a 4 KiB block).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["d/e"], files: { f: "a\nb\n", "d/g": "x\n" } };
const cases: [string, string, string, number][] = [
  ["od nope f d", "0000000 005141 005142\n0000004\n", "od: nope: No such file or directory\nod: d: Is a directory\n", 1],
  ["od f", "0000000 005141 005142\n0000004\n", "", 0],
  ["printf abc | od", "0000000 061141 000143\n0000003\n", "", 0],
  ["printf abcdefghijklmnopqrstuvwxyz | od -v", "0000000 061141 062143 063145 064147 065151 066153 067155 070157\n0000020 071161 072163 073165 074167 075171\n0000032\n", "", 0],
  ["od -b f; od -t o1 f", "0000000 141 012 142 012\n0000004\n".repeat(2), "", 0],
  ["od -to2 f; od -t o f; od -t o4 f", "0000000 005141 005142\n0000004\n" + "0000000 01230405141\n0000004\n".repeat(2), "", 0],
  ["od -c f; od -An -tx1 f", "0000000   a  \\n   b  \\n\n0000004\n 61 0a 62 0a\n", "", 0],
  ["ls -l d | awk '{print $1, $NF}'", "total 5\ndrwxr-xr-x e\n-rw-r--r-- g\n", "", 0],
  ["ls -ld d | awk '{print $1, $NF}'; ls -lF d | awk '{print $1, $NF}'", "drwxr-xr-x d\ntotal 5\ndrwxr-xr-x e/\n-rw-r--r-- g\n", "", 0],
];

it("od goes on past an unreadable operand and dumps words; ls -l adds no slash, as GNU", async () => {
  const out = await shellCases(tree, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout, stderr, code]) => [stdout, stderr, code]));
});
