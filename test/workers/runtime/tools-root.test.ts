import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

/**
 * `ws:tools` over tool sets built with `root` (spec 03 §2.4): isolate code
 * calls the same confined tools the model does. The backend's own root is
 * `/workspace`; the tools' root is `/workspace/proj`, so `/workspace/sibling.txt`
 * is reachable by the isolate's own fs but not through the tools, and the
 * links (`ghost` → `/outside`, `leak.txt` → `/outside/secret.txt`, `hop1` →
 * `hop2` → `/outside/secret.txt`) are set up host-side.
 */
type Flavour = "ai" | "pi";

async function run(flavour: Flavour, source: string) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let ws!: Workspace;
    const tools =
      flavour === "ai"
        ? forAISDKTools(() => createAITools({ workspace: ws, root: "/workspace/proj" }))
        : () => forPiTools(createPiTools({ workspace: ws, root: "/workspace/proj" }))();
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": createToolBindings(tools) } });
    ws = new Workspace({ storage: state.storage, backends: [backend] });
    const fs = ws.fs;
    await fs.mkdir("/workspace/proj/src", { recursive: true });
    await fs.mkdir("/outside");
    await fs.writeFile("/workspace/proj/f.txt", "inside\n");
    await fs.writeFile("/workspace/proj/src/a.ts", "export const secret = 1;\n");
    await fs.writeFile("/workspace/sibling.txt", "sibling\n");
    await fs.writeFile("/outside/secret.txt", "secret\n");
    await fs.symlink("/outside", "/workspace/proj/ghost");
    await fs.symlink("/outside/secret.txt", "/workspace/proj/leak.txt");
    await fs.symlink("hop2", "/workspace/proj/hop1");
    await fs.symlink("/outside/secret.txt", "/workspace/proj/hop2");
    const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
    const after = {
      outside: (await fs.readdir("/outside")).map((e) => e.name),
      secret: await fs.readFile("/outside/secret.txt", "utf8"),
      sibling: await fs.readFile("/workspace/sibling.txt", "utf8"),
      created: await fs.readFile("/workspace/proj/sub/new.txt", "utf8").catch((e: Error) => e.message),
      escaped: await fs.readFile("/workspace/escape.txt", "utf8").catch((e: { code?: string }) => e.code),
    };
    await ws.close();
    return { r, after };
  });
}

const SOURCE = `import * as tools from "ws:tools";
export default async () => {
  const settle = (p) => p.then((v) => ({ text: v.text, isError: v.isError }), (e) => ({ rejected: e.message }));
  return {
    rel: await settle(tools.read({ path: "f.txt" })),
    up: await settle(tools.read({ path: "../sibling.txt" })),
    direct: await settle(tools.ls({ path: "/workspace" })),
    leak: await settle(tools.read({ path: "leak.txt" })),
    chain: await settle(tools.edit({ path: "hop1", edits: [{ oldText: "secret", newText: "pwned" }] })),
    ghost: await settle(tools.write({ path: "ghost/new.txt", content: "x" })),
    escape: await settle(tools.write({ path: "../escape.txt", content: "x" })),
    del: await settle(tools.delete({ path: "/workspace/sibling.txt" })),
    grep: await settle(tools.grep({ path: ".", query: "secret" })),
    grepDefault: await settle(tools.grep({ query: "secret" })),
    find: await settle(tools.find({ path: "/workspace/proj", pattern: "**/*.txt" })),
    ok: await settle(tools.write({ path: "sub/new.txt", content: "hello" })),
  };
};`;

const outside = (input: string) => `Path is outside /workspace/proj: ${input}`;
const linked = (link: string) => `Path contains a symbolic link: ${link}`;

describe("ws:tools under root", () => {
  for (const flavour of ["ai", "pi"] as const) {
    it(`${flavour === "ai" ? "AI SDK" : "pi"} tools: isolate code reaches only what the model could`, async () => {
      const { r, after } = await run(flavour, SOURCE);
      expect(r.stderr).toBe("");
      const error = (text: string) => ({ text, isError: true });
      // AI SDK's read throws its refusals (they are not ENOENT): the call rejects. pi turns a throw into isError.
      const thrown = (text: string) => (flavour === "ai" ? { rejected: text } : error(text));
      expect(r.value).toEqual({
        // forAISDKTools passes the tool's raw output (JSON); pi's is what the model sees.
        rel: {
          text: flavour === "ai" ? JSON.stringify({ path: "f.txt", content: "inside", startLine: 1, endLine: 1, totalLines: 1, truncated: false }) : "inside",
          isError: false,
        },
        up: thrown(outside("../sibling.txt")),
        direct: error(outside("/workspace")),
        leak: thrown(linked("/workspace/proj/leak.txt")),
        chain: error(linked("/workspace/proj/hop1")),
        ghost: error(linked("/workspace/proj/ghost")),
        escape: error(outside("../escape.txt")),
        del: error(outside("/workspace/sibling.txt")),
        grep: { text: JSON.stringify({ path: ".", query: "secret", count: 1, matches: [{ path: "/workspace/proj/src/a.ts", line: 1, text: "export const secret = 1;" }] }), isError: false },
        grepDefault: error(outside("/workspace")),
        find: { text: JSON.stringify({ path: "/workspace/proj", pattern: "**/*.txt", count: 2, entries: [{ path: "/workspace/proj/f.txt", type: "file" }, { path: "/workspace/proj/leak.txt", type: "symlink" }] }), isError: false },
        ok: { text: JSON.stringify({ path: "sub/new.txt", bytesWritten: 5 }), isError: false },
      });
      expect(after).toEqual({ outside: ["secret.txt"], secret: "secret\n", sibling: "sibling\n", created: "hello", escaped: "ENOENT" });
    });
  }
});
