/**
 * Issue 20, scout after the sixteenth attack run: ws:tools bindings not marked `readOnly` run at most once in replay
 * runs (4f26904) — but `forAISDKTools` never marks any binding `readOnly`, not even the library's own read-only
 * tools (createAITools' read/ls/find/grep, whose core facts say `mutating: false`; forPiTools gets them from
 * createPiTools().readOnly).
 *
 * Tried: a replay run (`onInterrupt: "replay"`) calling `read` from `ws:tools` over
 * `forAISDKTools(createAITools({ workspace }))`, the instance gone while the read is in flight (attack16a's
 * ws-tools-replay-runs-edit-twice set-up with `read` instead of pi's `edit`), then recover() on a new instance.
 * Found (medium: ordinary use — the AI SDK is the main adapter; a read is safe to repeat): the resumed run fails
 * `ws:tools read: this call was in flight when the run was interrupted …; it is not run again` (EEXEC_LOST) where
 * the read should simply run again (as it does for pi's read, and as docs/runtime.md says "Read-only tools run
 * again"). The same unmarked bindings also need `access: "read-write"` for a read.
 * Suggested fix: in forAISDKTools, set `readOnly` from the library tool's facts (libraryToolName(tool) → the core's
 * `mutating === false`), as createPiTools lists them; or take a `readOnly` option as forTanStack/forPiTools do.
 * Fixed: createAITools and createTanStackTools mark each library tool with its core's `mutating` fact
 * (markLibraryTool(tool, name, mutating)); forAISDKTools sets `readOnly` when the tool's `execute` is a library tool
 * with `mutating: false` (read, ls, find, grep — under any key, copies included), and refuses a call when the tool now
 * under that name is no longer read-only. TanStack's object form (through forAISDKTools) had the same defect: case below.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, type ToolBinding } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk-tools.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";

const CODE = `import { read } from "ws:tools";
export default async () => (await read({ path: "/workspace/a.txt" })).text;`;

type Build = (workspace: Workspace) => Parameters<typeof forAISDKTools>[0];
const aiSdk: Build = (workspace) => createAITools({ workspace });
const tanStack: Build = (workspace) => createTanStackTools({ workspace, format: "object" });

it("forAISDKTools marks exactly the library's read, ls, find and grep readOnly (AI SDK and TanStack object form, renamed and copied)", async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    for (const build of [aiSdk, tanStack]) {
      const flags = forAISDKTools(build(ws))().map((b) => [b.name, b.readOnly]);
      expect(flags).toEqual([
        ["read", true],
        ["ls", true],
        ["find", true],
        ["grep", true],
        ["write", false],
        ["edit", false],
        ["delete", false],
      ]);
      const set = build(ws) as Record<string, { execute: (...a: never[]) => unknown }>;
      const mine = { read: { ...set.write!, execute: async () => "mine" } };
      const other = forAISDKTools({ read_file: set.read!, copy: { ...set.grep! }, write_as_read: set.write!, ...mine })().map((b) => [b.name, b.readOnly]);
      expect(other).toEqual([
        ["read_file", true],
        ["copy", true],
        ["write_as_read", false],
        ["read", false],
      ]);
      // Listed read-only, then another tool under the name: refused, not run unjournaled.
      let swapped = false;
      const bindings = forAISDKTools(() => ({ read: swapped ? set.write! : set.read! }))();
      expect(bindings[0]!.readOnly).toBe(true);
      swapped = true;
      await expect(bindings[0]!.call({ path: "/workspace/x.txt", content: "x" }, { signal: new AbortController().signal } as never)).rejects.toThrow(
        'Tool "read" is no longer read-only; it is not run.',
      );
      await expect(ws.fs.stat("/workspace/x.txt")).rejects.toMatchObject({ code: "ENOENT" });
    }
  });
});

for (const [label, build] of [["AI SDK tools", aiSdk], ["TanStack tools, object form", tanStack]] as const) {
  it(`a ws:tools read (${label}) in flight at a restart runs again when the replay run resumes`, { timeout: 60_000 }, async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      let ws1!: Workspace;
      let reached = false;
      const hanging = (): ToolBinding[] =>
        forAISDKTools(build(ws1))().map((b) =>
          b.name === "read"
            ? {
                ...b,
                async call(input, ctx) {
                  await b.call(input, ctx);
                  reached = true;
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
      await ws1.fs.writeFile("/workspace/a.txt", "hello\n");
      await ws1.runtime.exec(CODE, { id: "e", encoding: "utf8", timeoutMs: 50_000 });
      for (let i = 0; i < 200 && !reached; i++) await new Promise((r) => setTimeout(r, 50));
      expect(reached).toBe(true);
      await new Promise((r) => setTimeout(r, 300)); // past JOURNAL_FLUSH_MS
      state.storage.sql.exec("UPDATE __ws_exec_runs SET owner = 'an-aborted-instance' WHERE id = 'e'");

      let ws2!: Workspace;
      ws2 = new Workspace({
        storage: state.storage,
        backends: [
          new WorkerJavaScriptBackend({
            id: "js",
            loader: env.LOADER,
            onInterrupt: "replay",
            modules: { "ws:tools": createToolBindings(() => forAISDKTools(build(ws2))()) },
          }),
        ],
      });
      await ws2.runtime.recover();
      const r = await (await ws2.runtime.getExec("e", { encoding: "utf8" })).result();
      // Before the fix: status "failed", stderr 'ws:tools read: this call was in flight when the run was interrupted (call "ws:tools:e:1") …'.
      expect(r.stderr).toBe("");
      expect(r.status).toBe("completed");
      expect(String(r.value)).toContain("hello");
    });
  });
}
