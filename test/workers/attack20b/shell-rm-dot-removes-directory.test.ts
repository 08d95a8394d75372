/**
 * Issue 20, twentieth attack run: the shell's `rm -r` of an operand whose last segment is `.` or `..` removes the
 * directory it names — `rm -rf .` removes the working directory (/workspace) and everything in it.
 * Tried: with /workspace/d/f.txt, /workspace/d/sub and /workspace/e, in the shell (cwd /workspace): `rm -rf .`,
 * `rm -rf ./`, `rm -rf d/.`, `rm -rf d/./`, `rm -rf d/..`, `rm -rf d/sub/../.`, `rm -rf /workspace/d/sub/..`,
 * `cd d && rm -rf .`; side by side with GNU coreutils 9.1 rm on the same tree.
 * Found (high — silent data loss from a command agents type as "clear this directory's contents"; GNU rm refuses
 * every one of these operands): `rm -rf .` and `rm -rf d/..` remove /workspace itself, every file in it, `$?` 0,
 * no stderr; `rm -rf d/.` removes d and its files (3 of 3 runs). GNU rm (POSIX requires it): `rm: refusing to remove
 * '.' or '..' directory: skipping '<operand>'`, `$?` 1, nothing removed. The adapter's directory-form check
 * (1f24350) lets `d/.` through because d is a directory, and resolvePath turns `d/..` into `/workspace`, so the
 * Workspace's rm gets the directory itself.
 * Suggested fix: as GNU rm, refuse an operand whose last segment (as written, before resolvePath) is `.` or `..`
 * — a gen-shell patch of just-bash's rm, and the adapter's rm refusing a path that still ends in `/.` (EINVAL).
 * Fixed: a gen-shell patch of just-bash's rm refuses, with -r/-R, an operand whose last segment as written is `.` or
 *   `..` (src/backends/worker-shell/isolate/dot-operands.ts, GNU's message, `$?` 1); the adapter's rm refuses a path still
 *   ending in `/.` with EINVAL (even with force).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const operands = [".", "./", "d/.", "d/./", "d/..", "d/sub/../.", "/workspace/d/sub/.."];

it("rm -rf of an operand ending in . or .. is refused as by GNU rm ($? 1, nothing removed)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: { stdout: string; stderr: string }[] = [];
    for (const operand of operands) {
      await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
      await ws.fs.mkdir("/workspace/e", { recursive: true });
      await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
      const r = await sh(ws, `rm -rf ${operand}; echo rc=$?; find /workspace | sort | tr '\\n' ' '`, { cwd: "/workspace" });
      results.push({ stdout: r.stdout, stderr: r.stderr });
    }
    return results;
  });
  expect(out).toEqual(
    operands.map((operand) => ({
      stdout: "rc=1\n/workspace /workspace/d /workspace/d/f.txt /workspace/d/sub /workspace/e ",
      stderr: `rm: refusing to remove '.' or '..' directory: skipping '${operand}'\n`,
    })),
  );
});
