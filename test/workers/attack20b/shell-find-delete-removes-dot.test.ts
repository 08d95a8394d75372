/**
 * Issue 20, twentieth attack run: `find . -delete` in the shell removes the working directory itself; GNU find
 * never deletes the starting point `.` (it removes everything under it and leaves `.`).
 * Tried: cwd /workspace/w holding d/f.txt, d/sub and e: `find . -delete`, `find . -mindepth 1 -delete`,
 * `find d -delete`; side by side with GNU findutils 4.9.0.
 * Held: `find . -mindepth 1 -delete` leaves /workspace/w; `find d -delete` removes d (as GNU).
 * Found (low — the cwd vanishes under the script: later commands in it fail `No such file or directory`, and a
 * directory the caller made, with its mode, is gone): `find . -delete` removes /workspace/w, `$?` 0 (2 of 2 runs);
 * GNU: /workspace/w stays, empty, `$?` 0.
 * Suggested fix: as GNU find (and POSIX rmdir(2) of "." is EINVAL), -delete skips a path whose last segment is `.`
 * — with the `.`/`..` check suggested in shell-rm-dot-removes-directory.test.ts, in the adapter's rm.
 * Fixed: a gen-shell patch of just-bash's find -delete skips the starting point `.` (GNU), and refuses any other path
 *   ending in `.`/`..` as rmdir(2) does; the adapter's rm refuses a path ending in `/.` (EINVAL).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("find . -delete empties the cwd and leaves it (GNU find)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/w/d/sub", { recursive: true });
    await ws.fs.mkdir("/workspace/w/e", { recursive: true });
    await ws.fs.writeFile("/workspace/w/d/f.txt", "keep\n");
    const r = await sh(ws, "find . -delete; echo rc=$?; find /workspace | sort | tr '\\n' ' '", { cwd: "/workspace/w" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=0\n/workspace /workspace/w ", stderr: "" });
});
