/**
 * Issue 20, twenty-first attack run (scout of fixes): a rooted tool set reads every exec output log in output.dir.
 * Tried: c066722 (read and grep may open `*.stdout.log`/`*.stderr.log` directly in the Workspace's `output.dir`
 * outside the tool set's `root`) from a tool set built with `root: "/workspace/d"` and no exec tool at all — what a
 * confined sub-agent gets — on a Workspace whose `/.computer/output` holds another agent's command log.
 * Held: the exception is read-only (listing, writing and deleting there stay refused, per c066722's own tests).
 * Found (medium — the root is the tool set's confinement boundary, spec 03 §2.4; 1 of 1 runs, deterministic):
 * `read("/.computer/output/shell.other-agent.stdout.log")` answers the file (`API_KEY=sk-secret`), and `grep`
 * finds in it, though this tool set has no exec tool and no note of its own ever named that log. Any log of any
 * run in the Workspace (another agent's, the host's) is readable by every rooted tool set.
 * Suggested fix: open the exception only for the logs this tool set's own exec notes named (keep the set of
 * `Full output:` paths the exec tool returned, per tool set), or at least only when the tool set has an exec tool;
 * otherwise answer the ordinary `Path is outside <root>` refusal.
 * Fixed: the exception is per tool set and per log. buildCoreTools (src/tools/core/toolset.ts) keeps a set of the
 * log paths its own exec's notes named (execDefinition's internal onSavedLog, src/tools/core/exec.ts: each
 * `status: "saved"` note's path), and the set's confined view (src/tools/core/root.ts confineFs(fs, root, noted),
 * a view of its own per tool set) lets stat/lstat/readFile/grep open exactly those paths outside the root, no link
 * on them. A set without exec (or read-only) names none, so every log is `Path is outside <root>`; another tool
 * set's logs and other logs of the same directory too (test/workers/fix21/s1-noted-logs-only.test.ts).
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("a rooted tool set without exec cannot read another run's output log", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.mkdir("/.computer/output", { recursive: true });
    await ws.fs.writeFile("/.computer/output/shell.other-agent.stdout.log", "API_KEY=sk-secret\n");
    const { execute, tools } = createPiTools({ workspace: ws, root: "/workspace/d" });
    expect(tools.map((t) => t.name)).not.toContain("exec");
    const path = "/.computer/output/shell.other-agent.stdout.log";
    const read = await execute({ id: "r", name: "read", arguments: { path } });
    const grep = await execute({ id: "g", name: "grep", arguments: { query: "API_KEY", path } });
    const text = (r: typeof read) => (r.content[0] as { text: string }).text;
    // Found: read → { isError: false, "API_KEY=sk-secret" }; grep → one match.
    expect({ error: read.isError, text: text(read) }).toEqual({ error: true, text: `Path is outside /workspace/d: ${path}` });
    expect({ error: grep.isError, text: text(grep) }).toEqual({ error: true, text: `Path is outside /workspace/d: ${path}` });
  } finally {
    await ws.close();
  }
});
