/**
 * Issue 20, twenty-second attack run: publish under a tool set's `root`, and `ws:assets` publish, share a file named
 * in directory form.
 * Tried: b9a374f made share() (src/assets/assets.ts) refuse a path in directory form (`r.txt/`, `r.txt/.`) naming a
 * non-directory with ENOTDIR, "publish (and ws.assets.share, ws:assets, a client's share — all this one function)
 * answer it" (scout21 publish-file-in-directory-form). The other entry points to that function, in a Durable Object
 * with R2: the AI SDK tool set built with `root: "/workspace"` (publish through confineAssets), and `ws:assets`
 * `publish()` from a WorkerJavaScriptBackend run (through ctx.resolvePath).
 * Held: the unrooted publish tool and ws.assets.share refuse `r.txt/` (the scout21 test); under `root`, read, write,
 * edit, grep and delete of `f.txt/` and `f.txt/.` answer ENOTDIR (the store checks the form before the confined fs).
 * Found (low — the same wrong answer scout21 fixed, on two sibling paths; 3 of 3 runs): `publish({ path:
 * "/workspace/r.txt/" })`, `"/workspace/r.txt/."` and `"r.txt/"` of a root-confined tool set answer `{ ok: true, url }`
 * and store the file; `publish("/workspace/r.txt/")` and `publish("r.txt/.")` from ws:assets resolve to a URL and
 * store it. Both normalise the path before share() sees it — resolveToolPath (src/tools/core/root.ts, confineAssets)
 * and ctx.resolvePath (src/modules/assets.ts → bridge #resolve → normalizePath) drop the trailing `/` and `/.` — so
 * share()'s directoryForm check never fires: 5 objects stored where the fix promises none.
 * Suggested fix: keep the form across the confinement — in confineAssets and in ws:assets' publish, when
 * `directoryForm(path)` is not null, append `/` to the resolved path (or check `stat(resolved).isDirectory` and
 * throw `ENOTDIR: not a directory, stat: <path as given>`) before calling share().
 * Fixed: confineAssets (src/tools/core/root.ts) stats the resolved path of a directory-form path and refuses a
 * non-directory `ENOTDIR` (`stat`, the path as given) before share(); ws:assets' publish (src/modules/assets.ts) hands
 * share() the resolved path with the trailing `/` kept, so share()'s own check answers ENOTDIR. Siblings (pi's rooted
 * publish, ws:tools' publish, a missing path, a directory, the shell's `assets publish`, fixed in 075edd4):
 * test/workers/fix22/publish-directory-form-siblings.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createAssetsModule } from "../../../src/modules/assets.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

it("publish under root and ws:assets publish refuse r.txt/ and r.txt/. with ENOTDIR and store nothing", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "attack22a-pub",
      assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule() } })],
    });
    const tool: Record<string, unknown> = {};
    const module: Record<string, unknown> = {};
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/r.txt", "hi");
      const tools = createAITools({ workspace: ws as never, root: "/workspace" }) as unknown as {
        publish: { execute(input: { path: string }, ctx: unknown): Promise<{ ok: boolean; error?: string }> };
      };
      for (const path of ["/workspace/r.txt/", "/workspace/r.txt/.", "r.txt/"]) {
        const r = await tools.publish.execute({ path }, { toolCallId: "1", messages: [] });
        tool[path] = r.ok ? "ok" : r.error;
      }
      for (const path of ["/workspace/r.txt/", "r.txt/."]) {
        const h = await ws.runtime.exec(
          `import { publish } from "ws:assets"; export default async () => { try { await publish(${JSON.stringify(path)}); return "ok"; } catch (e) { return e.code; } }`,
        );
        module[path] = (await h.result()).value;
      }
    } finally {
      await ws.close();
    }
    const stored = (await env.ASSETS_BUCKET.list()).objects.length;
    return { tool, module, stored };
  });
  // Found: tool { "/workspace/r.txt/": "ok", "/workspace/r.txt/.": "ok", "r.txt/": "ok" }, module { both: "ok" }, stored 5.
  expect(out).toEqual({
    tool: {
      "/workspace/r.txt/": "ENOTDIR: not a directory, stat: /workspace/r.txt/",
      "/workspace/r.txt/.": "ENOTDIR: not a directory, stat: /workspace/r.txt/.",
      "r.txt/": "ENOTDIR: not a directory, stat: r.txt/",
    },
    module: { "/workspace/r.txt/": "ENOTDIR", "r.txt/.": "ENOTDIR" },
    stored: 0,
  });
}, 120_000);
