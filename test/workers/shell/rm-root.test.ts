/**
 * `rm -rf /` in the shell exited 0 with nothing on stderr: the Workspace refuses to remove `/` (EPERM) and `-f` hid
 * the refusal (noticed by the helper fixing the twentieth attack run's dot operands). GNU rm refuses `/` itself
 * (`--preserve-root`, its default), with or without `-f`: two lines on stderr, `$?` 1, nothing removed.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "./helpers.js";

it("rm -rf / and rm -r // are refused as GNU rm does, and remove nothing", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.ready();
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/d/f.txt", "keep");
    const r = await sh(ws, "rm -rf /; echo rc=$?; rm -r //; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr, left: await ws.fs.readFile("/workspace/d/f.txt", "utf8") };
  });
  expect(out).toEqual({
    stdout: "rc=1\nrc=1\n",
    stderr:
      "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n" +
      "rm: it is dangerous to operate recursively on '//' (same as '/')\nrm: use --no-preserve-root to override this failsafe\n",
    left: "keep",
  });
}, 60_000);
