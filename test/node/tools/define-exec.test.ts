/**
 * `<pkg>/tools/core` (spec 03 §1, §4.8): `defineExec`, the exec tool with no
 * agent library attached, run against a real Workspace runtime (a small
 * module backend that plays scripts).
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import * as core from "../../../src/tools/core.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";
import { toJSONSchema } from "../../../src/tools/core/schema.js";
import { ScriptBackend } from "../runtime/script-backend.js";

function workspace(...backends: ScriptBackend[]) {
  return new Workspace({ storage: nodeSqliteStorage(":memory:"), backends });
}

async function snapshots(gen: AsyncGenerator<ExecToolOutput>): Promise<ExecToolOutput[]> {
  const out: ExecToolOutput[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

/** A clock that moves 100 ms per read: every chunk gets its running snapshot. */
function stepping(): () => number {
  let t = 0;
  return () => (t += 100);
}

describe("<pkg>/tools/core", () => {
  it("exports exactly defineExec at run time", () => {
    expect(Object.keys(core).sort()).toEqual(["defineExec"]);
  });

  it("defineExec returns the tool's description, schema, prepareArguments and execute", () => {
    const exec = defineExec({ workspace: workspace(new ScriptBackend({ id: "js" })) });
    expect(exec.description).toMatch(/^Runs code in the workspace\./);
    expect(exec.description).toContain("last 2000 lines or 64.0KB");
    expect(Object.keys(toJSONSchema(exec.inputSchema).properties!)).toEqual(["command", "cwd", "env", "input"]);
    expect(typeof exec.execute).toBe("function");
    // prepareArguments (callable backends): a JSON-object string `input` becomes the object.
    expect(exec.prepareArguments!({ command: "x", input: '  {"a":[1,2]}' })).toEqual({ command: "x", input: { a: [1, 2] } });
    expect(exec.prepareArguments!({ command: "x", input: "[1]" })).toEqual({ command: "x", input: "[1]" });
    // One shell backend: no `input`, no prepareArguments.
    const sh = defineExec({ workspace: workspace(new ScriptBackend({ id: "sh", callable: false })) });
    expect(Object.keys(toJSONSchema(sh.inputSchema).properties!)).toEqual(["command", "cwd", "env"]);
    expect(sh.prepareArguments).toBeUndefined();
  });

  it("streams running snapshots, then one terminal snapshot with the result", async () => {
    const exec = defineExec({ workspace: workspace(new ScriptBackend({ id: "js" })), now: stepping() });
    const out = await snapshots(exec.execute({ command: "out a\\n\nerr warn\\n\nout b\\n\nresult {\"n\":1}" }));
    const call = { command: "out a\\n\nerr warn\\n\nout b\\n\nresult {\"n\":1}", cwd: null, backend: "js" };
    expect(out).toEqual([
      { ...call, exitCode: null, stdout: "a\n", stderr: "" },
      { ...call, exitCode: null, stdout: "a\n", stderr: "warn\n" },
      { ...call, exitCode: null, stdout: "a\nb\n", stderr: "warn\n" },
      { ...call, exitCode: 0, stdout: "a\nb\n", stderr: "warn\n", result: { n: 1 } },
    ]);
  });

  it("cuts each stream to its last lines and names the runtime's full-output file", async () => {
    const exec = defineExec({ workspace: workspace(new ScriptBackend({ id: "js" })), maxLines: 5, now: () => 0 });
    const out = await snapshots(exec.execute({ command: "repeat stdout 12 line \nexit 2" }));
    const last = out.at(-1) as Extract<ExecToolOutput, { exitCode: number | null }>;
    expect(last.exitCode).toBe(2);
    expect(last.stdout).toMatch(/^line 8\nline 9\nline 10\nline 11\nline 12\n\n\n\[Showing lines 8-12 of 12\. Full output: \/\.computer\/output\/js\.[0-9a-f-]{36}\.stdout\.log\]$/);
    expect("result" in last).toBe(false);
  });

  it("kills the run when the call's abortSignal aborts", async () => {
    const backend = new ScriptBackend({ id: "js" });
    const exec = defineExec({ workspace: workspace(backend), now: () => 0 });
    const controller = new AbortController();
    // Aborted once the run has started (a signal aborted before the call starts no run at all: issue 20, run 39,
    // fixer AB, test/node/fix39/tools-aborted-before-call.test.ts).
    backend.onExec = () => controller.abort();
    const out = await snapshots(exec.execute({ command: "out started\\n\nhang\nout never" }, { abortSignal: controller.signal }));
    expect(out.at(-1)).toEqual({ command: "out started\\n\nhang\nout never", cwd: null, backend: "js", exitCode: 130, stdout: "started\n", stderr: "" });
    expect(backend.killed).toHaveLength(1);
  });

  it("refuses a call it cannot route, without calling the runtime", async () => {
    const js = new ScriptBackend({ id: "js" });
    const sh = new ScriptBackend({ id: "sh", callable: false });
    const exec = defineExec({ workspace: workspace(js, sh) });
    expect(await snapshots(exec.execute({ command: "out x", backend: "sh", input: { a: 1 } }))).toEqual([
      { command: "out x", cwd: null, backend: "sh", error: 'Backend "sh" is not callable; it does not accept structured input.' },
    ]);
    expect(await snapshots(exec.execute({ command: "out x" } as never))).toEqual([{ command: "out x", cwd: null, backend: "", error: "Name a backend to run on." }]);
    expect(js.runs.size + sh.runs.size).toBe(0);
    expect(() => defineExec({ workspace: workspace(js), backends: { nope: {} } })).toThrow('createExecTool: unknown backend "nope"; the workspace has "js"');
  });
});
