/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes: links out of a
 * root), the deterministic form of container-pull-race.test.ts, reachable
 * in the setup docs/container.md recommends (the model gets JavaScript
 * confined to /workspace, and the container through `ws:container`). No
 * race and no hostile daemon: a real daemon, the JavaScript backend's own
 * link rules, and the pull's order.
 *
 * FIXED — src/runtime/sync.ts: before applying an entry the pull lstat-s
 * every Workspace parent under /workspace (`#parents`, no link followed); a
 * link or file where the container has a directory is replaced by a
 * directory first (the container wins), so nothing is written through a
 * link; and a container link whose target leads outside /workspace in the
 * Workspace (as text or through existing links, the JavaScript backend's
 * `checkLinkTarget`) is refused into `skipped` ("link leads outside
 * /workspace").
 *
 * DEFECT (high) — reproduction (JavaScript backend, root /workspace, with
 * ws:container on a TestBackend "box"; the host keeps /host/x = "host data"):
 *   1. container:  mkdir a && echo 0 > a/x                       (pulled: a, a/x)
 *   2. container, a command that runs on:  …; ln -s /host 0later && echo pwned > a/x
 *   3. JavaScript, while it runs:  await rm("a", { recursive: true }); await symlink("0later", "a");
 *      — allowed: "0later" does not exist yet, so the target is checked
 *      lexically (/workspace/0later, inside root)
 *   4. the command goes on and ends; its pull walks "0later" (a link to
 *      /host, made verbatim in the Workspace), then "a" (a directory whose
 *      stat did not change: passed over, so the Workspace link stays), then
 *      "a/x" (changed): `writeFile("/workspace/a/x")` follows a → 0later →
 *      /host and writes /host/x.
 *   await ws.fs.readFile("/host/x", "utf8")   // → "pwned\n"
 * Expected: nothing outside /workspace changes: the pull does not follow a
 * Workspace link on the way to an entry (it replaces the link by the
 * directory the container has, or skips the entry), and/or a link the
 * container makes does not lead outside /workspace in the Workspace.
 * Impact: high — confined model code plus ws:container writes any file of
 * the Workspace (host configuration, other roots, `/.computer`); in a
 * real agent the JavaScript run and the command are the model's own, and
 * the ordering needs no privileges (step 3 can run while step 2's command
 * sleeps a second).
 * Fix proposal: in `RemoteSync.#pullEntry`, check the Workspace side of
 * every entry without following links: walk the parent components of
 * `/workspace/<path>` with lstat; a link (or file) where the manifest says
 * the container has a directory is replaced by that directory first (the
 * container wins) or the entry is skipped; write with an API that refuses
 * to follow links in the parent (like O_NOFOLLOW on each component). Also
 * consider storing container-made links that lead outside /workspace as
 * something the Workspace does not follow (or refusing them in pull with a
 * `skipped` reason).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, waitFor } from "../container/helpers.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import type { Workspace } from "../../../src/index.js";

const js = async (ws: Workspace, source: string) =>
  (await (await ws.runtime.exec(source, { backend: "worker-javascript", encoding: "utf8", timeoutMs: 60_000 })).result()) as unknown as { status: string; value: unknown; stderr: string };

describe("attack8: container pull through a link the confined run made", () => {
  it("a pull does not write through a Workspace link made by the JavaScript run while the command ran", async () => {
    const c = await startContainer();
    await inWorkspace(
      c,
      async (ws) => {
        await ws.fs.mkdir("/host", { recursive: true });
        await ws.fs.writeFile("/host/x", "host data");
        const one = await js(ws, `import { exec } from "ws:container"; export default async () => (await exec("mkdir a && echo 0 > a/x")).exitCode;`);
        expect(one).toMatchObject({ status: "completed", value: 0 });
        // The command waits for .go (the test's stand-in for "sleep 1"), then makes the link and rewrites a/x.
        const h = await ws.runtime.exec(`${waitFor(".go")}; ln -s /host 0later && echo pwned > a/x`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
        const link = await js(ws, `import { rm, symlink, readlink } from "node:fs/promises"; export default async () => { await rm("a", { recursive: true }); await symlink("0later", "a"); return readlink("a"); };`);
        expect(link).toMatchObject({ status: "completed", value: "0later" });
        await c.put(".go", "");
        const r = await h.result();
        expect(r.exitCode).toBe(0);
        expect(await ws.fs.readFile("/host/x", "utf8")).toBe("host data");
        // A later command must not change that either.
        await sh(ws, "true");
        expect(await ws.fs.readFile("/host/x", "utf8")).toBe("host data");
      },
      {
        backends: [
          new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:container": createContainerModule({ backend: "box" }) } }),
          new TestBackend({ url: c.url, secret: c.secret, id: "box" }),
        ],
      },
    );
  });
});
