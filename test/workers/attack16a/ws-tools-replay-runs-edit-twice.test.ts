/**
 * Issue 20, sixteenth attack run: a `ws:tools` call (src/modules/tools.ts createToolBindings) in a replay run
 * (`onInterrupt: "replay"`) that was in flight — or answered within the journal's 50 ms flush (JOURNAL_FLUSH_MS) —
 * when the Durable Object restarted is run AGAIN when the run resumes.
 * Tried: `edit` through ws:tools (forPiTools(createPiTools(…)); every adapter's edit is the same core) inserting a line
 * after an anchor — oldText "import x;\n", newText "import x;\nimport y;\n", the usual shape of an insertion — in a
 * replay run; the edit is applied and its call journaled `started`, then the object goes away before the answer is
 * journaled. The restart is simulated as the next instance sees it: the first Workspace's tool never answers, the run's
 * owner in `__ws_exec_runs` is set to a connection that no longer exists (what an aborted instance leaves), and a
 * second Workspace on the same storage recovers the run (`runtime.recover()`), as a restarted object does.
 * Found (medium — a duplicated write, reported as success; 3 of 3 runs): the resumed attempt runs the edit again:
 * oldText still matches (it is part of newText), so the file becomes "import x;\nimport y;\nimport y;\nrest();\n"
 * and the run completes with the second edit's diff ("+3 import y;"). The same for any edit whose newText contains
 * its oldText; a repeated `delete` or an edit whose oldText is gone answers an error for a change that WAS made (the
 * code may take another path and the run diverges); directory tools (runTools) start their run twice. ws:git, ws:artifacts
 * and ws:container guard exactly this with src/modules/replay.ts `atMostOnce` (EEXEC_LOST, docs/runtime.md
 * "Limits of resuming"); ws:tools has neither that nor `unsafeToRepeat`, and docs/runtime.md's ws:tools section says
 * nothing about replay.
 * Suggested fix: run mutating ws:tools bindings (not `readOnly`) through `atMostOnce` keyed by `ctx.callId`, so a
 * resumed call is not run again and rejects EEXEC_LOST ("ws:tools edit: this call was in flight when the run was
 * interrupted …; it is not run again. Read the file to see whether it was made"), and document it in the ws:tools section.
 * Fixed: createToolBindings runs every binding that is not `readOnly` through `atMostOnce` ("ws:tools" + ctx.callId)
 * and marks it `markAtMostOnce` (its start journaled before it runs); a resumed call rejects EEXEC_LOST
 * ("ws:tools edit: this call was in flight when the run was interrupted (call "ws:tools:e:1") …; it is not run
 * again …"). Read-only bindings still run again.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forPiTools, type ToolBinding } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const CODE = `import { edit } from "ws:tools";
export default async () => (await edit({ path: "/workspace/a.ts", edits: [{ oldText: "import x;\\n", newText: "import x;\\nimport y;\\n" }] })).text;`;

it("a ws:tools edit in flight at a restart is not applied a second time when the replay run resumes", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    // First instance: the edit is made, then its answer never comes (the object is gone before it is journaled).
    let ws1!: Workspace;
    const hanging = (): ToolBinding[] =>
      forPiTools(createPiTools({ workspace: ws1 }))().map((b) =>
        b.name === "edit"
          ? {
              ...b,
              async call(input, ctx) {
                await b.call(input, ctx);
                return new Promise<never>(() => {});
              },
            }
          : b,
      );
    ws1 = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ id: "js", loader: env.LOADER, onInterrupt: "replay", modules: { "ws:tools": createToolBindings(hanging) } })],
    });
    await ws1.fs.mkdir("/workspace", { recursive: true });
    await ws1.fs.writeFile("/workspace/a.ts", "import x;\nrest();\n");
    await ws1.runtime.exec(CODE, { id: "e", encoding: "utf8", timeoutMs: 50_000 });
    for (let i = 0; i < 200 && !String(await ws1.fs.readFile("/workspace/a.ts", "utf8")).includes("import y"); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // past JOURNAL_FLUSH_MS: the call's start is journaled
    expect(state.storage.sql.exec("SELECT seq, name, state FROM __ws_exec_calls WHERE id = 'e'").toArray()).toEqual([{ seq: 1, name: "edit", state: "started" }]);
    expect(await ws1.fs.readFile("/workspace/a.ts", "utf8")).toBe("import x;\nimport y;\nrest();\n");
    // What an aborted instance leaves: the run's owner is a connection that no longer exists.
    state.storage.sql.exec("UPDATE __ws_exec_runs SET owner = 'an-aborted-instance' WHERE id = 'e'");

    // The restarted instance recovers the run.
    let ws2!: Workspace;
    ws2 = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          id: "js",
          loader: env.LOADER,
          onInterrupt: "replay",
          modules: { "ws:tools": createToolBindings(() => forPiTools(createPiTools({ workspace: ws2 }))()) },
        }),
      ],
    });
    await ws2.runtime.recover();
    const r = await (await ws2.runtime.getExec("e", { encoding: "utf8" })).result();
    // Today: status "completed", value {"editsApplied":1,"diff":" 1 import x;\n 2 import y;\n+3 import y;\n 3 rest();", …}
    // and the file "import x;\nimport y;\nimport y;\nrest();\n".
    expect(await ws2.fs.readFile("/workspace/a.ts", "utf8")).toBe("import x;\nimport y;\nrest();\n");
    expect(String(r.value ?? "")).not.toContain("+3 import y;");
    // Fixed: the resumed edit is not run again; it rejects EEXEC_LOST and the run (which awaits it) fails with its message.
    expect({ status: r.status, stderr: r.stderr }).toEqual({
      status: "failed",
      stderr:
        'ws:tools edit: this call was in flight when the run was interrupted (call "ws:tools:e:1"), and the tool may have made its change; it is not run again. Read what it changes to see whether it was made.\n',
    });
  });
});
