/**
 * defineExec's `execute` checks its input with the tool's own `inputSchema` before calling the
 * runtime (spec 03 §4.8, §7.2): input that is not an object, or a field of the wrong type, ends as
 * one error snapshot naming the field (`Invalid arguments for exec: <field>: <problem>`), never a
 * throw, and no run starts. Runs against a real Workspace runtime with a script backend.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";
import { ScriptBackend } from "../runtime/script-backend.js";

async function snapshots(gen: AsyncGenerator<ExecToolOutput>): Promise<ExecToolOutput[]> {
  const out: ExecToolOutput[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

function setup(...backends: ScriptBackend[]) {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends });
  return { exec: defineExec({ workspace: ws }), runs: () => backends.reduce((n, b) => n + b.runs.size, 0) };
}

describe("defineExec: input checked before the runtime is called", () => {
  it("null, undefined, a string and an array → one error snapshot", async () => {
    const { exec, runs } = setup(new ScriptBackend({ id: "js" }));
    const cases: Array<[unknown, string]> = [
      [null, "Invalid arguments for exec: Invalid input: expected object, received null"],
      [undefined, "Invalid arguments for exec: Invalid input: expected object, received undefined"],
      ["out x", "Invalid arguments for exec: Invalid input: expected object, received string"],
      [["out x"], "Invalid arguments for exec: Invalid input: expected object, received array"],
    ];
    for (const [input, error] of cases) {
      expect(await snapshots(exec.execute(input as never))).toEqual([{ command: "", cwd: null, backend: "js", error }]);
    }
    expect(runs()).toBe(0);
  });

  it("wrong-typed fields → the field named in the error; the call's string fields kept", async () => {
    const { exec, runs } = setup(new ScriptBackend({ id: "js" }));
    const cases: Array<[unknown, ExecToolOutput]> = [
      [{ command: 42 }, { command: "", cwd: null, backend: "js", error: "Invalid arguments for exec: command: Invalid input: expected string, received number" }],
      [{ command: null }, { command: "", cwd: null, backend: "js", error: "Invalid arguments for exec: command: Invalid input: expected string, received null" }],
      [{}, { command: "", cwd: null, backend: "js", error: "Invalid arguments for exec: command: Invalid input: expected string, received undefined" }],
      [{ command: "out x", cwd: 7 }, { command: "out x", cwd: null, backend: "js", error: "Invalid arguments for exec: cwd: Invalid input: expected string, received number" }],
      [
        { command: "out x", cwd: "/w", env: { A: 1 } },
        { command: "out x", cwd: "/w", backend: "js", error: "Invalid arguments for exec: env.A: Invalid input: expected string, received number" },
      ],
    ];
    for (const [input, snapshot] of cases) expect(await snapshots(exec.execute(input as never))).toEqual([snapshot]);
    expect(runs()).toBe(0);
  });

  it("several backends: an unknown backend id is refused by the schema; a valid call still runs", async () => {
    const js = new ScriptBackend({ id: "js" });
    const sh = new ScriptBackend({ id: "sh", callable: false });
    const { exec, runs } = setup(js, sh);
    const [refused] = await snapshots(exec.execute({ command: "out x", backend: "nope" }));
    expect(refused).toEqual({ command: "out x", cwd: null, backend: "nope", error: 'Invalid arguments for exec: backend: Invalid option: expected one of "js"|"sh"' });
    expect(runs()).toBe(0);
    const out = await snapshots(exec.execute({ command: "out ok\\n", backend: "sh" }));
    expect(out.at(-1)).toEqual({ command: "out ok\\n", cwd: null, backend: "sh", exitCode: 0, stdout: "ok\n", stderr: "" });
  });
});
