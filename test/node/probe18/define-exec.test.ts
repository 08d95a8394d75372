/**
 * probe18 (fresh-user probe): `defineExec` from `agent-computer/tools/core` (docs/tools.md), driven
 * through its documented `ExecWorkspaceLike` ({ runtime: { exec, backends? } }) — a runtime written
 * here, as a user with "a loop of their own" would, replaying a scripted event list.
 */
import { describe, expect, it } from "vitest";
import { defineExec, type ExecToolOutput, type ExecWorkspaceLike } from "../../../src/tools/core.js";

type Ev = { name: "stdout" | "stderr"; value: string } | { name: "exit"; code: number };

/** A runtime whose `exec` replays `events` as a ReadableStream handle; `killed` records kill(). */
function runtime(events: Ev[] | ((command: string) => Ev[] | Error), opts: { never?: boolean } = {}) {
  const state = { killed: [] as string[], calls: [] as Array<[string, Record<string, unknown> | undefined]> };
  const ws: ExecWorkspaceLike = {
    runtime: {
      backends: () => [{ id: "container-shell", protocol: "shell", callable: false, description: "A shell." }],
      async exec(command, options) {
        state.calls.push([command, options]);
        const evs = typeof events === "function" ? events(command) : events;
        if (evs instanceof Error) throw evs;
        let cancel: (() => void) | undefined;
        const stream = new ReadableStream<Ev>({
          start(c) {
            for (const e of evs) c.enqueue(e);
            if (!opts.never) c.close();
            cancel = () => c.close();
          },
        });
        return Object.assign(stream, {
          async result() {
            throw new Error("not used");
          },
          async kill(signal?: string) {
            state.killed.push(signal ?? "");
            cancel?.();
          },
        });
      },
    },
  };
  return { ws, state };
}

const all = async (g: AsyncGenerator<ExecToolOutput>) => {
  const out: ExecToolOutput[] = [];
  for await (const s of g) out.push(s);
  return out;
};

describe("probe18 defineExec: the docs' example", () => {
  it("for await over execute({ command: 'npm test' }) ends in the documented terminal snapshot", async () => {
    const { ws } = runtime([{ name: "stdout", value: "ok\n" }, { name: "exit", code: 0 }]);
    const exec = defineExec({ workspace: ws, maxLines: 200 });
    expect(typeof exec.description).toBe("string");
    expect(exec.inputSchema).toBeDefined();
    let last: ExecToolOutput | undefined;
    for await (const snapshot of exec.execute({ command: "npm test" }, { abortSignal: new AbortController().signal })) last = snapshot;
    expect(last).toEqual({ command: "npm test", cwd: null, backend: "container-shell", exitCode: 0, stdout: "ok\n", stderr: "" });
  });

  it("exactly one terminal snapshot; running ones have exitCode null", async () => {
    let t = 0;
    const { ws } = runtime([{ name: "stdout", value: "a\n" }, { name: "stdout", value: "b\n" }, { name: "exit", code: 2 }]);
    const out = await all(defineExec({ workspace: ws, now: () => (t += 1000) }).execute({ command: "x" }));
    expect(out.filter((s) => "exitCode" in s && s.exitCode !== null).length).toBe(1);
    expect(out.at(-1)).toMatchObject({ exitCode: 2, stdout: "a\nb\n" });
  });

  it("the result also carries name, mutating, limits and isProgress (porting.md; docs/tools.md lists only four members)", () => {
    const exec = defineExec({ workspace: runtime([]).ws });
    expect(Object.keys(exec).sort()).toEqual(["description", "execute", "inputSchema", "isProgress", "limits", "mutating", "name"]);
    expect({ name: exec.name, mutating: exec.mutating, limits: exec.limits }).toEqual({ name: "exec", mutating: true, limits: { maxBytes: 65536, maxLines: 2000 } });
  });

  it("prepareArguments is absent with only a shell backend", () => {
    expect(defineExec({ workspace: runtime([]).ws }).prepareArguments).toBeUndefined();
  });
});

