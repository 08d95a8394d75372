/**
 * client.runtime over real RPC: backends snapshot, exec with live events,
 * result(), kill, durable relative imports, runtime error codes.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { rejection } from "./helpers.js";

const agent = () => env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId());

type Event = { id: string; seq: number; name: string; value?: unknown; code?: number; result?: unknown };

async function events(stream: ReadableStream<unknown>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of stream as unknown as AsyncIterable<Event>) out.push(event);
  return out;
}

describe("remote runtime", () => {
  it("answers backends() from a frozen snapshot identical to the Workspace's", async () => {
    const stub = agent();
    using ws = await getWorkspace(stub);
    const backends = ws.runtime.backends();
    expect(Object.isFrozen(backends) && Object.isFrozen(backends[0])).toBe(true);
    expect(ws.runtime.backends()).toBe(backends);
    expect(backends.map(({ id, protocol, callable }) => ({ id, protocol, callable }))).toEqual([
      { id: "worker-javascript", protocol: "module", callable: true },
    ]);
    const local = await (await import("cloudflare:test")).runInDurableObject(stub, async (instance) => {
      using mine = await getWorkspace(instance);
      return mine.runtime.backends();
    });
    expect(backends).toEqual(local);
    expect(backends[0].description).toContain("node:fs/promises");
  });

  it("streams exec events across RPC: stdout and stderr bytes, then exit with the result", async () => {
    using ws = await getWorkspace(agent());
    using handle = await ws.runtime.exec(
      'export default async function (input) { console.log("hello"); console.error("careful"); return { doubled: input.n * 2 }; }',
      { input: { n: 21 } },
    );
    expect(handle.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(handle.backend).toBe("worker-javascript");
    const seen = await events(handle);
    const decode = (value: unknown) => new TextDecoder().decode(value as Uint8Array);
    expect(seen.map((e) => e.name)).toEqual(["stdout", "stderr", "exit"]);
    expect(seen.every((e) => e.id === handle.id)).toBe(true);
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(seen[0].value).toBeInstanceOf(Uint8Array);
    expect(decode(seen[0].value)).toBe("hello\n");
    expect(decode(seen[1].value)).toBe("careful\n");
    expect(seen[2]).toMatchObject({ name: "exit", code: 0, result: { doubled: 42 } });
  });

  it("returns result() with utf8 output, imports Workspace files durably, and keeps the caller's id", async () => {
    using ws = await getWorkspace(agent());
    await ws.fs.mkdir("/workspace/lib", { recursive: true });
    await ws.fs.writeFile("/workspace/lib/math.js", "export const triple = (n) => n * 3;\n");
    using handle = await ws.runtime.exec(
      'import { triple } from "./lib/math.js";\nexport default () => { console.log("t", triple(5)); return triple(5); };',
      { cwd: "/workspace", encoding: "utf8", id: "my-run-1" },
    );
    expect(handle.id).toBe("my-run-1");
    const result = (await handle.result()) as { status: string; exitCode: number; stdout: string; stderr: string; value: unknown };
    expect(result).toMatchObject({ status: "completed", exitCode: 0, stdout: "t 15\n", stderr: "", value: 15 });
    await expect(handle.getReader().read()).rejects.toThrow(/already consumed by result\(\)/);
  });

  it("kills a run across RPC and reports it cancelled", async () => {
    using ws = await getWorkspace(agent());
    using handle = await ws.runtime.exec("export default () => new Promise((resolve) => setTimeout(resolve, 60_000));");
    await handle.kill();
    const result = (await handle.result()) as { status: string; exitCode: number };
    expect(result).toMatchObject({ status: "cancelled", exitCode: 130 });
  });

  it("keeps runtime error codes across RPC", async () => {
    using ws = await getWorkspace(agent());
    const missing = await rejection(ws.runtime.getExec("no-such-run"));
    expect(missing.code).toBe("ENOENT");
    const bad = await rejection(ws.runtime.exec("export default 1", { backend: "nope" }));
    expect(bad.message).toContain('no backend with id "nope"');
    const failing = await ws.runtime.exec('export default () => { throw new Error("boom"); }', { encoding: "utf8" });
    expect(await failing.result()).toMatchObject({ status: "failed", exitCode: 1 });
  });
});
