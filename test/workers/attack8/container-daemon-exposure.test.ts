/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes): what a command in
 * the container can do to its own daemon. container/README.md says
 * "Commands get the daemon's environment minus COMPUTERD_SECRET"; the
 * Dockerfile runs the daemon as root and commands as the same user. Real
 * local daemon (TestBackend "box"), ordinary commands.
 *
 * FIXED (both) — the secret no longer travels in the daemon's environment: the
 * daemon reads COMPUTERD_AUTH_FILE (a 0600 file) and deletes it at start
 * (container/lib/config.mjs takeSecret); the local host writes a start's
 * COMPUTERD_SECRET to such a file instead of the daemon's env, and the image's
 * ENTRYPOINT shell does the same before exec'ing tini (so /proc/1/environ is
 * clean too). SIGUSR1: the daemon installs a SIGUSR1 handler (no inspector, any
 * Node) and is started with --disable-sigusr1 (image CMD; local host on Node ≥
 * 22.14). Documented in container/README.md "What commands can reach" and
 * docs/container.md "Security" (no uid separation: kill, ptrace remain).
 *
 * DEFECT (medium) — the bearer secret is readable by every command.
 * Reproduction:
 *   await sh(ws, "tr '\\0' '\\n' < /proc/$PPID/environ | grep COMPUTERD_SECRET")
 *   // → stdout "COMPUTERD_SECRET=<the secret>\n" ($PPID is the daemon: commands are `sh -c` children of it)
 * Removing the variable from the command's environment does not hide it:
 * /proc/<pid>/environ is the daemon's initial environment, readable by the
 * same user. With the secret a process in the container can answer a
 * waiting connect on the Durable Object's `/api` (handleFetch checks only the
 * bearer; the container reaches the object as `egressHost` even with egress
 * "none") and be the session's daemon — whose answers the object trusts
 * (container-hostile-daemon.test.ts: paths with `..` delete and create
 * Workspace entries outside /workspace).
 * Expected: a command cannot learn the secret (`grep` prints nothing).
 * Impact: medium on its own (the secret is the only authentication of the
 * daemon's session; a model told "find credentials" finds it); high
 * together with the trusted-daemon defect.
 * Fix proposal: run commands as an unprivileged user (uid separation: then
 * /proc/<daemon>/environ and signals to the daemon are refused), and pass the
 * secret to the daemon by a file it deletes (or a pipe) instead of the
 * environment; document in container/README.md what commands can reach.
 *
 * DEFECT (medium) — `kill -USR1 $PPID` opens Node's inspector in the daemon.
 * Reproduction:
 *   await sh(ws, "kill -USR1 $PPID; node -e '…poll fetch(\"http://127.0.0.1:9229/json/list\")…'")
 *   // → the daemon's inspector target (type "node", url file://…/daemon.mjs): a WebSocket
 *   //   debugger URL any command can connect to and `Runtime.evaluate` code in the daemon
 * Expected: the daemon ignores SIGUSR1 from commands (Node ≥ 22.14
 * `--disable-sigusr1` in the image's CMD, or uid separation as above).
 * Impact: medium — full control of the daemon from any command (the
 * takeover container-hostile-daemon.test.ts plays with a preload).
 * Fix proposal: `CMD ["node", "--disable-sigusr1", "daemon.mjs"]` (node:22
 * image), uid separation; the local host could pass the flag too.
 *
 * Withstood: `env` inside a command has no COMPUTERD_SECRET (the daemon
 * removes it from the command's environment as documented).
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

describe("attack8: a container command and its daemon", () => {
  it("env inside a command has no COMPUTERD_SECRET", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "env | grep -c COMPUTERD_SECRET");
      expect(r.stdout).toBe("0\n");
    });
  });

  it("a command cannot read the daemon's secret from /proc/$PPID/environ", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "tr '\\0' '\\n' < /proc/$PPID/environ | grep COMPUTERD_SECRET; true");
      expect(r.stdout).not.toContain(c.secret);
      expect(r.stdout).toBe("");
    });
  });

  it("a command cannot open Node's inspector in the daemon with SIGUSR1", async () => {
    const c = await startContainer();
    try {
      await inWorkspace(c, async (ws) => {
        const probe = `(async () => { for (let i = 0; i < 100; i++) { try { const j = await (await fetch("http://127.0.0.1:9229/json/list")).json(); console.log(j.map((t) => t.type + " " + t.url.split("/").pop()).join(",")); return; } catch { await new Promise((r) => setTimeout(r, 50)); } } console.log("no inspector"); })()`;
        const r = await sh(ws, `kill -USR1 $PPID && node -e '${probe}'`);
        // Observed: "node daemon.mjs" (the daemon's own inspector target). Another program's inspector on 9229 would not name daemon.mjs.
        expect(r.stdout).not.toMatch(/daemon\.mjs/);
      });
    } finally {
      await c.stop("SIGKILL"); // do not leave an inspector open on the machine
    }
  });
});
