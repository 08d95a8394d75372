/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes): `ws:container`
 * from a JavaScript backend whose `root` is narrower than /workspace. The
 * JavaScript backend confines a run's files to `root` ("Files only under
 * root", docs/runtime.md), and `ws:git` keeps `cli` inside it too ("`cli`
 * also stays inside the root"); `ws:container` does not look at the root at
 * all (src/modules/container.ts passes `cwd` through; the container mirrors
 * the whole of /workspace, and "any command backend works", e.g. the shell).
 *
 * FIXED — host functions get `ctx.root` (the calling backend's root), and
 * createContainerModule has `reach` (the Workspace directory its command
 * backend's commands reach: default /workspace, what ContainerBackend
 * mirrors; "/" for WorkerShellBackend). `exec` refuses with EACCES, naming the
 * root, a run whose root does not contain `reach` (`ws:container exec: this
 * run is confined to /workspace/proj, but commands on backend "box" reach all
 * of /workspace; …`), before anything runs. Documented next to `root` and in
 * the ws:container sections of docs/runtime.md and docs/container.md;
 * test/workers/modules-container/confinement.test.ts.
 *
 * DEFECT (medium) — reproduction (JavaScript backend `root:
 * "/workspace/proj"`, `modules: { "ws:container": createContainerModule({ backend }) }`;
 * the host keeps /workspace/secret.txt = "TOKEN=hunter2" and /host.txt = "host only"):
 *   import { exec } from "ws:container";
 *   export default async () => [
 *     (await exec("cat ../secret.txt", { cwd: "/workspace/proj" })).stdout,   // → "TOKEN=hunter2"
 *     (await exec("echo pwned > ../victim.txt", { cwd: "/workspace/proj" })).exitCode, // → 0: /workspace/victim.txt made
 *   ];
 * with `backend` a container (TestBackend on a real daemon); with `backend:
 * "worker-shell"` the same code reads `cat /host.txt` → "host only" (the
 * shell has no root at all) and writes anywhere.
 * Expected: a run confined to /workspace/proj cannot read or change files
 * outside it through a host module, as with ws:git — ws:container refuses
 * a cwd outside the calling run's root (as `cli` does, `EACCES`), and the
 * module refuses to load (or the docs say loudly that it lifts the root)
 * when its command backend can reach beyond that root (a container mirrors
 * all of /workspace; the shell sees everything).
 * Impact: medium — a host that narrows the JavaScript backend to one project
 * (to keep the model away from other projects, secrets or the agent's own
 * notes in /workspace) and adds ws:container (the docs' recommended way to
 * give the model Linux) has confined nothing.
 * Fix proposal: pass the calling run's root to the module's host function
 * (`ctx.root`, as ws:git has it) and refuse a `cwd` outside it; for the
 * reach of the command itself: a container backend option that limits the
 * synced directory (sync only the root's subtree), or refuse at connect
 * when the module's backend reaches beyond the calling backend's root —
 * and document it next to `root` and in the ws:container section.
 *
 * Withstood: `ws:container` on an `access: "read"` JavaScript backend
 * rejects `ws:container exec requires Workspace write access.` (EROFS) — below.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inWorkspace, startContainer } from "../container/helpers.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import type { Workspace } from "../../../src/index.js";

type JsOut = { status: string; exitCode: number; value: unknown; stderr: string };
const js = async (ws: Workspace, body: string): Promise<JsOut> => {
  const src = `import { exec } from "ws:container";\nexport default async () => { ${body} };`;
  const r = (await (await ws.runtime.exec(src, { backend: "worker-javascript", encoding: "utf8", timeoutMs: 60_000 })).result()) as unknown as JsOut;
  return { status: r.status, exitCode: r.exitCode, value: r.value, stderr: r.stderr };
};

const ESCAPE = `
  const read = await exec("cat ../secret.txt", { cwd: "/workspace/proj" }).then((r) => r.stdout, (e) => "refused: " + e.message);
  const wrote = await exec("echo pwned > ../victim.txt", { cwd: "/workspace/proj" }).then((r) => r.exitCode, (e) => "refused: " + e.message);
  return { read, wrote };`;

async function seed(ws: Workspace) {
  await ws.fs.mkdir("/workspace/proj", { recursive: true });
  await ws.fs.writeFile("/workspace/proj/app.js", "ok");
  await ws.fs.writeFile("/workspace/secret.txt", "TOKEN=hunter2");
  await ws.fs.writeFile("/host.txt", "host only");
}

describe("attack8: ws:container and the JavaScript backend's root", () => {
  it("a run confined to /workspace/proj cannot read or write outside it through ws:container (container backend)", async () => {
    const c = await startContainer();
    await inWorkspace(
      c,
      async (ws) => {
        await seed(ws);
        const out = await js(ws, ESCAPE);
        expect(out.status).toBe("completed");
        expect((out.value as { read: string }).read).not.toContain("hunter2");
        await expect(ws.fs.lstat("/workspace/victim.txt")).rejects.toMatchObject({ code: "ENOENT" });
      },
      {
        backends: [
          new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:container": createContainerModule({ backend: "box" }) } }),
          new TestBackend({ url: c.url, secret: c.secret, id: "box" }),
        ],
      },
    );
  });

  it("a run confined to /workspace/proj cannot read outside it through ws:container on the shell backend", async () => {
    const c = await startContainer(); // only for inWorkspace's object; the module's backend is the shell
    await inWorkspace(
      c,
      async (ws) => {
        await seed(ws);
        const out = await js(ws, `const r = await exec("cat /host.txt", { cwd: "/workspace/proj" }).then((r) => r.stdout, (e) => "refused: " + e.message); return r;`);
        expect(out.status).toBe("completed");
        expect(out.value).not.toBe("host only");
      },
      {
        backends: [
          new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:container": createContainerModule({ backend: "worker-shell" }) } }),
          new WorkerShellBackend({ loader: env.LOADER }),
        ],
      },
    );
  });

  it("on an access: \"read\" JavaScript backend ws:container exec rejects EROFS", async () => {
    const c = await startContainer();
    await inWorkspace(
      c,
      async (ws) => {
        await seed(ws);
        const out = await js(ws, `return await exec("echo pwned > victim.txt").then(() => "ran", (e) => e.code + " " + e.message);`);
        expect(out.value).toBe("EROFS ws:container exec requires Workspace write access.");
        await expect(ws.fs.lstat("/workspace/proj/victim.txt")).rejects.toMatchObject({ code: "ENOENT" });
      },
      {
        backends: [
          new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", access: "read", modules: { "ws:container": createContainerModule({ backend: "box" }) } }),
          new TestBackend({ url: c.url, secret: c.secret, id: "box" }),
        ],
      },
    );
  });
});
