/**
 * Issue 20, run 29, fixer DP: the shell's tree walks go as deep as a Workspace path can (MAX_WALK_DEPTH, 5,793 — see
 * src/backends/worker-shell/isolate/deep-walks.ts) instead of stopping 256 (grep -r/-R, rg) or 1000 (find silently;
 * du, ls -R, cp -r, chmod -R loudly) directories down. Siblings of test/workers/attack29b/shell-grep-r-skips-files-
 * below-depth-256.test.ts and shell-find-skips-entries-below-depth-1000.test.ts; expectations from GNU grep 3.8,
 * findutils 4.9, coreutils 9.1, tar 1.34 and bash 5.2 on the same trees.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

/** Runs each command in /workspace after `build`, returning `[command, exitCode, stdout, stderr]`. */
async function run(build: (ws: Parameters<Parameters<typeof inShellWorkspace>[0]>[0]) => Promise<void>, commands: readonly string[]) {
  return inShellWorkspace(async (ws) => {
    await build(ws);
    const out: [string, number, string, string][] = [];
    for (const command of commands) {
      const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 120_000 });
      out.push([command, r.exitCode, r.stdout, r.stderr]);
    }
    return out;
  });
}

it("grep -r/-R, egrep, fgrep and rg find a file 300 directories down, as GNU grep and ripgrep", async () => {
  const commands = [
    "grep -rc TODO d | wc -l",
    "grep -Rq TODO d; echo $?",
    "egrep -rl TODO d | wc -l",
    "fgrep -rl TODO d | wc -l",
    "grep -rL nomatch d | wc -l",
    "grep -r --include='*.txt' -l TODO d | wc -l",
    "grep -rh TODO .",
    "grep -rn TODO d | cut -c 600-",
    "rg -c TODO d | wc -l",
    "rg --files d | wc -l",
    "rg --max-depth 10 -l TODO d | wc -l",
  ];
  const out = await run(async (ws) => {
    await ws.fs.mkdir("/workspace/" + "d/".repeat(300), { recursive: true });
    await ws.fs.writeFile("/workspace/" + "d/".repeat(300) + "mid.txt", "TODO\n");
    await ws.fs.writeFile("/workspace/top.txt", "TODO\n");
  }, commands);
  // Was: 0, 1, 0, 0, 0, 0, "TODO\n" (top.txt only), "", 0, 0, 0 — nothing below depth 256 was searched or listed.
  expect(out).toEqual([
    ["grep -rc TODO d | wc -l", 0, "1\n", ""],
    ["grep -Rq TODO d; echo $?", 0, "0\n", ""],
    ["egrep -rl TODO d | wc -l", 0, "1\n", ""],
    ["fgrep -rl TODO d | wc -l", 0, "1\n", ""],
    ["grep -rL nomatch d | wc -l", 0, "1\n", ""],
    ["grep -r --include='*.txt' -l TODO d | wc -l", 0, "1\n", ""],
    ["grep -rh TODO .", 0, "TODO\nTODO\n", ""],
    ["grep -rn TODO d | cut -c 600-", 0, "/mid.txt:1:TODO\n", ""],
    ["rg -c TODO d | wc -l", 0, "1\n", ""],
    ["rg --files d | wc -l", 0, "1\n", ""],
    // An explicit --max-depth still holds (ripgrep's own option).
    ["rg --max-depth 10 -l TODO d | wc -l", 0, "0\n", ""],
  ]);
}, 300_000);

it("find, du, ls -R, tree, chmod -R, globstar and tar reach a file 1003 directories down, as GNU", async () => {
  const commands = [
    "find d -name deep.txt | wc -l",
    "find d -type f -exec echo {} \\; | wc -l",
    "find d | wc -l",
    "find d -mindepth 1003 -type f | wc -l",
    "find d -maxdepth 1002 -type f | wc -l",
    "find d -name deep.txt -printf '%d\\n'",
    "find d -type f | xargs cat | wc -l",
    "du -a d | wc -l",
    "ls -R d | grep -c txt",
    "tree d | grep -c txt",
    "chmod -R u+x d; echo $?; find d -name deep.txt -perm -100 | wc -l",
    "shopt -s globstar; echo d/**/*.txt | wc -w",
    "tar cf x.tar d; echo $?; tar tf x.tar | grep -c txt",
  ];
  const out = await run(async (ws) => {
    await ws.fs.mkdir("/workspace/" + "d/".repeat(1003), { recursive: true });
    await ws.fs.writeFile("/workspace/" + "d/".repeat(300) + "mid.txt", "TODO\n");
    await ws.fs.writeFile("/workspace/" + "d/".repeat(1003) + "deep.txt", "TODO\n");
  }, commands);
  // Was: find 0 / 1 / 1001 / 0 / 1 / "" / 1 without a word; du, ls -R and chmod -R `bash: du: filesystem traversal
  // depth limit exceeded (1000)`, 126.
  expect(out).toEqual([
    ["find d -name deep.txt | wc -l", 0, "1\n", ""],
    ["find d -type f -exec echo {} \\; | wc -l", 0, "2\n", ""],
    ["find d | wc -l", 0, "1005\n", ""],
    ["find d -mindepth 1003 -type f | wc -l", 0, "1\n", ""],
    ["find d -maxdepth 1002 -type f | wc -l", 0, "1\n", ""],
    ["find d -name deep.txt -printf '%d\\n'", 0, "1003\n", ""],
    ["find d -type f | xargs cat | wc -l", 0, "2\n", ""],
    ["du -a d | wc -l", 0, "1005\n", ""],
    ["ls -R d | grep -c txt", 0, "2\n", ""],
    ["tree d | grep -c txt", 0, "2\n", ""],
    ["chmod -R u+x d; echo $?; find d -name deep.txt -perm -100 | wc -l", 0, "0\n1\n", ""],
    ["shopt -s globstar; echo d/**/*.txt | wc -w", 0, "2\n", ""],
    ["tar cf x.tar d; echo $?; tar tf x.tar | grep -c txt", 0, "0\n2\n", ""],
  ]);
}, 400_000);
