/**
 * Issue 20, twenty-second attack run: the exec tool silently drops every `"__proto__"` key of `input` and `env`
 * (pi and TanStack adapters, and defineExec), though the runtime keeps it.
 * Tried: createPiTools over a Workspace with a WorkerJavaScriptBackend (Durable Object); the model's arguments as
 * JSON text parses them — `{"command": …, "env": {"__proto__": "p", "B": "b"}, "input": {"__proto__": {"x": 1},
 * "a": {"__proto__": 2, "b": 3}}}` — and the module reports the own keys of `input`, `input.a` and `process.env`.
 * The same input straight to `ws.runtime.exec` for comparison. 06c8153 (attack21c) made such env names reach a
 * container command; request.ts documents that "a "__proto__" key stays an ordinary key" of env; normalizeJson keeps
 * it in `input` (defineKey).
 * Held: ws.runtime.exec keeps all of them (input keys ["__proto__", "a"], a's ["__proto__", "b"], env ["B",
 * "__proto__"]); the AI SDK adapter refuses such arguments visibly ("forbidden prototype property", attack3
 * exec-tool-calls), so the model can tell.
 * Found (low — silent loss of the model's data, no error; 3 of 3 runs): through pi's exec the run gets input keys
 * ["a"], a's ["b"], env ["B"]: the exec tool's zod schema (src/tools/core/exec-backends.ts execInputSchema:
 * z.record for env, the JSON value schema for input) builds its output with `out[key] = value`, and the
 * `__proto__` assignment sets the copy's prototype instead of a key — the value vanishes before runtime.exec, and
 * the result says nothing of it. TanStack (chat() validates with the same schema) and defineExec do the same.
 * Suggested fix: after a successful parse, hand runtime.exec the caller's own `env` and `input` (already checked
 * by the parse, and normalised again by the runtime), or rebuild them with defineKey; or refuse a `__proto__` key
 * with an invalid-arguments message as the AI SDK does, so the model knows.
 * Fixed: the exec schema (src/tools/core/exec-backends.ts) renames each own `"__proto__"` key of `env` and of `input`
 * (any depth) before zod parses it and names it back on the parsed copy with defineProperty
 * (src/tools/core/proto-keys.ts), so its value is validated like any other key's and reaches the run; issue paths
 * name the key as sent (schema.ts). Every parse of the schema keeps them: pi, TanStack's Standard Schema validate,
 * defineExec's own check, the AI SDK schema's validate (whose JSON parsing still refuses such text first).
 * Siblings: test/node/fix22/exec-tool-proto-keys.test.ts.
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

const MODULE =
  "export default (input) => ({ input: Object.getOwnPropertyNames(input), a: Object.getOwnPropertyNames(input.a), env: Object.getOwnPropertyNames(process.env).sort() })";
const ARGS = `{"command": ${JSON.stringify(MODULE)}, "env": {"__proto__": "p", "B": "b"}, "input": {"__proto__": {"x": 1}, "a": {"__proto__": 2, "b": 3}}}`;

it("pi's exec passes __proto__ keys of input and env to the run, as runtime.exec does", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const args = JSON.parse(ARGS) as { command: string; env: Record<string, string>; input: Record<string, unknown> };
    const direct = (await (await ws.runtime.exec(args.command, { env: args.env, input: args.input as never })).result()).value;
    const { execute } = createPiTools({ workspace: ws as never });
    const r = await execute({ id: "1", name: "exec", arguments: JSON.parse(ARGS) });
    return { direct, tool: (r.details as { result?: unknown }).result };
  });
  expect(out.direct).toEqual({ input: ["__proto__", "a"], a: ["__proto__", "b"], env: ["B", "__proto__"] });
  // Found: tool { input: ["a"], a: ["b"], env: ["B"] }.
  expect(out.tool).toEqual(out.direct);
}, 120_000);
