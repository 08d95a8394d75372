/**
 * Fixer FJS, issue 20 run 22 (siblings of attack22a ws-tools-rooted-set-reads-output-log-outside-run-root): a tool
 * set rooted at or under the run's root is not checked again for a path under the run's root (its own messages
 * stay), but a path outside it is checked as an unrooted set's is — the noted full-output log by absolute path, by
 * `..` out of the root, and with a root narrower than /workspace for both the set and the backend; pi tools too.
 * The model's own read of the log (the tool call, not ws:tools) still answers its lines.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { jsBackend } from "../runtime/helpers.js";

const THREE_THOUSAND = `export default () => { for (let i = 1; i <= 3000; i++) console.log("line " + i); }`;

async function scenario(flavour: "ai" | "pi", root: string) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let ai: ReturnType<typeof createAITools> | undefined;
    let pi: ReturnType<typeof createPiTools> | undefined;
    const source = flavour === "ai" ? forAISDKTools(() => ai as never) : () => forPiTools(pi!)();
    const ws = new Workspace({
      storage: state.storage,
      backends: [jsBackend({ root, modules: { "ws:tools": createToolBindings(source) } })],
    });
    try {
      await ws.fs.mkdir(`${root}/sub`, { recursive: true });
      await ws.fs.writeFile(`${root}/sub/in.txt`, "inside\n");
      let log: string;
      let modelRead: string;
      if (flavour === "ai") {
        ai = createAITools({ workspace: ws as never, root });
        let final: { stdout: string } | undefined;
        const exec = ai.exec.execute!({ command: THREE_THOUSAND } as never, { toolCallId: "1", messages: [] } as never);
        for await (const snapshot of exec as unknown as AsyncIterable<{ stdout: string }>) final = snapshot;
        log = /Full output: (\/\S+)\]$/.exec(final!.stdout)?.[1] ?? "no note";
        const r = (await ai.read.execute!({ path: log, offset: 2999, limit: 1 } as never, { toolCallId: "2", messages: [] } as never)) as { content?: string };
        modelRead = String(r.content);
      } else {
        pi = createPiTools({ workspace: ws as never, root });
        const r = await pi.execute({ id: "1", name: "exec", arguments: { command: THREE_THOUSAND } });
        log = /Full output: (\/\S+)\]$/.exec((r.details as { stdout: string }).stdout)?.[1] ?? "no note";
        const read = await pi.execute({ id: "2", name: "read", arguments: { path: log, offset: 2999, limit: 1 } });
        modelRead = String((read.details as { content?: string }).content);
      }
      const up = root.split("/").filter(Boolean).map(() => "..").join("/") + log;
      const h = await ws.runtime.exec(
        `import { read, grep } from "ws:tools";
         const s = (p) => p.then((v) => ({ text: v.text, isError: v.isError }), (e) => ({ rejected: e.message }));
         export default async () => ({
           read: await s(read({ path: ${JSON.stringify(log)} })),
           up: await s(read({ path: ${JSON.stringify(up)} })),
           grep: await s(grep({ path: ${JSON.stringify(log)}, query: "line 2999" })),
           inside: await s(read({ path: "sub/in.txt" })),
           insideGrep: await s(grep({ query: "inside", path: "sub" })),
         });`,
      );
      return { log, modelRead, value: (await h.result()).value as Record<string, { text: string; isError: boolean }> };
    } finally {
      await ws.close();
    }
  });
}

for (const [flavour, root] of [["ai", "/workspace/sandbox"], ["pi", "/workspace"], ["pi", "/workspace/sandbox"]] as const) {
  it(`${flavour} tools rooted at ${root} in a backend rooted there: the noted log is refused to a run, the model reads it`, async () => {
    const { log, modelRead, value } = await scenario(flavour, root);
    expect(log.startsWith("/.computer/output/")).toBe(true);
    expect(modelRead).toBe("line 2999");
    const refused = { text: `EACCES: paths must stay under ${root}: ${log}`, isError: true };
    expect({ read: value.read, up: value.up, grep: value.grep }).toEqual({ read: refused, up: refused, grep: refused });
    expect(value.inside).toEqual({
      text: flavour === "pi" ? "inside" : JSON.stringify({ path: "sub/in.txt", content: "inside", startLine: 1, endLine: 1, totalLines: 1, truncated: false }),
      isError: false,
    });
    expect(value.insideGrep!.isError).toBe(false);
    expect(value.insideGrep!.text).toContain("inside");
  }, 120_000);
}

it("a set rooted under a wider run root keeps its own refusal under the run's root; outside it the run's refusal", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const value = await runInDurableObject(stub, async (_i, state) => {
    let pi: ReturnType<typeof createPiTools> | undefined;
    const ws = new Workspace({
      storage: state.storage,
      backends: [jsBackend({ modules: { "ws:tools": createToolBindings(() => forPiTools(pi!)()) } })],
    });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/top.txt", "top\n");
      await ws.fs.writeFile("/secret.txt", "secret\n");
      pi = createPiTools({ workspace: ws as never, root: "/workspace/proj" });
      const h = await ws.runtime.exec(
        `import { read } from "ws:tools";
         export default async () => Promise.all(["../top.txt", "../../secret.txt", "/secret.txt"].map((path) =>
           read({ path }).then((v) => ({ text: v.text, isError: v.isError, details: v.isError ? v.details : undefined }))));`,
      );
      return (await h.result()).value;
    } finally {
      await ws.close();
    }
  });
  const runRefusal = (given: string) => ({
    text: "EACCES: paths must stay under /workspace: /secret.txt",
    isError: true,
    details: { code: "EACCES", path: given },
  });
  expect(value).toEqual([
    { text: "Path is outside /workspace/proj: ../top.txt", isError: true, details: null },
    runRefusal("../../secret.txt"),
    runRefusal("/secret.txt"),
  ]);
}, 120_000);
