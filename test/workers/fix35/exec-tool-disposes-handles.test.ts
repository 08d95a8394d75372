/**
 * The exec tool, the tool-directory runner and every other caller of `runtime.exec` dispose the handle once they
 * are done with it (issue 20, run 35, fixer XD; lead's finding from attacker a's list).
 *
 * Through a remote Workspace (`getWorkspace(stub)`), the object-side `WorkspaceRuntimeStub` keeps every
 * `WorkspaceRuntimeExecHandleStub` it hands out in its `handles` set (src/do/runtime-stub.ts `#track`) until the
 * caller disposes the handle — or until the whole `WorkspaceStub` is disposed. The exec tool never disposed its
 * handle: an agent session through one client that ran the exec tool 200 times left 200 handle stubs (and the
 * local handles they hold) in the object's memory; the probe before the fix counted 20 after 20 calls, still 20
 * half a second later — workerd does not release them by itself while the client lives.
 *
 * How it looks inside: `runInDurableObject` wraps the object's `workspace.stub()` to record each `WorkspaceStub`
 * it builds for `__getWorkspaceStub()`, and counts `stateOf(stub.runtime).handles` — module-internal names
 * (src/do/sub-stub.ts), not part of the package's API.
 *
 * Fixed: `execDefinition` (src/tools/core/exec.ts) disposes the handle once, as soon as it has read the events to
 * their end or `result()` settled (before the terminal snapshot), or stopped early (after the kill), or failed;
 * `runToolDirectory` (src/tool-dirs/run.ts, both the module and the command runner) and `ws:container`'s exec
 * (src/modules/container.ts) do the same. Disposing never kills a run (spec 02 §1.3): an aborted call and an
 * early `break` still end as before, and a local handle disposed after its result was read keeps its record.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { stateOf } from "../../../src/do/sub-stub.js";
import type { WorkspaceStub } from "../../../src/do/stub.js";
import { defineExec, type ExecRuntimeHandle, type ExecToolOutput, type ExecWorkspaceLike } from "../../../src/tools/core/exec.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";

type Agent = ReturnType<typeof env.GIT_AGENT.get>;
type Recorded = { stub: Agent; liveHandles: () => Promise<number> };

/** A fresh GitAgent (worker-shell, then worker-javascript) whose `workspace.stub()` calls are recorded, to count live handle stubs. */
async function recordedAgent(): Promise<Recorded> {
  const stub = env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId());
  const plain = stub as unknown as DurableObjectStub; // runInDurableObject's generic instantiation is too deep for the typed stub
  const stubs: WorkspaceStub[] = [];
  await runInDurableObject(plain, (instance: object) => {
    const workspace = (instance as { [WORKSPACE]: { stub(): WorkspaceStub } })[WORKSPACE];
    const own = workspace.stub;
    workspace.stub = function (this: unknown) {
      const made = own.call(this);
      stubs.push(made);
      return made;
    };
  });
  const liveHandles = () => runInDurableObject(plain, () => stubs.reduce((n, s) => n + stateOf(s.runtime).handles.size, 0));
  return { stub, liveHandles };
}

async function last<T>(run: AsyncIterable<T>): Promise<{ all: T[]; final: T }> {
  const all: T[] = [];
  for await (const value of run) all.push(value);
  return { all, final: all[all.length - 1]! };
}

const js = (i: number) => `export default () => { console.log("n${i}"); console.error("e${i}"); return { i: ${i} }; };`;
// Checked with bash 5.2.15: `printf '%s-%03d\n' x 7; printf 'e%d\n' 7 >&2; exit 3` prints x-007 / e7 and exits 3.
const sh = (i: number) => `printf '%s-%03d\\n' x ${i}; printf 'e%d\\n' ${i} >&2; exit 3`;
const pad3 = (i: number) => String(i).padStart(3, "0");

/** A module that prints one line, then waits a minute (killed by the tests). */
const SLOW = `export default async () => { console.log("started"); await new Promise((r) => setTimeout(r, 60_000)); return "late"; };`;

