/**
 * Issue 20, twentieth attack run (fix SH): the neighbours of the attack20b shell tests on operands of '' or ending in
 * `.`/`..` (shell-rm-dot-removes-directory, shell-rmdir-mv-dot-acts-on-directory, shell-find-delete-removes-dot,
 * shell-cp-r-link-slash-copies-link, shell-empty-operand-names-cwd): each as Linux/GNU answers it, the tree unchanged
 * unless said. `rm d/.` without -r is `Is a directory` (GNU checks that first); rmdir of a last `..` is ENOTEMPTY
 * (rmdir(2)); `find d/. -delete` empties d and refuses d/. itself (EINVAL); `mv ./ z` is EBUSY; `mv link/ y` is
 * ENOTDIR (rename(2): the entry is a link), in just-bash's wording; `which ''` finds nothing; `cat ''` is ENOENT.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d/sub", "e"], files: { "d/f.txt": "keep\n", keep: "keep\n" }, links: { link: "d" } };
const LISTING = "/workspace /workspace/d /workspace/d/f.txt /workspace/d/sub /workspace/e /workspace/keep /workspace/link ";

const cases: [string, string, string][] = [
  ["rm d/.", "rc=1\n" + LISTING, "rm: cannot remove 'd/.': Is a directory\n"],
  ["rmdir d/sub/..", "rc=1\n" + LISTING, "rmdir: failed to remove 'd/sub/..': Directory not empty\n"],
  ["find d/. -delete", "rc=1\n/workspace /workspace/d /workspace/e /workspace/keep /workspace/link ", "find: cannot delete 'd/.': Invalid argument\n"],
  ["mv ./ z", "rc=1\n" + LISTING, "mv: cannot move './' to 'z': Device or resource busy\n"],
  ["mv link/ y", "rc=1\n" + LISTING, "mv: cannot move 'link/' to 'y': Not a directory\n"],
  ["which ''", "rc=1\n" + LISTING, ""],
  ["cat ''", "rc=1\n" + LISTING, "cat: : No such file or directory\n"],
];

it("more operands of '' or ending in . or .. answer as Linux, nothing else changed", async () => {
  const out = await shellCases(TREE, cases.map(([command]) => command), {
    wrap: (command) => `${command}; echo rc=$?; find /workspace | sort | tr '\\n' ' '`,
  });
  expect(out).toEqual(cases);
});
