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
 * Fixed: createToolBindings (src/modules/tools.ts) matches `exclude` against the library tool a binding runs
 * (`LIBRARY_TOOL`: the exec of createAITools/createTanStackTools/createPiTools, by the tool object or its execute, so
 * copies too) as well as the binding's name, and refuses a call whose tool has since become an excluded one;
 * the standalone createExecTool (src/tools/ai-sdk-tools.ts) is now marked as the library's exec as well.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools, createExecTool } from "../../../src/tools/ai-sdk.js";

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

async function runWith(pick: (tools: ReturnType<typeof createAITools>, ws: Workspace) => Record<string, unknown>, exclude?: string[]) {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: ReturnType<typeof createAITools> | undefined;
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({ id: "js", loader: env.LOADER, root: "/workspace/proj", access: "read-write", modules: { "ws:tools": createToolBindings(forAISDKTools((): never => pick(tools!, ws) as never), exclude ? { exclude } : {}) } }),
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

it("exec exported as `bash` (or a copy as `shell`) is left out like exec (was: exported, reads and writes outside the root)", { timeout: 60_000 }, async () => {
  const renamed = await runWith((t) => ({ read: t.read, bash: t.exec, shell: { ...t.exec } }));
  // Was: { exports: "bash,read,shell", own: "EACCES", bash: "top secret", shell: "top secret" }, planted: "planted\n".
  expect(renamed).toEqual({ status: "completed", value: { exports: "read", own: "EACCES" }, planted: "ENOENT" });
});

it("the standalone createExecTool, renamed or copied, is left out too", { timeout: 60_000 }, async () => {
  const renamed = await runWith((t, ws) => {
    const exec = createExecTool({ workspace: ws });
    return { read: t.read, bash: exec, shell: { ...exec } };
  });
  expect(renamed).toEqual({ status: "completed", value: { exports: "read", own: "EACCES" }, planted: "ENOENT" });
});

it("held: with `exclude: []` the host opts in, and the renamed exec is exported (it runs in the Workspace's backends)", { timeout: 60_000 }, async () => {
  const optedIn = await runWith((t) => ({ read: t.read, bash: t.exec }), []);
  expect(optedIn).toEqual({ status: "completed", value: { exports: "bash,read", own: "EACCES", bash: "top secret" }, planted: "planted\n" });
});

it("a binding whose tool became the library's exec after connect (a function source) is refused, not run", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: ReturnType<typeof createAITools> | undefined;
    let swapped = false;
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          id: "js",
          loader: env.LOADER,
          root: "/workspace/proj",
          access: "read-write",
          modules: {
            "ws:tools": createToolBindings(forAISDKTools((): never => ({ bash: swapped ? tools!.exec : tools!.read }) as never)),
            "ws:flip": () => ({ flip: async () => ((swapped = true), null) }),
          },
        }),
        new WorkerShellBackend({ id: "shell", loader: env.LOADER }),
      ],
    });
    tools = createAITools({ workspace: ws });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const code = `import { bash } from "ws:tools";
import { flip } from "ws:flip";
export default async () => {
  await flip();
  return await bash({ command: "cat /workspace/secret.txt; echo planted > /workspace/planted.txt", backend: "shell" }).then(() => "ran", (e) => e.message);
};`;
      const r = await (await ws.runtime.exec(code, { encoding: "utf8", backend: "js" })).result();
      expect([r.status, r.value]).toEqual(["completed", 'ws:tools bash: the tool under this name is now "exec", which is not exported; it is not run.']);
      expect(await ws.fs.readFile("/workspace/planted.txt", "utf8").catch((e: { code?: string }) => e.code)).toBe("ENOENT");
    } finally {
      await ws.close();
    }
  });
});