describe("the exec tool through a getWorkspace() client leaves no handle stub in the object", () => {
  it("200 streamed calls (JavaScript backend): every snapshot exact, 0 live handle stubs after (before: 200)", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    const exec = defineExec({ workspace: client, backends: { "worker-javascript": {} } });
    for (let i = 0; i < 200; i++) {
      const { final } = await last(exec.execute({ command: js(i) }));
      expect(final).toEqual({ command: js(i), cwd: null, backend: "worker-javascript", exitCode: 0, stdout: `n${i}\n`, stderr: `e${i}\n`, result: { i } });
    }
    expect(await liveHandles()).toBe(0);
  });

  it("createAITools' exec on the shell backend, 40 calls: exact output and exit code, 0 live handle stubs after", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    const tools = createAITools({ workspace: client });
    const execute = tools.exec.execute! as (input: unknown, options: unknown) => AsyncIterable<ExecToolOutput>;
    for (let i = 0; i < 40; i++) {
      const { final } = await last(execute({ command: sh(i), backend: "worker-shell" }, { toolCallId: `c${i}`, messages: [] }));
      expect(final).toEqual({ command: sh(i), cwd: null, backend: "worker-shell", exitCode: 3, stdout: `x-${pad3(i)}\n`, stderr: `e${i}\n` });
    }
    expect(await liveHandles()).toBe(0);
  });

  it("a handle that only settles (no getReader), 20 calls: result() read, then disposed — 0 live handle stubs", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    const settledOnly: ExecWorkspaceLike = {
      runtime: {
        backends: () => client.runtime.backends(),
        async exec(source, options) {
          const handle = await client.runtime.exec(source, options as never);
          return { result: () => handle.result() as never, kill: (s) => handle.kill(s as never), [Symbol.dispose]: () => handle[Symbol.dispose]() };
        },
      },
    };
    const exec = defineExec({ workspace: settledOnly, backends: { "worker-shell": {} } });
    for (let i = 0; i < 20; i++) {
      const { all } = await last(exec.execute({ command: sh(i) }));
      expect(all).toEqual([{ command: sh(i), cwd: null, backend: "worker-shell", exitCode: 3, stdout: `x-${pad3(i)}\n`, stderr: `e${i}\n` }]);
    }
    expect(await liveHandles()).toBe(0);
  });

  it("an aborted call still ends killed (exit 130, Execution cancelled.) and leaves no handle stub", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    const exec = defineExec({ workspace: client, backends: { "worker-javascript": {} } });
    const abort = new AbortController();
    const seen: ExecToolOutput[] = [];
    for await (const snapshot of exec.execute({ command: SLOW }, { abortSignal: abort.signal })) {
      seen.push(snapshot);
      if ("exitCode" in snapshot && snapshot.exitCode === null) abort.abort();
    }
    expect(seen[0]).toEqual({ command: SLOW, cwd: null, backend: "worker-javascript", exitCode: null, stdout: "started\n", stderr: "" });
    expect(seen[seen.length - 1]).toEqual({ command: SLOW, cwd: null, backend: "worker-javascript", exitCode: 130, stdout: "started\n", stderr: "Execution cancelled.\n" });
    expect(await liveHandles()).toBe(0);
  });

  it("leaving at the first running snapshot (break) still kills the run; its record replays exit 130; no handle stub left", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    const ids: string[] = [];
    const watched: ExecWorkspaceLike = {
      runtime: {
        backends: () => client.runtime.backends(),
        async exec(source, options) {
          const handle = await client.runtime.exec(source, options as never);
          ids.push(handle.id);
          return handle as unknown as ExecRuntimeHandle;
        },
      },
    };
    const exec = defineExec({ workspace: watched, backends: { "worker-javascript": {} } });
    for await (const snapshot of exec.execute({ command: SLOW })) {
      expect(snapshot).toEqual({ command: SLOW, cwd: null, backend: "worker-javascript", exitCode: null, stdout: "started\n", stderr: "" });
      break;
    }
    {
      using again = await client.runtime.getExec(ids[0]!, { backend: "worker-javascript", encoding: "utf8" });
      const result = await again.result();
      expect({ exitCode: result.exitCode, status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
        exitCode: 130,
        status: "cancelled",
        stdout: "started\n",
        stderr: "Execution cancelled.\n",
      });
    }
    await client.fs.stat("/workspace"); // one round trip after the last dispose
    expect(await liveHandles()).toBe(0);
  });

  it("a local Workspace: disposing the handle after the tool read it changes nothing — the run's record replays the same output", async () => {
    const { stub } = await recordedAgent();
    const out = await runInDurableObject(stub as unknown as DurableObjectStub, async (instance: object) => {
      using workspace = await getWorkspace(instance as never);
      const ids: string[] = [];
      const watched: ExecWorkspaceLike = {
        runtime: {
          backends: () => workspace.runtime.backends(),
          async exec(source, options) {
            const handle = await workspace.runtime.exec(source, options as never);
            ids.push(handle.id);
            return handle as unknown as ExecRuntimeHandle;
          },
        },
      };
      // The JavaScript backend keeps finished runs (the shell backend does not: getExec of one is ENOENT).
      const exec = defineExec({ workspace: watched, backends: { "worker-javascript": {} } });
      const { final } = await last(exec.execute({ command: js(5) }));
      using again = await workspace.runtime.getExec(ids[0]!, { backend: "worker-javascript", encoding: "utf8" });
      const replay = await again.result();
      return { final, replay: { exitCode: replay.exitCode, status: replay.status, stdout: replay.stdout, stderr: replay.stderr, value: replay.value } };
    });
    expect(out).toEqual({
      final: { command: js(5), cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "n5\n", stderr: "e5\n", result: { i: 5 } },
      replay: { exitCode: 0, status: "completed", stdout: "n5\n", stderr: "e5\n", value: { i: 5 } },
    });
  });
});

