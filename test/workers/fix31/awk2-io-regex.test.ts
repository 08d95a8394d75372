/**
 * Issue 20, run 31, fixer AW2: siblings of the attack31f dynamic-regex and replacement-backslash findings and the
 * attack31b quadratic `print > file` finding. Expectations are gawk 5.2.1's and mawk 1.3.4's (they agree on each,
 * except gensub, gawk's alone).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

it("awk's string regexes are the ERE they hold: slashes are characters", async () => {
  const cmd = `echo 'a/x/b /' | awk '{ re="/"; t=$0; n=gsub(re,"_",t); print n, t; t=$0; gsub("/x/","-",t); print t; print match($0,"/"), RSTART, RLENGTH; print ($2 ~ "^/$"), split("a/b/c",p,"/"), p[3] }'`;
  expect(await shellCases({}, [cmd])).toEqual([[cmd, "3 a_x_b _\na-b /\n2 2 1\n1 3 c\n", ""]]);
});

it("awk sub/gsub replacements: \\& is &, \\\\& a backslash and the match, \\q stays \\q; gensub's \\c is c", async () => {
  const cmds = [
    `printf 'a\\\\b\\n' | awk '{ s=$0; gsub(/b/,"[\\\\q]",s); print s; s=$0; gsub(/b/,"\\\\\\\\&",s); print s; s=$0; gsub(/b/,"\\\\&",s); print s; s=$0; gsub(/b/,"<&>",s); print s }'`,
    `awk 'BEGIN { print gensub(/b/, "\\\\t\\\\n\\\\.", "g", "abc") }'`,
  ];
  expect(await shellCases({}, cmds)).toEqual([
    [cmds[0], "a\\[\\q]\na\\\\b\na\\&\na\\<b>\n", ""],
    // Was: "a\t\n.c\n"
    [cmds[1], "atn.c\n", ""],
  ]);
});

it("awk output files: kept while open, written at close/fflush/the end; close ends a > opening", async () => {
  const cmds = [
    // Was: "got a\ngot b\ngot c\n" (close did not end the > opening: the next print > appended).
    `awk 'BEGIN{print "a" > "f"; print "b" > "f"; close("f"); print "c" > "f"; close("f"); while((getline l < "f")>0) print "got", l}'; cat f`,
    // Was: "read x\n…" (as gawk's stdio, text not yet flushed is not read back).
    `awk 'BEGIN{print "x" > "i"; while ((getline l < "i")>0) print "read", l; print "y" >> "i"; printf "%s|", "z" > "i"; close("i"); print "p" >> "i"; close("i")}'; cat i`,
    `printf 'old\\n' > ap; awk 'BEGIN{print "n1" >> "ap"; print "n2" >> "ap"}'; cat ap`,
    `awk 'BEGIN{print "y" > "j"; fflush("j"); "cat j" | getline v; print "[" v "]"; close("cat j"); print "y2" > "k"; fflush(); "cat k" | getline w; print "[" w "]"}'`,
    `awk 'BEGIN{print "x" > "/nodir/x"; print "after"}'; echo $?`,
    `printf '1 a\\n2 b\\n3 c\\n4 d\\n' | awk '{print > ("k" ($1 % 2) ".txt"); print $2 > "/dev/null"} END{print "end" > "k1.txt"}'; head k0.txt k1.txt`,
    `printf '1\\n2\\n' | awk '{print; print "x" > "o"; exit 3}'; echo $?; cat o`,
  ];
  expect(await shellCases({}, cmds)).toEqual([
    [cmds[0], "got c\nc\n", ""],
    [cmds[1], "x\ny\nz|p\n", ""],
    [cmds[2], "old\nn1\nn2\n", ""],
    [cmds[3], "[y]\n[y2]\n", ""],
    [cmds[4], "2\n", "awk: ENOENT: no such file or directory, write '/nodir/x'\n"],
    [cmds[5], "==> k0.txt <==\n2 b\n4 d\n\n==> k1.txt <==\n1 a\n3 c\nend\n", ""],
    [cmds[6], "1\n3\nx\n", ""],
  ]);
});

it("awk print > file: 60,000 lines (1.6 MB, past the 1 MiB a file keeps) into one file and by key, every byte", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const lines: string[] = [];
    for (let i = 0; i < 60000; i++) lines.push(`${i} k${i % 3} some text here`);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/in.txt", lines.join("\n") + "\n");
    const r = await sh(ws, `awk '{print > "all.txt"; printf "%s\\n", $0 >> ($2 ".txt")}' in.txt; echo $?; cmp in.txt all.txt && cat k0.txt k1.txt k2.txt | sort -n | cmp - in.txt && wc -l < k1.txt`, { cwd: "/workspace", timeoutMs: 30000 });
    return [r.stdout, r.stderr, r.exitCode];
  });
  expect(out).toEqual(["0\n20000\n", "", 0]);
}, 90000);
