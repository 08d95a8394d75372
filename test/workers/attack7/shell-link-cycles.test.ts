/**
 * Issue 20 seventh attack run, categories 2 and 3 in the shell backend
 * (worker-shell, real workerd): LINK CYCLES under the commands that walk a
 * tree — runs 2–6 tried a `..` link with ls/find and a link loop with cat.
 * Tree: /w/d holding `f` ("hello"), `self -> .` and (second part) `up -> ..`.
 *
 * DEFECT (medium), FIXED — grep/egrep/fgrep and tar are shadowed (worker-shell/walks.ts) to run just-bash's own command with the fs adapter walking as GNU does: -r skips links met while walking, -R lists each directory once, tar -c stores links as links. Reproduction (shell, cwd /w/d, no timeout as the exec
 * tool runs it):
 *   ln -s . self; ln -s .. up; grep -r hello .      # also grep -R, and tar -cf t.tar /w/d
 *   → never ends (with `timeoutMs: 5000`: exit 124 "Execution timed out").
 * just-bash's `grep -r` and `tar -c` decide whether to descend with
 * `fs.stat` (which follows links): every link to a directory is walked
 * again, paths grow until the Workspace's ELOOP (40 links in a path), and
 * with two such links the walk is ~2^40 paths. GNU `grep -r` does not
 * follow links met while walking (`-R` does, and stops at a loop) and GNU
 * `tar` stores a link as a link. With ONE `self -> .` link the walk is
 * bounded but wrong: `grep -r hello .` prints 41 matches (`f`,
 * `self/f`, `self/self/f`, …) and `tar -cf` stores 82 entries, then exits 2
 * with `ELOOP`. find, ls -R, du -a, tree, rg and cp -r walk the same tree
 * correctly (they use lstat).
 * Impact: medium — a repository with such links (pnpm layouts, test
 * fixtures, a link an agent made by mistake) turns an ordinary
 * `grep -r TODO .` from the exec tool into a call that never returns (the
 * exec tool sets no timeout, the shell none by default): the agent loop
 * stalls and the object keeps working on it. Wrong counts otherwise.
 * Fix proposal: give the shell's file-system adapter a way to say "link"
 * to the walkers — patch just-bash's grep/tar walkers (as scripts/gen-git.mjs
 * patches isomorphic-git) to lstat entries found while walking and not
 * descend into links (tar: store them as links; grep -R: follow, but keep a
 * set of visited directory inodes); and/or a default timeout for commands
 * the exec tool runs.
 *
 * Withstood: find, ls -R, du -a, tree, rg, cp -r, chmod -R over the same
 * tree; `rm -r self` removes only the link; awk and sed stop at their
 * 100,000-iteration limit, awk string growth at 16 MiB (exit 126).
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const run = async (ws: Workspace, source: string, timeoutMs = 20_000) => {
  const r = await Promise.race([
    sh(ws, source, { timeoutMs }),
    new Promise<{ exitCode: string; stdout: string; stderr: string }>((res) => setTimeout(() => res({ exitCode: "no answer", stdout: "", stderr: "" }), timeoutMs + 20_000)),
  ]);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
};
const TREE = "mkdir -p /w/d && cd /w/d && echo hello > f && ln -s . self";

describe("attack7: link cycles under the shell's tree walkers", () => {
  it("FIXED (medium): with self -> . and up -> .., grep -r / grep -R / tar -c end, each directory walked once", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await run(ws, `${TREE} && ln -s .. up`);
      return [
        await run(ws, "cd /w/d && grep -r hello .", 5_000),
        await run(ws, "cd /w/d && grep -R hello . | head -1", 5_000),
        await run(ws, "cd /w && tar -cf t.tar d && tar -tf t.tar && mkdir x && tar -xf t.tar -C x d/self && readlink x/d/self", 5_000),
        await run(ws, "cd /w/d && grep -r hello self && egrep -r hell . && fgrep -rn hello .", 5_000),
      ];
    });
    // Before the fix: each { exitCode: 124, stdout: "", stderr: "Execution timed out after 5000 ms\n" }.
    expect(r[0]).toEqual({ exitCode: 0, stdout: "./f:hello\n", stderr: "" });
    expect(r[1]).toEqual({ exitCode: 0, stdout: "./f:hello\n", stderr: "" });
    expect(r[2]).toEqual({ exitCode: 0, stdout: "d/\nd/f\nd/self\nd/up\n.\n", stderr: "" });
    expect(r[3]).toEqual({ exitCode: 0, stdout: "self/f:hello\n./f:hello\n./f:1:hello\n", stderr: "" });
  });

  it("FIXED (low, same cause): with one self -> . link, grep -r prints one match and tar stores 3 entries", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await run(ws, TREE);
      return { grep: await run(ws, "cd /w/d && grep -r hello ."), tar: await run(ws, "cd /w && tar -cf t.tar d; echo rc=$?; tar -tf t.tar | wc -l") };
    });
    // Before the fix: grep printed f:hello, self/f:hello, self/self/f:hello, … (41 lines); tar "rc=2\n82\n".
    expect(r.grep.stdout).toBe("./f:hello\n");
    expect(r.tar.stdout).toBe("rc=0\n3\n");
  });

  it("find, ls -R, du -a, tree, rg, cp -r and chmod -R walk the cyclic tree once; rm -r of the link removes only it", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await run(ws, `${TREE} && ln -s .. up`);
      return [
        await run(ws, "cd /w && find d | sort"),
        await run(ws, "cd /w && ls -R d | wc -l; du -a d | wc -l; tree d | tail -1"),
        await run(ws, "cd /w/d && rg hello"),
        await run(ws, "cd /w && cp -r d d2 && find d2 | wc -l && chmod -R 700 d && echo chmod ok"),
        await run(ws, "cd /w && rm -r d/self && ls d && ls /w"),
      ];
    });
    expect(r[0]).toEqual({ exitCode: 0, stdout: "d\nd/f\nd/self\nd/up\n", stderr: "" });
    expect(r[1]).toEqual({ exitCode: 0, stdout: "4\n4\n0 directories, 3 files\n", stderr: "" });
    expect(r[2]).toEqual({ exitCode: 0, stdout: "f:1:hello\n", stderr: "" });
    expect(r[3]).toEqual({ exitCode: 0, stdout: "4\nchmod ok\n", stderr: "" });
    expect(r[4]).toEqual({ exitCode: 0, stdout: "f\nup\nd\nd2\n", stderr: "" });
  });

  it("awk and sed loops and awk string growth stop at just-bash's limits (exit 126)", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => [
      await run(ws, "awk 'BEGIN{for(i=0;i<10000000;i++)x++; print x}'"),
      await run(ws, `awk 'BEGIN{s="a"; for(i=0;i<30;i++) s=s s; print length(s)}'`),
      await run(ws, "mkdir -p /w && seq 1 90000 > /w/n && sed ':a;N;$!ba;s/\\n/,/g' /w/n"),
      await run(ws, "echo still here"),
    ]);
    expect(r[0]).toEqual({ exitCode: 126, stdout: "", stderr: "awk: awk: for loop exceeded maximum iterations (100000)\n" });
    expect(r[1]).toEqual({ exitCode: 126, stdout: "", stderr: "awk: awk: string concatenation size limit exceeded (16777216 bytes)\n" });
    expect(r[2]).toMatchObject({ stdout: "", stderr: "sed: sed: command execution exceeded maximum iterations (100000)\n" });
    expect(r[3]).toEqual({ exitCode: 0, stdout: "still here\n", stderr: "" });
  });
});