describe("runToolDirectory through a getWorkspace() client leaves no handle stub in the object", () => {
  it("a JavaScript tool (the module runner) and a bash tool (the command runner), 15 calls each: exact results, 0 live handle stubs", async () => {
    const { stub, liveHandles } = await recordedAgent();
    using client = await getWorkspace(stub);
    await client.fs.mkdir("/workspace/tools/twice", { recursive: true });
    await client.fs.writeFile(
      "/workspace/tools/twice/TOOL.md",
      "---\nname: twice\nlabel: Twice\ndescription: Doubles n.\nversion: 1\nlanguage: javascript\nreadonly: true\ninputs:\n  n:\n    type: number\n    description: A number.\n---\nDoubles n.\n",
    );
    await client.fs.writeFile(
      "/workspace/tools/twice/index.js",
      "export async function execute(_id, params) { return { content: [{ type: \"text\", text: `twice ${params.n} is ${params.n * 2}` }] }; }\n",
    );
    await client.fs.mkdir("/workspace/tools/pad", { recursive: true });
    await client.fs.writeFile(
      "/workspace/tools/pad/TOOL.md",
      "---\nname: pad\nlabel: Pad\ndescription: Pads n.\nversion: 1\nlanguage: bash\nreadonly: true\ninputs:\n  n:\n    type: number\n    description: A number.\n---\nPads n.\n",
    );
    await client.fs.writeFile("/workspace/tools/pad/index.sh", "#!/bin/bash\nprintf 'pad-%03d\\n' \"$INPUT_N\"\n");
    const loaded = await loadToolDirectories({ workspace: client, dirs: ["/workspace/tools"] });
    expect(loaded.tools.map((t) => t.name).sort()).toEqual(["pad", "twice"]);
    const byName = Object.fromEntries(loaded.tools.map((t) => [t.name, t]));
    // The runner takes the client as createAITools' toolDirectories pass it (its type names the local runtime's isCallable).
    const workspace = client as unknown as Parameters<typeof runToolDirectory>[1]["workspace"];
    for (let i = 0; i < 15; i++) {
      expect(await runToolDirectory(byName.twice!, { workspace, params: { n: i } })).toEqual({ content: [{ type: "text", text: `twice ${i} is ${i * 2}` }] });
      // Checked with bash 5.2.15: printf 'pad-%03d\n' 7 prints pad-007.
      expect(await runToolDirectory(byName.pad!, { workspace, params: { n: i } })).toEqual({ content: [{ type: "text", text: `pad-${pad3(i)}\n` }] });
    }
    expect(await liveHandles()).toBe(0);
  });
});
