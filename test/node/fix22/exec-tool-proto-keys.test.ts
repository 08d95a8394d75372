/**
 * fix22 (attack22a exec-tool-drops-proto-keys, siblings): a `"__proto__"` key of exec's `env` and `input` (any
 * depth) reaches the run through every exec entry point that validates with the tool's schema — defineExec, pi,
 * TanStack's chat() (Standard Schema validate), the AI SDK schema's validate — checked like any other key, named as
 * sent in an invalid-arguments message, and the JSON Schema of the tool is what it was.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { defineExec } from "../../../src/tools/core/exec.js";
import { toJSONSchema } from "../../../src/tools/core/schema.js";
import { escapeProtoKeys, unescapeProtoKeys } from "../../../src/tools/core/proto-keys.js";
import type { WorkspaceBackendHost, WorkspaceModuleBackendHandle } from "../../../src/runtime/index.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { runChat } from "../tools/tanstack-helpers.js";

/** Records what each run was started with (the real runtime's request to the backend). */
class RecordingBackend extends ScriptBackend {
  readonly requests: Record<string, unknown>[] = [];
  override async connect(host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle> {
    const handle = await super.connect(host);
    const exec = handle.exec.bind(handle);
    return { ...handle, exec: (request) => (this.requests.push(request as never), exec(request)) } as WorkspaceModuleBackendHandle;
  }
}

const ARGS = '{"command":"exit 0","env":{"__proto__":"p","B":"b"},"input":{"__proto__":{"x":1},"a":{"__proto__":2,"b":[{"__proto__":null}]}}}';

/** Own keys at each level the test looks at. */
function shape(request: Record<string, unknown> | undefined) {
  const input = request?.input as Record<string, Record<string, unknown>>;
  const b = (input.a.b as Record<string, unknown>[])[0]!;
  return {
    input: Object.getOwnPropertyNames(input),
    proto: input.__proto__ === Object.prototype ? "prototype" : input.__proto__,
    a: Object.getOwnPropertyNames(input.a),
    b: Object.getOwnPropertyNames(b),
    prototypes: [input, input.a, b].every((o) => Object.getPrototypeOf(o) === Object.prototype),
  };
}
const EXPECTED = { input: ["__proto__", "a"], proto: { x: 1 }, a: ["__proto__", "b"], b: ["__proto__"], prototypes: true };

function workspace() {
  const backend = new RecordingBackend({ id: "js" });
  return { backend, ws: new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] }) };
}

async function drain(run: AsyncIterable<unknown>) {
  let last: unknown;
  for await (const value of run) last = value;
  return last as Record<string, unknown>;
}

describe("fix22: __proto__ keys of exec's env and input reach the run", () => {
  it("defineExec and pi keep them at every depth; env's too", async () => {
    const { backend, ws } = workspace();
    const out = await drain(defineExec({ workspace: ws as never }).execute(JSON.parse(ARGS)));
    expect(out.exitCode).toBe(0);
    expect(shape(backend.requests[0])).toEqual(EXPECTED);
    const { execute } = createPiTools({ workspace: ws as never });
    const r = await execute({ id: "1", name: "exec", arguments: JSON.parse(ARGS) });
    expect(r.isError).not.toBe(true);
    expect(shape(backend.requests[1])).toEqual(EXPECTED);
    expect(backend.requests.map((q) => Object.getOwnPropertyNames((q as { env?: object }).env ?? {}).sort())).toEqual([
      ["B", "__proto__"],
      ["B", "__proto__"],
    ]);
    await ws.close();
  });

  it("TanStack's chat() (Standard Schema validate) and the AI SDK schema's validate keep them", async () => {
    const { backend, ws } = workspace();
    const tools = createTanStackTools({ workspace: ws as never }) as unknown as { name: string }[];
    await runChat(tools, [{ calls: [{ id: "c1", name: "exec", args: ARGS }] }, { text: "done" }]);
    expect(shape(backend.requests[0])).toEqual(EXPECTED);
    const ai = createAITools({ workspace: ws as never }) as unknown as {
      exec: { inputSchema: { validate(v: unknown): Promise<{ success: boolean; value: Record<string, unknown> }> } };
    };
    const validated = await ai.exec.inputSchema.validate(JSON.parse(ARGS));
    expect(validated.success).toBe(true);
    expect(shape(validated.value)).toEqual(EXPECTED);
    expect(Object.getOwnPropertyNames(validated.value.env)).toEqual(["__proto__", "B"]);
    await ws.close();
  });

  it("checks a __proto__ value like any other and names the key as sent", async () => {
    const { backend, ws } = workspace();
    const tool = defineExec({ workspace: ws as never });
    const bad = await drain(tool.execute(JSON.parse('{"command":"exit 0","env":{"__proto__":5}}')));
    expect(bad.error).toBe("Invalid arguments for exec: env.__proto__: Invalid input: expected string, received number");
    const deep = await drain(tool.execute(JSON.parse('{"command":"exit 0","input":{"a":{"__proto__":{"__proto__\\u0000":[1,{"__proto__":true}]}}}}')));
    expect(deep.exitCode).toBe(0);
    const input = backend.requests[0]!.input as { a: Record<string, Record<string, unknown[]>> };
    expect(Object.getOwnPropertyNames(input.a)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyNames(input.a.__proto__)).toEqual(["__proto__\u0000"]);
    expect(Object.getOwnPropertyNames(input.a.__proto__!["__proto__\u0000"]![1])).toEqual(["__proto__"]);
    expect(backend.requests).toHaveLength(1);
    await ws.close();
  });

  it("leaves the JSON Schema and objects without such keys as they were", () => {
    const { ws } = workspace();
    const schema = toJSONSchema(defineExec({ workspace: ws as never }).inputSchema);
    expect(schema.properties!.env).toEqual({
      description: "Environment variables for this run only.",
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: { type: "string" },
    });
    expect((schema.properties!.input as { type: string }).type).toBe("object");
    const plain = { a: [{ b: 1 }], c: "x" };
    expect(escapeProtoKeys(plain, true)).toBe(plain);
    expect(unescapeProtoKeys(plain)).toBe(plain);
    // A non-plain object is not turned into a plain one (zod still refuses it).
    const date = new Date(0);
    expect(escapeProtoKeys(date, true)).toBe(date);
  });
});
