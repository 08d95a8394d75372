/**
 * Issue 20, twenty-second attack run: `ls -l` (and `ls -ld`, `ls -la`) shows every file as `-rw-r--r--` and every
 * directory as `drwxr-xr-x`, whatever its mode: after `chmod +x run.sh` the listing says it is not executable, after
 * `chmod 600 secret` it says it is world-readable — while `stat -c %A` and `[ -x ]` see the real mode.
 * Tried: in /workspace, side by side with GNU coreutils 9.1: `chmod 640 f; ls -l f`, `chmod 755 f`, `chmod +x f`,
 * `chmod 700 d; ls -ld d`, `chmod 600 f; ls -la`, `chmod 4755 f; stat -c %A f`; cp/cp -p/mv/`>`/`>>`/sed -i keeping
 * the mode (`stat -c %a`), `chmod -R`, `chmod u=rw,go=`.
 * Held: the stored mode (stat -c %a / %A after chmod, cp, mv, redirects, sed -i, chmod -R), `[ -x f ]`.
 * Found (low-medium — the listing an agent reads to check permissions is wrong, $? 0; 2 of 2 runs): `ls -l f`
 * after `chmod 755 f` starts `-rw-r--r--` (GNU `-rwxr-xr-x`); `ls -ld d` after `chmod 700 d` `drwxr-xr-x` (GNU
 * `drwx------`). Also `stat -c %A` of mode 4755 is `-rwxr-xr-x` (GNU `-rwsr-xr-x`).
 * Cause: lsModeColumn (src/backends/worker-shell/isolate/link-operands.ts) returns a constant per kind (just-bash's
 * own ls -l did too); the mode the Workspace keeps is not used.
 * Suggested fix: build the column from stat.mode as stat's %A does (modeString), keeping `l` + rwxrwxrwx for a
 * link; give %A the setuid/setgid/sticky letters (s/S, t/T).
 * Fixed: lsModeColumn and stat's %A build the column from stat.mode (text-output.ts modeColumn: s/S/t/T included); ls
 * with several operands lists the non-directories first as one list and each directory after a blank line (GNU
 * order; text-output.ts lsOperandOrder), so `ls -l a b c` has no blank lines between files.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("ls -l shows the mode chmod set, as GNU ls", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(
      ws,
      "touch a b c; mkdir d; chmod 755 a; chmod 600 b; chmod 640 c; chmod 700 d; ls -l a b c | cut -c1-10; ls -ld d | cut -c1-10; stat -c '%a %A' a d",
      { cwd: "/workspace" },
    );
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  });
  expect(out).toEqual({ stdout: "-rwxr-xr-x\n-rw-------\n-rw-r-----\ndrwx------\n755 -rwxr-xr-x\n700 drwx------\n", stderr: "", exitCode: 0 });
});
