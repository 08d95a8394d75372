/**
 * Issue 20, thirty-sixth fix run (fixer FS): the shell's view of a directory has st_size 4096, as ext4 on Linux (where
 * bash and GNU coreutils run), so every consumer of the size agrees with GNU. Sibling of
 * test/workers/attack36d/find-size-zero-matches-directories.test.ts (`find -size 0` listed every directory, and `find
 * -size 0 -delete` removed empty ones).
 * Neighbourhood: `stat -c %s/%b` (with and without -L through a link to a directory), the `ls -l`/`ls -ld` size column
 * and `total` line (1 KiB blocks of the entries, `.`/`..` too, not the number of entries), `find -size
 * N`/`Nc`/`Nk`/`+N`/`-N` (512-byte blocks rounded up, as GNU), `-empty` (still "no entries"), `find -printf %s`, `test
 * -s`/`[ -s ]`/`[[ -s ]]` (true for a directory, also the command directory /usr/bin), `du` (counts a directory's own
 * 4096 bytes; an empty file is 0, no longer 1), `wc -c` of a directory (an error, as before) and `tar` headers (a
 * directory is 0 there, as GNU tar), and the Workspace's own `stat` of a directory, which stays `size: 0` (spec 01).
 * Expected outputs: bash 5.2.15, GNU coreutils 9.1, findutils 4.9, tar 1.34 on this machine's ext4, the same tree made
 * under /tmp. Our `du` has no block allocation to count (the Workspace stores bytes), so it reports apparent sizes:
 * its expectations are GNU `du --apparent-size` (GNU's default `du d` on ext4 is 28, counting each file's 4 KiB
 * block). A block is 512 bytes of st_size (`%b`), so `ls -l`'s `total` matches GNU's where the entries are directories
 * and empty files (a 2-byte file is 1 block here, 8 on ext4). The link's `%b` (GNU 0, a fast symlink) and files' `%b`
 * (GNU 8 for a 2-byte file) depend on ext4's allocation and are left out; directories' `%b` (8) are in.
 */
import { describe, expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  dirs: ["d/e", "d/n/m"],
  files: { "d/z": "", "d/y": "x\n", "d/n/m/f": "a".repeat(5000) },
  links: { "d/l": "n" },
};

/** [command, stdout, stderr] as GNU gives them on the same tree. */
const cases: [string, string, string][] = [
  ["stat -c '%n %s %b' d d/e d/n d/z; stat -c '%n %s' d/l", "d 4096 8\nd/e 4096 8\nd/n 4096 8\nd/z 0 0\nd/l 1\n", ""],
  ["stat -L -c '%n %s %b' d/l", "d/l 4096 8\n", ""],
  ["ls -ld d d/e | awk '{print $5, $NF}'", "4096 d\n4096 d/e\n", ""],
  ["ls -l d | awk 'NR>1 && /^d/{print $5, $NF}'", "4096 e\n4096 n\n", ""],
  ["ls -l d/n | head -1", "total 4\n", ""],
  ["ls -l d/e", "total 0\n", ""],
  ["ls -la d/e | awk '{print $5, $NF}'", " 8\n4096 .\n4096 ..\n", ""],
  ["ls -la d/n | awk '{print $5, $NF}'", " 12\n4096 .\n4096 ..\n4096 m\n", ""],
  ["mkdir -p t/a t/b; : > t/z; ls -l t | head -1; ls -la t | head -1", "total 8\ntotal 16\n", ""],
  ["find d -size 0 | sort", "d/z\n", ""],
  ["find d -size -1k | sort", "d/z\n", ""],
  ["find d -size 4k | sort", "d\nd/e\nd/n\nd/n/m\n", ""],
  ["find d -size 4096c | sort", "d\nd/e\nd/n\nd/n/m\n", ""],
  ["find d -size 8 | sort", "d\nd/e\nd/n\nd/n/m\n", ""],
  ["find d -size +4k | sort", "d/n/m/f\n", ""],
  ["find d -size -2 | sort", "d/l\nd/y\nd/z\n", ""],
  ["find d -type d -size -4097c | sort", "d\nd/e\nd/n\nd/n/m\n", ""],
  ["find d -empty | sort", "d/e\nd/z\n", ""],
  ["find d -printf '%s %p\\n' | sort -k2", "4096 d\n4096 d/e\n1 d/l\n4096 d/n\n4096 d/n/m\n5000 d/n/m/f\n2 d/y\n0 d/z\n", ""],
  [
    "for p in d d/e d/z d/y d/l /usr/bin; do if test -s $p; then echo \"$p yes\"; else echo \"$p no\"; fi; done",
    "d yes\nd/e yes\nd/z no\nd/y yes\nd/l yes\n/usr/bin yes\n",
    "",
  ],
  ["[ -s d/e ] && [[ -s d ]] && echo both", "both\n", ""],
  ["du d | sort -k2", "21\td\n4\td/e\n13\td/n\n9\td/n/m\n", ""],
  ["du -a d | sort -k2", "21\td\n4\td/e\n1\td/l\n13\td/n\n9\td/n/m\n5\td/n/m/f\n1\td/y\n0\td/z\n", ""],
  ["du -s d/e d/n d/z", "4\td/e\n13\td/n\n0\td/z\n", ""],
  ["du -c d/e d/n", "4\td/e\n9\td/n/m\n13\td/n\n17\ttotal\n", ""],
  ["du --max-depth=1 d | sort -k2", "21\td\n4\td/e\n13\td/n\n", ""],
  ["wc -c d; echo rc=$?", "0 d\nrc=1\n", "wc: d: Is a directory\n"],
  ["tar cf - d | tar tvf - | awk '/^d/{print $3, $NF}' | sort -k2", "0 d/\n0 d/e/\n0 d/n/\n0 d/n/m/\n", ""],
  ["find d -size 0 -delete; echo st=$?; find d | sort", "st=0\nd\nd/e\nd/l\nd/n\nd/n/m\nd/n/m/f\nd/y\n", ""],
];

describe("fix36 FS: a directory is 4096 bytes in the shell, as on ext4", () => {
  it("stat, ls -l, find -size/-empty, test -s, du, wc and tar agree with GNU on a directory's size", async () => {
    const results = await shellCases(tree, cases.map(([command]) => command));
    expect(results).toEqual(cases);
  });

  it("the Workspace's own stat of a directory stays size 0 while the shell shows 4096", async () => {
    const results = await shellCases(tree, ["stat -c %s d"], {
      collect: async (ws, command, r) => [command, r.stdout, (await ws.fs.stat("/workspace/d")).size, (await ws.fs.stat("/workspace/d/n/m/f")).size],
    });
    expect(results).toEqual([["stat -c %s d", "4096\n", 0, 5000]]);
  });
});
