/**
 * Issue 20, twenty-third attack run: `tar -x` writes every file 0644 and every directory 0755 whatever the archive
 * says: an executable member (0755 — a release's `configure`, `bin/tool`, a hook) comes out not executable, and a
 * private directory (0700) comes out world-readable. With `-p` files keep their mode but directories still do not.
 * GNU tar 1.34 applies the member's mode (masked by the umask, 022, for a non-root user; whole for root or with -p),
 * so `run.sh` is `-rwxr-xr-x` and `dd` is `drwx------` in both cases.
 * Tried: side by side with GNU tar 1.34 (as root and as the umask-022 rule): a 0755 file and a 0700 directory member,
 * with and without -p; a 4755 file (GNU root keeps setuid; not asserted); `tar -c` of a 0600 file then -tv (held:
 * the mode is stored).
 * Held: `tar -c` records modes; `-p` restores a file's mode.
 * Found (low-medium — extracted programs do not run until chmod'ed, private directories opened up; 2 of 2 runs):
 * see the expectations.
 * Suggested fix: in tar's extract loop (just-bash chunk X3TZEFQG, Qt) pass `mode & ~0o022` (all of it with -p) to
 * writeFile and chmod a directory member after mkdir the same way.
 * Fixed: a member gets the archive's mode: masked by the umask 022 without -p, as GNU tar for a user who is not
 * root (the shell's user; GNU as root keeps the whole mode), with setuid/setgid/sticky only under -p; directories
 * get theirs after the last member, as GNU (a 0500 directory can still be filled), an existing directory too
 * unless -k (src/backends/worker-shell/isolate/archive.ts, tarMode / tarExtractEnd).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import { ustar } from "./ustar.js";

it("tar -x keeps a member's mode (masked by 022), with and without -p", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/o", { recursive: true });
    await ws.fs.mkdir("/workspace/p", { recursive: true });
    await ws.fs.writeFile("/workspace/x.tar", ustar([{ name: "run.sh", content: "#!/bin/sh\necho hi\n", mode: 0o755 }, { name: "dd/", type: "5", mode: 0o700 }]));
    const r = await sh(ws, "tar -xf x.tar -C o; tar -xpf x.tar -C p; echo rc=$?; stat -c '%A %n' o/run.sh o/dd p/run.sh p/dd", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  // Was: "-rw-r--r-- o/run.sh\ndrwxr-xr-x o/dd\n-rwxr-xr-x p/run.sh\ndrwxr-xr-x p/dd\n".
  expect(out).toEqual({ stdout: "rc=0\n-rwxr-xr-x o/run.sh\ndrwx------ o/dd\n-rwxr-xr-x p/run.sh\ndrwx------ p/dd\n", stderr: "" });
});
