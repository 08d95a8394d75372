/**
 * `ws:container` and the calling JavaScript backend's `root` (attack8
 * container-module-root): `exec` refuses (`EACCES`, naming the root) a run
 * whose root does not contain the module's `reach` (default `/workspace`,
 * what ContainerBackend mirrors); `reach: "/"` for a backend that sees the
 * whole Workspace (WorkerShellBackend). Real WorkerShellBackend as the
 * command backend.
 */
import { describe, expect, it } from "vitest";
import { createContainerModule } from "../../../src/modules/container.js";
import { attempts, exists, inContainerWorkspace, runJs, valueOf } from "./helpers.js";

const WRITE = attempts([`"echo pwned > /workspace/victim.txt"`]);

describe("ws:container: the run's root", () => {
  it("a run confined to /workspace/proj is refused EACCES naming its root; nothing runs", async () => {
    const out = await inContainerWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/proj");
        const r = await runJs(ws, WRITE);
        return { value: valueOf(r), victim: await exists(ws, "/workspace/victim.txt") };
      },
      { javascript: { root: "/workspace/proj" } },
    );
    expect(out).toEqual({
      value: [
        {
          error: [
            'ws:container exec: this run is confined to /workspace/proj, but commands on backend "container-shell" reach all of /workspace; ws:container runs commands only for a JavaScript backend whose root is /workspace or above it.',
            "EACCES",
          ],
        },
      ],
      victim: false,
    });
  });

  it("root /workspace (the default) runs commands with the default reach; reach \"/\" needs root \"/\"", async () => {
    const byDefault = await inContainerWorkspace(async (ws) => {
      const r = await runJs(ws, WRITE);
      return { exitCode: (valueOf(r) as { ok: { exitCode: number } }[])[0]!.ok.exitCode, victim: await ws.fs.readFile("/workspace/victim.txt", "utf8") };
    });
    expect(byDefault).toEqual({ exitCode: 0, victim: "pwned\n" });

    const whole = await inContainerWorkspace(async (ws) => valueOf(await runJs(ws, attempts([`"cat /host.txt"`]))), { module: { reach: "/" } });
    expect(whole).toEqual([
      {
        error: [
          'ws:container exec: this run is confined to /workspace, but commands on backend "container-shell" reach all of /; ws:container runs commands only for a JavaScript backend whose root is / or above it.',
          "EACCES",
        ],
      },
    ]);

    const top = await inContainerWorkspace(
      async (ws) => {
        await ws.fs.writeFile("/host.txt", "host only");
        return valueOf(await runJs(ws, attempts([`"cat /host.txt"`])));
      },
      { module: { reach: "/" }, javascript: { root: "/" } },
    );
    expect((top as { ok: { stdout: string } }[])[0]!.ok.stdout).toBe("host only");
  });

  it("reach must be an absolute path (TypeError at createContainerModule)", () => {
    expect(() => createContainerModule({ reach: "workspace" })).toThrow(new TypeError('createContainerModule(options): reach must be an absolute path, got "workspace"'));
    expect(() => createContainerModule({ reach: 3 as unknown as string })).toThrow(new TypeError("createContainerModule(options): reach must be an absolute path, got number"));
  });
});
