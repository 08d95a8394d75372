import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

/**
 * `ws:tools` under the JavaScript backend's `root` (docs/runtime.md
 * "ws:tools"): the file tools' `path` is checked with `ctx.resolvePath`, the
 * run's own node:fs check, whatever the tool set reaches. The backend's root
 * is `/workspace/proj`; the tool sets have no root (relative paths resolve
 * against `/`), except the last case (a set rooted under the backend's root).
 */
type Flavour = "ai" | "pi";

async function run(flavour: Flavour, source: string, toolRoot?: string) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let ws!: Workspace;
    const options = () => (toolRoot === undefined ? { workspace: ws } : { workspace: ws, root: toolRoot });
    const tools = flavour === "ai" ? forAISDKTools(() => createAITools(options())) : () => forPiTools(createPiTools(options()))();
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:tools": createToolBindings(tools) } });
    ws = new Workspace({ storage: state.storage, backends: [backend] });
    const fs = ws.fs;
    await fs.mkdir("/workspace/proj/src", { recursive: true });
    await fs.mkdir("/workspace/other", { recursive: true });
    await fs.writeFile("/workspace/proj/f.txt", "inside\n");
    await fs.writeFile("/workspace/secret.txt", "top secret\n");
    await fs.symlink("/workspace/other", "/workspace/proj/ghost");
    try {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
      const after = {
        other: (await fs.readdir("/workspace/other")).map((e) => e.name),
        created: await fs.readFile("/workspace/proj/src/new.txt", "utf8").catch((e: { code?: string }) => e.code),
      };
      return { r, after };
    } finally {
      await ws.close();
    }
  });
}

const SOURCE = `import * as tools from "ws:tools";
export default async () => {
  const settle = (p) => p.then((v) => ({ text: v.text, isError: v.isError, ...(v.isError && v.details && v.details.code ? { details: v.details } : {}) }), (e) => ({ rejected: e.message }));
  return {
    read: await settle(tools.read({ path: "/workspace/secret.txt" })),
    relative: await settle(tools.read({ path: "workspace/secret.txt" })),
    up: await settle(tools.read({ path: "/workspace/proj/../secret.txt" })),
    write: await settle(tools.write({ path: "/workspace/other/planted.txt", content: "x" })),
    ghost: await settle(tools.write({ path: "/workspace/proj/ghost/planted.txt", content: "x" })),
    ls: await settle(tools.ls({ path: "/workspace" })),
    grepDefault: await settle(tools.grep({ query: "secret" })),
    findDefault: await settle(tools.find({ pattern: "**" })),
    inside: await settle(tools.read({ path: "/workspace/proj/f.txt" })),
    ok: await settle(tools.write({ path: "/workspace/proj/src/new.txt", content: "hello" })),
  };
};`;

const refused = (path: string, given = path) => ({
  text: `EACCES: paths must stay under /workspace/proj: ${path}`,
  isError: true,
  details: { code: "EACCES", path: given },
});

describe("ws:tools under the backend's root", () => {
  for (const flavour of ["ai", "pi"] as const) {
    it(`${flavour === "ai" ? "AI SDK" : "pi"} tools without a root: every file tool keeps to the run's root`, { timeout: 60_000 }, async () => {
      const { r, after } = await run(flavour, SOURCE);
      expect(r.stderr).toBe("");
      expect(r.status).toBe("completed");
      const value = r.value as Record<string, { text: string; isError: boolean }>;
      expect({ ...value, inside: undefined, ok: undefined }).toEqual({
        read: refused("/workspace/secret.txt"),
        relative: refused("/workspace/secret.txt", "workspace/secret.txt"),
        up: refused("/workspace/secret.txt", "/workspace/proj/../secret.txt"),
        write: refused("/workspace/other/planted.txt"),
        ghost: { text: "EACCES: cannot traverse symbolic link: /workspace/proj/ghost", isError: true, details: { code: "EACCES", path: "/workspace/proj/ghost/planted.txt" } },
        ls: refused("/workspace"),
        grepDefault: refused("/workspace"),
        findDefault: refused("/workspace"),
        inside: undefined,
        ok: undefined,
      });
      expect(value.inside!.isError).toBe(false);
      expect(value.inside!.text).toContain("inside");
      expect(value.ok!.isError).toBe(false);
      expect(after).toEqual({ other: [], created: "hello" });
    });
  }

  // A path under the backend's root is the set's own to confine (its messages); one outside the backend's root is
  // checked as for an unrooted set (fixer FJS, run 22: else the set's noted full-output logs were open to a run).
  it("a tool set rooted under the backend's root keeps its own messages under the backend's root (checked once)", { timeout: 60_000 }, async () => {
    const { r } = await run("pi", `import { read } from "ws:tools";
export default async () => [await read({ path: "f.txt" }), await read({ path: "../secret.txt" })].map((v) => ({ text: v.text, isError: v.isError }));`, "/workspace/proj");
    expect(r.value).toEqual([
      { text: "inside", isError: false },
      { text: "EACCES: paths must stay under /workspace/proj: /workspace/secret.txt", isError: true },
    ]);
  });
});