describe("probe18 defineExec: bad input", () => {
  it("bad options: maxBytes/maxLines 0, -1, 1.5, NaN, '10' → TypeError at build time", () => {
    const { ws } = runtime([]);
    for (const bad of [0, -1, 1.5, Number.NaN, "10"]) {
      expect(() => defineExec({ workspace: ws, maxBytes: bad as never })).toThrow(TypeError);
      expect(() => defineExec({ workspace: ws, maxLines: bad as never })).toThrow(TypeError);
    }
  });

  it("no workspace / a workspace without runtime.exec → TypeError at build time", () => {
    for (const bad of [undefined, null, {}, { runtime: {} }]) {
      expect(() => defineExec({ workspace: bad as never })).toThrow(TypeError);
    }
  });

  it("an unknown backend in `backends` → TypeError at build time", () => {
    expect(() => defineExec({ workspace: runtime([]).ws, backends: { nope: {} } as never })).toThrow(TypeError);
  });

  /*
   * Finding (low). `execute(null)` / `execute(undefined)` throws a raw
   * `TypeError: Cannot read properties of null (reading 'command')` out of the generator.
   * ExecDefinition.execute's TSDoc: "Bad input and backend failures end as an error output the
   * model can read, never a throw." A user's own loop (what docs/tools.md offers defineExec for)
   * passes model-produced arguments straight in.
   * Fixed in 0eb919d: now a regression check.
   */
  it("null / undefined input ends as one error snapshot, never a throw", async () => {
    const { ws, state } = runtime([{ name: "exit", code: 0 }]);
    const exec = defineExec({ workspace: ws });
    for (const input of [null, undefined]) {
      const out = await all(exec.execute(input as never)).catch((e: unknown) => [{ threw: String(e) }]);
      expect(out).toEqual([expect.objectContaining({ error: expect.any(String) })]);
    }
    expect(state.calls).toEqual([]);
  });

  /*
   * Finding (low). Wrong-typed fields are not checked against `inputSchema` by `execute`:
   * `{ command: 42 }`, `{ command: null }`, `{}` and `{ command: "ls", cwd: 7 }` all reach
   * `runtime.exec` (as `42`, `null`, `null`, `cwd: 7`) and, with a runtime that accepts them, end in
   * a successful snapshot `{ command: 42, …, exitCode: 0 }`. Same TSDoc as above; docs/tools.md
   * does not say the caller must parse with `inputSchema` first.
   * Fixed in 0eb919d: now a regression check.
   */
  it("wrong-typed fields (command 42/null/missing, cwd 7) end as an error snapshot, runtime not called", async () => {
    const { ws, state } = runtime([{ name: "exit", code: 0 }]);
    const exec = defineExec({ workspace: ws });
    for (const input of [{ command: 42 }, { command: null }, {}, { command: "ls", cwd: 7 }]) {
      const out = await all(exec.execute(input as never));
      expect(out).toEqual([expect.objectContaining({ error: expect.any(String) })]);
    }
    expect(state.calls).toEqual([]);
  });

  it("a runtime whose exec throws → an error snapshot with its message", async () => {
    const { ws } = runtime(() => new Error("backend exploded"));
    const out = await all(defineExec({ workspace: ws }).execute({ command: "x" }));
    expect(out).toEqual([{ command: "x", cwd: null, backend: "container-shell", error: expect.stringContaining("backend exploded") }]);
  });

  it("10 MB of output is kept to the last maxBytes (UTF-8) with a note", async () => {
    const big = "é".repeat(5 * 1024 * 1024);
    const { ws } = runtime([{ name: "stdout", value: big }, { name: "exit", code: 0 }]);
    const out = await all(defineExec({ workspace: ws, maxBytes: 1000 }).execute({ command: "x" }));
    const last = out.at(-1) as { stdout: string };
    expect(new TextEncoder().encode(last.stdout).byteLength).toBeLessThan(1300);
    expect(last.stdout).toContain("é");
  });

  it("abortSignal: aborting a run that never ends kills it and the generator ends (no hang)", async () => {
    const { ws, state } = runtime([{ name: "stdout", value: "tick\n" }], { never: true });
    const ac = new AbortController();
    const gen = defineExec({ workspace: ws }).execute({ command: "sleep 1d" }, { abortSignal: ac.signal });
    const first = await gen.next();
    expect(first.done).toBe(false);
    ac.abort();
    const rest: ExecToolOutput[] = [];
    for await (const s of { [Symbol.asyncIterator]: () => gen }) rest.push(s);
    expect(state.killed.length).toBeGreaterThanOrEqual(1);
  });
});
