/**
 * Issue 20, twentieth attack run (fix SH): the neighbours of the attack20b shell tests on operands of '' or ending in
 * `.`/`..` (shell-rm-dot-removes-directory, shell-rmdir-mv-dot-acts-on-directory, shell-find-delete-removes-dot,
 * shell-cp-r-link-slash-copies-link, shell-empty-operand-names-cwd): each as Linux/GNU answers it, the tree unchanged
 * unless said. `rm d/.` without -r is `Is a directory` (GNU checks that first); rmdir of a last `..` is ENOTEMPTY
 * (rmdir(2)); `find d/. -delete` empties d and refuses d/. itself (EINVAL); `mv ./ z` is EBUSY; `mv link/ y` is
 * ENOTDIR (rename(2): the entry is a link), in just-bash's wording; `which ''` finds nothing; `cat ''` is ENOENT.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const TREE = "/workspace /workspace/d /workspace/d/f.txt /workspace/d/sub /workspace/e /workspace/keep /workspace/link ";

const cases: [string, string, string][] = [
  ["rm d/.", "rc=1\n" + TREE, "rm: cannot remove 'd/.': Is a directory\n"],
  ["rmdir d/sub/..", "rc=1\n" + TREE, "rmdir: failed to remove 'd/sub/..': Directory not empty\n"],
  ["find d/. -delete", "rc=1\n/workspace /workspace/d /workspace/e /workspace/keep /workspace/link ", "find: cannot delete 'd/.': Invalid argument\n"],
  ["mv ./ z", "rc=1\n" + TREE, "mv: cannot move './' to 'z': Device or resource busy\n"],
  ["mv link/ y", "rc=1\n" + TREE, "mv: cannot move 'link/': ENOTDIR: not a directory, mv '/workspace/link/'\n"],
  ["which ''", "rc=1\n" + TREE, ""],
  ["cat ''", "rc=1\n" + TREE, "cat: : No such file or directory\n"],
];

it("more operands of '' or ending in . or .. answer as Linux, nothing else changed", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: { stdout: string; stderr: string }[] = [];
    for (const [command] of cases) {
      await ws.fs.rm("/workspace", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
      await ws.fs.mkdir("/workspace/e", { recursive: true });
      await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
      await ws.fs.writeFile("/workspace/keep", "keep\n");
      await ws.fs.symlink("d", "/workspace/link");
      const r = await sh(ws, `${command}; echo rc=$?; find /workspace | sort | tr '\\n' ' '`, { cwd: "/workspace" });
      results.push({ stdout: r.stdout, stderr: r.stderr });
    }
    return results;
  });
  expect(out).toEqual(cases.map(([, stdout, stderr]) => ({ stdout, stderr })));
});
