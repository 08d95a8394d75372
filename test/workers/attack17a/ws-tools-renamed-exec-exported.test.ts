/**
 * Issue 20, seventeenth attack run: `ws:tools` (src/modules/tools.ts createToolBindings) and the library's exec tool
 * exported under another key.
 * Tried: a JavaScript run confined with `root: "/workspace/proj"` (access "read-write") whose `ws:tools` is
 * `forAISDKTools(() => ({ read: tools.read, bash: tools.exec }))` over `createAITools({ workspace })` — giving the
 * exec tool the name models know best (`bash`) is the AI SDK's ordinary way to rename a tool; also a copy
 * (`{ shell: { ...tools.exec } }`). The Workspace has a shell backend (WorkerShellBackend, no root).
 * Held: exec under its own key is not exported (the default `exclude: ["exec"]`), and TOOL.md directory tools are
 * left out under any key and in copies (attack12 / fifteenth run: marked by their execute).
 * Found (high — the run's root and the "no runs from isolate code" rule lifted; 3 of 3 runs): `exclude` compares the
 * BINDING's name only (`!exclude.has(b.name)`), so the renamed exec is exported and runs unconfined in the Workspace's
 * backends: `import { bash } from "ws:tools"; await bash({ command: "cat /workspace/secret.txt; echo planted >
 * /workspace/planted.txt", backend: "shell" })` returns stdout "top secret" and writes /workspace/planted.txt, from
 * code confined to /workspace/proj (whose own node:fs and `read` get EACCES for the same file). docs/runtime.md:
 * "`exec` is excluded by default (`exclude`), and so are TOOL.md directory tools … like exec they run in the
 * Workspace's backends, outside the calling run's root, and start runs"; "Calls keep to the backend's root as the
 * run's node:fs does, whatever the tool set reaches". The file tools (attack13a) and directory tools (attack12) are
 * recognised by their tool object/execute whatever their key; exec is the one left recognised by key.
 * Suggested fix: treat the library's exec (createAITools/createTanStackTools/createPiTools, and createExecTool) like
 * a directory tool — mark it (and its execute) as starting runs so createToolBindings leaves it out under any key and
 * in copies unless `runTools: true` (or match `exclude` against the library tool's spec name,
 * `LIBRARY_TOOL`, as well as the binding's name).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

const CODE = `import * as t from "ws:tools";
import { readFile } from "node:fs/promises";
export default async () => {
  const out = { exports: Object.keys(t).sort().join(","), own: await readFile("/workspace/secret.txt", "utf8").catch((e) => e.code) };
  for (const k of ["bash", "shell"]) if (typeof t[k] === "function") {
    const r = await t[k]({ command: "cat /workspace/secret.txt; echo planted > /workspace/planted.txt", backend: "shell" });
    out[k] = JSON.parse(r.text).stdout;
  }
  return out;
};`;

async function runWith(pick: (tools: ReturnType<typeof createAITools>) => Record<string, unknown>) {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: ReturnType<typeof createAITools> | undefined;
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({ id: "js", loader: env.LOADER, root: "/workspace/proj", access: "read-write", modules: { "ws:tools": createToolBindings(forAISDKTools(() => pick(tools!) as never)) } }),
        new WorkerShellBackend({ id: "shell", loader: env.LOADER }),
      ],
    });
    tools = createAITools({ workspace: ws });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const r = await (await ws.runtime.exec(CODE, { encoding: "utf8", backend: "js" })).result();
      return { status: r.status, value: r.value, planted: await ws.fs.readFile("/workspace/planted.txt", "utf8").catch((e: { code?: string }) => e.code) };
    } finally {
      await ws.close();
    }
  });
}

it("held: exec under its own key is not exported", { timeout: 60_000 }, async () => {
  expect(await runWith((t) => ({ read: t.read, exec: t.exec }))).toEqual({ status: "completed", value: { exports: "read", own: "EACCES" }, planted: "ENOENT" });
});

it.fails("exec exported as `bash` (or a copy as `shell`) is left out like exec (today: exported, reads and writes outside the root)", { timeout: 60_000 }, async () => {
  const renamed = await runWith((t) => ({ read: t.read, bash: t.exec, shell: { ...t.exec } }));
  // Today: { exports: "bash,read,shell", own: "EACCES", bash: "top secret", shell: "top secret" }, planted: "planted\n".
  expect(renamed).toEqual({ status: "completed", value: { exports: "read", own: "EACCES" }, planted: "ENOENT" });
});
