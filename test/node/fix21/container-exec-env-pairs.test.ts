/**
 * Fix of attack21c/container-exec-env-prototype-names-dropped (issue 20, run 21): the daemon's `exec` takes `env` as an
 * object or as `[name, value]` pairs and builds the command's environment without a prototype; the handle sends pairs
 * when a name is one capnweb would drop. Here the real daemon in process (no capnweb): its own handling of both forms.
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

type Exec = (i: unknown) => Promise<{ id: string }>;
type Events = (i: unknown) => Promise<{ events: { name: string; data?: Uint8Array; code?: number }[]; done: boolean }>;

async function run(daemon: unknown, id: string, command: string, env: unknown): Promise<string> {
  const d = daemon as { exec: Exec; events: Events };
  await d.exec({ id, command, env });
  let out = "";
  for (let after = 0; ; ) {
    const { events, done } = await d.events({ id, after, waitMs: 5000 });
    for (const e of events) if (e.name === "stdout") out += Buffer.from(e.data!).toString("utf8");
    after += events.length;
    if (done) return out;
  }
}

describe("fix21: the daemon's exec env", () => {
  it("takes [name, value] pairs, prototype names and __proto__ included; a later pair wins", async () => {
    const real = await realDaemonWorkspace();
    try {
      const env = [["constructor", "c"], ["__proto__", "p"], ["toJSON", "j"], ["plain", "1"], ["plain", "2"]];
      expect(await run(real.daemon, "pairs", 'echo "[$constructor][$__proto__][$toJSON][$plain]"', env)).toBe("[c][p][j][2]\n");
    } finally {
      await real.close();
    }
  });

  it("takes an object with an own __proto__ name (no prototype in the environment it builds)", async () => {
    const real = await realDaemonWorkspace();
    try {
      const env: Record<string, string> = { valueOf: "v" };
      Object.defineProperty(env, "__proto__", { value: "p", enumerable: true, writable: true, configurable: true });
      expect(await run(real.daemon, "obj", 'echo "[$valueOf][$__proto__]"', env)).toBe("[v][p]\n");
    } finally {
      await real.close();
    }
  });

  it("refuses malformed pairs EINVAL, starting nothing", async () => {
    const real = await realDaemonWorkspace();
    try {
      const exec = (real.daemon as unknown as { exec: Exec }).exec.bind(real.daemon);
      for (const env of [[["a"]], [["a", "b", "c"]], ["a=b"], [[1, "x"]], [["a", 1]], [["a=b", "x"]], [["", "x"]]]) {
        await expect(exec({ id: "bad", command: "true", env })).rejects.toMatchObject({ code: "EINVAL" });
      }
    } finally {
      await real.close();
    }
  });
});
