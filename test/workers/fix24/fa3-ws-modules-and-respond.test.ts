/**
 * Fixer FA3, issue 20 run 24 (siblings of attack24a ws-modules-unknown-option-key-quoted-whole and
 * respond-accepts-non-canonical-call-id), in real workerd:
 * - ws:artifacts create/importArtifact (optionsOf) and ws:container exec name an unknown key with quoteCut, and
 *   ws:artifacts' scope and ws:assets' disposition quote a bad string value the same way;
 * - ws:tools' refusal of a path outside the run's root cuts the path past 4,096 characters in its text and in
 *   `details.path`, and a result that cannot be sent as JSON keeps whole characters in its 1,024-unit reason;
 * - respond() takes only the canonical call number: `w:01`, `w:1 `, `w:1\n` are ENOTWAITING and the call still waits.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { getWorkspace, Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createAssetsModule } from "../../../src/modules/assets.js";
import { createArtifactsModule } from "../../../src/modules/artifacts.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";
import { durable, resultOf, start, waitingCalls, type DurableStub } from "../durable/helpers.js";
import { attempts, inContainerWorkspace, runJs, valueOf } from "../modules-container/helpers.js";
import { jsBackend } from "../runtime/helpers.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const SMILE = "\u{1F600}";
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const K64 = `"${"k".repeat(64)}…" (100000 characters)`;

describe("ws modules quote a caller's key or value by its first 64 characters", () => {
  it("ws:artifacts create/importArtifact keys, share's scope and ws:assets' disposition", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const out = await runInDurableObject(stub, async (_i, state) => {
      const ws = new Workspace({
        storage: state.storage,
        sessionId: "fix24-fa3",
        assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
        artifacts: { binding: new ArtifactsStandIn() as never },
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule(), "ws:artifacts": createArtifactsModule() } })],
      });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/r.txt", "hi");
        const r = await (
          await ws.runtime.exec(
            `import { publish } from "ws:assets";
             import { create, importArtifact, share } from "ws:artifacts";
             const key = "k".repeat(100000);
             const attempt = async (f) => { try { await f(); return "resolved"; } catch (e) { return e.name + ": " + e.message; } };
             export default async () => ({
               create: await attempt(() => create("repo", { [key]: 1 })),
               importSource: await attempt(() => importArtifact("repo", { [key]: 1 })),
               importOpts: await attempt(() => importArtifact("repo", { url: "https://example.com/x.git" }, { [key]: 1 })),
               scope: await attempt(() => share("repo", { scope: key })),
               disposition: await attempt(() => publish("r.txt", { disposition: key })),
               shortKey: await attempt(() => share("repo", { "a\\nb": 1 })),
             });`,
            { encoding: "utf8", timeoutMs: 60_000 },
          )
        ).result();
        if (r.exitCode !== 0) throw new Error(`the run failed: ${r.stderr}`);
        return r.value as Record<string, string>;
      } finally {
        await ws.close();
      }
    });
    expect(out).toEqual({
      create: `TypeError: create: unknown opts key ${K64}; known: description, readOnly, setDefaultBranch`,
      importSource: `TypeError: importArtifact: unknown source key ${K64}; known: url, branch, depth`,
      importOpts: `TypeError: importArtifact: unknown opts key ${K64}; known: description, readOnly`,
      scope: `TypeError: share: scope must be "read" or "write", got ${K64}`,
      disposition: `TypeError: publish: disposition must be "inline" or "attachment", got ${K64}`,
      shortKey: 'TypeError: share: unknown option "a\\nb"; known: scope, ttl',
    });
    expect((await env.ASSETS_BUCKET.list()).objects.length).toBe(0);
  });

  it("ws:container exec names an unknown option key by quoteCut, before anything runs", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const r = await runJs(ws, attempts([`"echo x > /workspace/ran.txt", { ["k".repeat(100000)]: 1 }`, `"echo x > /workspace/ran.txt", { 'a"b': 1 }`]));
      return { value: valueOf(r), ran: await ws.fs.stat("/workspace/ran.txt").then(() => true, () => false) };
    });
    const e = "ws:container exec";
    expect(out).toEqual({
      value: [
        { error: [`${e}: unknown option ${K64} (options are cwd, env, stdin, timeoutMs)`, null] },
        { error: [`${e}: unknown option "a\\"b" (options are cwd, env, stdin, timeoutMs)`, null] },
      ],
      ran: false,
    });
  });
});

describe("ws:tools cuts what it echoes", () => {
  it("a path outside the run's root is refused naming it cut past 4,096 characters; an unsendable result's reason keeps whole characters", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const far = `/other/${"d".repeat(5000)}`;
    const shown = `${far.slice(0, 4096)}[… ${far.length - 4096} characters cut …]`;
    const out = await runInDurableObject(stub, async (_i, state) => {
      let ai: ReturnType<typeof createAITools> | undefined;
      const odd = { odd: { execute: async () => ({ v: { toJSON: () => { throw new Error(`x${SMILE.repeat(2000)}`); } } }) } };
      const ws = new Workspace({
        storage: state.storage,
        backends: [
          jsBackend({
            root: "/workspace",
            modules: { "ws:tools": createToolBindings(() => [...forAISDKTools(() => ai as never)(), ...forAISDKTools(odd as never)()]) },
          }),
        ],
      });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        ai = createAITools({ workspace: ws as never });
        const r = await (
          await ws.runtime.exec(
            `import { read, odd } from "ws:tools";
             export default async () => ({ read: await read({ path: ${JSON.stringify(far)} }), odd: await odd({}) });`,
            { encoding: "utf8", timeoutMs: 60_000 },
          )
        ).result();
        if (r.exitCode !== 0) throw new Error(`the run failed: ${r.stderr}`);
        return r.value as Record<string, { text: string; isError: boolean; details: unknown }>;
      } finally {
        await ws.close();
      }
    });
    expect(out.read.isError).toBe(true);
    expect(out.read.details).toEqual({ code: "EACCES", path: shown });
    expect(out.read.text).toContain(shown);
    expect(out.read.text.length).toBeLessThan(4096 + 300);
    // "Error: x" then 😀s: unit 1,022 would be half of a pair, so the reason ends after 1,022 units and `…`.
    expect(out.odd).toEqual({
      text: `Tool "odd" ran, but its output cannot be sent as JSON (Error: x${SMILE.repeat(507)}…); what it did stands.`,
      isError: true,
      details: null,
    });
    expect(LONE.test(out.odd.text)).toBe(false);
  });
});

async function respond(stub: DurableStub, id: string, callId: string, answer: unknown) {
  using ws = await getWorkspace(stub);
  return ws.runtime.respond(id, callId, answer as never).then(
    () => "resolved",
    (e: Error & { code?: string; message: string }) => `${e.code}: ${e.message}`,
  );
}

describe("respond() and the canonical call number", () => {
  it("w:01, w:1 and a trailing newline are ENOTWAITING; the call keeps waiting and w:1 then answers it", async () => {
    const { stub, fresh } = durable();
    await start(stub, `import { ask } from "ws:approve";\nexport default async () => ({ answer: await ask({ q: 1 }) });`, { id: "w", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "w" }]);
    expect(call).toMatchObject({ id: "w", callId: "w:1" });
    const out: Record<string, string> = {};
    for (const spelling of ["w:01", "w:1 ", "w:1\n", "w:1_0", "w:١"]) out[spelling] = await respond(fresh(), "w", spelling, "no");
    const refused = (callId: string) => `ENOTWAITING: execution "w" has no call ${JSON.stringify(callId)} waiting for an answer on backend "worker-javascript"`;
    expect(out).toEqual({ "w:01": refused("w:01"), "w:1 ": refused("w:1 "), "w:1\n": refused("w:1\n"), "w:1_0": refused("w:1_0"), "w:١": refused("w:١") });
    using ws = await getWorkspace(fresh());
    expect((await ws.runtime.pending()).map((c) => c.callId)).toEqual(["w:1"]);
    expect(await respond(fresh(), "w", "w:1", "yes")).toBe("resolved");
    expect(await resultOf(fresh(), "w")).toMatchObject({ status: "completed", value: { answer: "yes" } });
  });
});
