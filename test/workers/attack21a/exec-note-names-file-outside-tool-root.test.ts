/**
 * Issue 20, twenty-first attack run: under a tool set's `root`, exec's "Full output" note names a file the same
 * tool set refuses to read.
 * Tried: `createPiTools({ workspace, root: "/workspace" })` (the most common root) over WorkerJavaScriptBackend in a
 * Durable Object; exec of a module printing 3,000 lines, then read and grep of the path the note names, as the
 * note invites and docs/tools.md says ("The model can `read` or `grep` that file at any line").
 * Held: without `root`, read `{ path: <note's path>, offset: 1, limit: 2 }` answers "line 1\nline 2".
 * Found (medium — output lost to the model: lines 1–1,000 are nowhere it can reach; 3 of 3 runs): the note is
 * `[Showing lines 1001-3000 of 3000. Full output: /.computer/output/worker-javascript.<id>.stdout.log]`, and read and
 * grep of that path answer `Path is outside /workspace: /.computer/output/…` (EACCES; resolveToolPath). exec itself
 * cannot help either: the JavaScript backend's node:fs keeps to its own root (/workspace by default).
 * Suggested fix: let root-confined read/grep open the runtime's own output logs (a path under OUTPUT_DIR naming a
 * `<backend>.<id>.std{out,err}.log` file, read-only), or keep the logs under the tool set's root; else have the note
 * say the file is outside the tools' root. Test both with a root.
 * Fixed: the root's confined view (src/tools/core/root.ts resolveReadPath) lets its reading methods — stat,
 * lstat, readFile, grep — open a runtime output log outside the root: a `*.stdout.log`/`*.stderr.log` directly in
 * the Workspace's `output.dir` (outputDirOf: `workspace.output.dir`, the default /.computer/output when the
 * workspace does not say, none for `output: false`), with no link on its path. ls, find, write, edit and delete
 * there stay refused (test/workers/fix21/ta2-output-logs-under-root.test.ts). Every adapter's tool set is built
 * by src/tools/core/toolset.ts, which passes the directory.
 * Narrowed (fixer S1, scout21 tools-root-reads-every-output-log): only the logs this tool set's own exec named in
 * its notes are let through (toolset.ts notedLogs → confineFs), not every log of output.dir.
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

it("the note's full-output file can be read with the tool set that gave the note", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const results: Record<string, unknown> = {};
    for (const root of [undefined, "/workspace"]) {
      const { execute } = createPiTools({ workspace: ws as never, ...(root ? { root } : {}) });
      const r = await execute({ id: "x", name: "exec", arguments: { command: `export default () => { for (let i = 1; i <= 3000; i++) console.log("line " + i); }` } });
      const stdout = (r.details as { stdout: string }).stdout;
      const path = /Full output: (\/\S+)\]$/.exec(stdout)?.[1] ?? "no note";
      const read = await execute({ id: "r", name: "read", arguments: { path, offset: 1, limit: 2 } });
      const grep = await execute({ id: "g", name: "grep", arguments: { path, query: "line 7", limit: 1 } });
      results[root ?? "none"] = {
        note: path.startsWith("/.computer/output/"),
        read: (read.details as { content?: string } | undefined)?.content ?? read.content.map((c) => ("text" in c ? c.text : "")).join(""),
        grep: (grep.details as { matches?: { text: string }[]; error?: string }).matches?.[0]?.text ?? (grep.details as { error?: string }).error,
      };
    }
    return results;
  });
  // Held: none → { note: true, read: "line 1\nline 2", grep: "line 7" }.
  // Found: /workspace → read and grep "Path is outside /workspace: /.computer/output/worker-javascript.<id>.stdout.log".
  const readable = { note: true, read: "line 1\nline 2", grep: "line 7" };
  expect(out).toEqual({ none: readable, "/workspace": readable });
}, 120_000);
