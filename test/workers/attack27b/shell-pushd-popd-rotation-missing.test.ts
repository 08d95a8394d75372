/**
 * Issue 20, twenty-seventh attack run: `pushd` without an operand does not swap the top two directories — it says
 * `bash: pushd: no other directory` (status 1) though the stack holds two — and `pushd +N`, `popd +N`, `popd -N`
 * are taken as directory names (`pushd: +1: No such file or directory`, `popd: too many arguments`). bash 5.2
 * rotates the stack (`pushd +N`), removes the N-th entry (`popd +N`/`-N`) and swaps (`pushd`).
 * Tried: side by side with GNU bash 5.2.15 (HOME set elsewhere so `dirs` prints full paths) — `pushd DIR`,
 * `pushd`, `pushd +1`, `popd`, `popd +1`, `popd -0`, `dirs`, `dirs -v`, `dirs -l -p`, `dirs -c`, popd of an empty
 * stack.
 * Held: `pushd DIR`, `popd`, `dirs`, `dirs -v`, `dirs -l -p`, `dirs -c`, `popd` on an empty stack (`directory
 * stack empty`, 1).
 * Found (low — a documented builtin form fails or acts on a wrong directory; agents rarely rotate the stack;
 * 2 of 2 runs).
 * Suggested fix: in just-bash's pushd/popd builtins (patched by scripts/gen-shell.mjs), read `+N`/`-N` as stack
 * positions (rotate for pushd, remove for popd, `-N` counting from the bottom) and make `pushd` with no operand
 * exchange the top two entries and cd to the new top.
 * Fixed: pushd/popd/dirs go to src/backends/worker-shell/isolate/glob-printf.ts (`pushd`, `popd`, `dirs`; patched in
 * by scripts/gen-shell.mjs, `// SK`) following bash 5.2's pushd.def: swap, `+N`/`-N` rotation and removal, `-n`,
 * `pushd -`, index errors, `invalid number`/`invalid argument` with usage, `dirs +N`/`-N`. Siblings in
 * test/workers/fix27/shell-glob-printf-sk.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["a", "b", "c"] };

it("pushd swaps, pushd +N rotates, popd +N/-N remove an entry, as bash", async () => {
  const out = await shellCases(tree, [
    "HOME=/nonexistent; cd a; pushd ../b >/dev/null; pushd; pwd",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; pushd +1; pwd",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; popd +1; pwd",
    "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; popd -0; dirs -l",
  ]);
  expect(out).toEqual([
    // Was: "/workspace/b\n" and "bash: pushd: no other directory".
    ["HOME=/nonexistent; cd a; pushd ../b >/dev/null; pushd; pwd", "/workspace/a /workspace/b\n/workspace/a\n", ""],
    // Was: "/workspace/c\n" and "bash: pushd: +1: No such file or directory".
    [
      "HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null; pushd +1; pwd",
      "/workspace/b /workspace/a /workspace /workspace/c\n/workspace/b\n",
      "",
    ],
    // Was: "/workspace/b\n" and "bash: popd: too many arguments".
    ["HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; popd +1; pwd", "/workspace/b /workspace\n/workspace/b\n", ""],
    // Was: "/workspace/b /workspace/a /workspace\n" and "bash: popd: -0: invalid option".
    ["HOME=/nonexistent; pushd a >/dev/null; pushd ../b >/dev/null; popd -0; dirs -l", "/workspace/b /workspace/a\n/workspace/b /workspace/a\n", ""],
  ]);
});
