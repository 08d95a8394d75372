/**
 * A redirection whose target cannot be opened or written fails that command
 * as bash does — `bash: <path>: <strerror>`, `$?` 1 — and the script goes on.
 * just-bash 3.4.2 let the failure escape and end the whole script with the
 * adapter's raw error as its last line (`ENOENT: no such file or directory,
 * write '…'`); scripts/gen-shell.mjs patches its redirection code
 * (src/backends/worker-shell/isolate/redirect-failure.ts). Run in real
 * workerd through the shell backend; the bytes left in the Workspace are
 * checked too.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "./helpers.js";

it("each failed redirect is one bash line with $? 1; later commands run; nothing is written where it failed", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", "keep\n");
      const script = [
        "echo a > nope/q; echo after1 $?",
        "echo b > f.txt/q; echo after2 $?",
        "{ echo x; echo y >&2; } &> nope/z; echo after3 $?",
        "for i in 1 2; do echo $i; done > nope/w; echo after4 $?",
        "echo e 2> nope/e; echo after5 $?",
        "echo c >> f.txt/z; echo after6 $?",
        "echo r > /ro/a.txt; echo after7 $?",
        "echo d > d; echo after8 $?",
        "exec 3> nope/fd; echo after9 $?",
        "echo ok > ok.txt; cat ok.txt",
      ].join("\n");
      const r = await sh(ws, script, { cwd: "/workspace" });
      return {
        r: { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, status: r.status },
        names: (await ws.fs.readdir("/workspace")).map((e) => e.name),
        f: await ws.fs.readFile("/workspace/f.txt", "utf8"),
        ro: await ws.fs.readFile("/ro/a.txt", "utf8"),
        d: (await ws.fs.stat("/workspace/d")).isDirectory,
      };
    },
    { workspace: { mounts: { "/ro": WorkerBundle({ "a.txt": "read only\n" }) } } },
  );
  expect(out.r).toEqual({
    exitCode: 0,
    status: "completed",
    stdout: "after1 1\nafter2 1\nafter3 1\nafter4 1\nafter5 1\nafter6 1\nafter7 1\nafter8 1\nafter9 1\nok\n",
    stderr:
      "bash: nope/q: No such file or directory\n" +
      "bash: f.txt/q: Not a directory\n" +
      "bash: nope/z: No such file or directory\n" +
      "bash: nope/w: No such file or directory\n" +
      "bash: nope/e: No such file or directory\n" +
      "bash: f.txt/z: Not a directory\n" +
      "bash: /ro/a.txt: Read-only file system\n" +
      "bash: d: Is a directory\n" +
      "bash: nope/fd: No such file or directory\n",
  });
  expect(out).toMatchObject({ names: ["d", "f.txt", "ok.txt"], f: "keep\n", ro: "read only\n", d: true });
});
