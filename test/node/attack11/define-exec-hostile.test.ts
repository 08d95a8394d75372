/**
 * Issue 20, eleventh attack run: `defineExec` (agent-computer/tools/core, src/tools/core/exec.ts)
 * fed hostile call inputs, through its documented `ExecWorkspaceLike` (a runtime written here that
 * records every `exec` call and answers exit 0 — the thing under test is the tool's input check).
 *
 * Tried: a 100,000-deep `input` (issue 20 #7 through defineExec), a cyclic `input`, a BigInt, an
 * object with `toJSON` returning 10 MB, a Proxy call object and a Proxy `input` whose traps throw,
 * a throwing `input` getter, `__proto__` smuggling the backend (JSON.parse'd), backend names
 * `__proto__` / `constructor`, unknown fields (`timeoutMs: NaN`, a Symbol key).
 * All withstood: one error snapshot naming the problem and no `exec` call, or unknown fields dropped.
 * Run 40, fixer f40tl: invalidArgumentsMessage now expands a union issue as boundedIssues does (attack40d), so the
 * BigInt and the toJSON function read `Invalid input: expected string, received bigint|function` (the JSON value
 * union's first branch, as the AI SDK and TanStack say for a tie) instead of the bare `Invalid input`.
 */
import { describe, expect, it } from "vitest";
import { defineExec, type ExecToolOutput, type ExecWorkspaceLike } from "../../../src/tools/core.js";

function setup() {
  const calls: Array<Record<string, unknown> | undefined> = [];
  const ws: ExecWorkspaceLike = {
    runtime: {
      backends: () => [
        { id: "javascript", protocol: "module", callable: true, description: "JavaScript." },
        { id: "shell", protocol: "command", callable: false, description: "A shell." },
      ],
      async exec(_command, options) {
        calls.push(options as Record<string, unknown> | undefined);
        const stream = new ReadableStream<{ name: "exit"; code: number }>({ start(c) { c.enqueue({ name: "exit", code: 0 }); c.close(); } });
        return Object.assign(stream, { async result(): Promise<never> { throw new Error("not used"); }, async kill() {} });
      },
    },
  };
  const exec = defineExec({ workspace: ws });
  const last = async (input: unknown): Promise<(ExecToolOutput & { error?: string }) | undefined> => {
    let out: (ExecToolOutput & { error?: string }) | undefined;
    for await (const s of exec.execute(input as never, { toolCallId: "t1" } as never)) out = s;
    return out;
  };
  return { calls, last };
}

describe("attack11: defineExec hostile inputs", () => {
  it("deep, cyclic, BigInt and toJSON inputs: one error snapshot each, the runtime never called", async () => {
    const { calls, last } = setup();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    const errors = [];
    for (const input of [deep, cyc, { n: 10n }, { toJSON: () => "x".repeat(1e7) }]) {
      errors.push((await last({ command: "export default () => 1", backend: "javascript", input }))?.error);
    }
    expect(errors).toEqual([
      "Invalid arguments for exec: input: input is nested deeper than 64 levels",
      "Invalid arguments for exec: input: input is nested deeper than 64 levels",
      "Invalid arguments for exec: input.n: Invalid input: expected string, received bigint",
      "Invalid arguments for exec: input.toJSON: Invalid input: expected string, received function",
    ]);
    expect(calls).toEqual([]);
  });

  it("throwing Proxies and getters: the thrown message as an error snapshot, never a throw", async () => {
    const { calls, last } = setup();
    const proxy = new Proxy({}, { ownKeys() { throw new Error("ownKeys boom"); }, get() { throw new Error("get boom"); } });
    const getter = { command: "x", backend: "javascript", get input() { throw new Error("getter boom"); } };
    expect((await last(proxy))?.error).toBe("get boom");
    expect((await last({ command: "x", backend: "javascript", input: proxy }))?.error).toBe("ownKeys boom");
    expect((await last(getter))?.error).toBe("getter boom");
    expect(calls).toEqual([]);
  });

  it("__proto__ does not smuggle a backend; __proto__ / constructor are not backends", async () => {
    const { calls, last } = setup();
    expect((await last(JSON.parse('{"command":"x","__proto__":{"backend":"javascript"}}')))?.error).toBe("Name a backend to run on.");
    for (const backend of ["__proto__", "constructor"]) {
      expect((await last({ command: "x", backend }))?.error).toBe('Invalid arguments for exec: backend: Invalid option: expected one of "javascript"|"shell"');
    }
    expect(calls).toEqual([]);
  });

  it("unknown fields (timeoutMs NaN / -1, a Symbol key) are dropped: the runtime gets only the documented options", async () => {
    const { calls, last } = setup();
    await last({ command: "x", backend: "shell", timeoutMs: Number.NaN });
    await last({ command: "x", backend: "shell", timeoutMs: -1, [Symbol("s")]: 1 });
    const expected = { encoding: "utf8", backend: "shell", output: { maxBytes: 65536, maxLines: 2000 } };
    expect(calls).toEqual([expected, expected]);
  });
});
