/**
 * Fixer S1, issue 20 run 21 (siblings of scout21 tools-root-reads-every-output-log): under `root`, read and grep
 * open exactly the full-output logs the same tool set's exec named, nothing else of the output directory:
 * another tool set's log (same Workspace, same root), a log of the same directory no note of this set named, and,
 * for a read-only set (no exec), every log — all `Path is outside <root>: <input>`. The set that ran the command
 * reads its own log, by its absolute path and by a relative spelling of it.
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

const THREE_THOUSAND = `export default () => { for (let i = 1; i <= 3000; i++) console.log("line " + i); }`;

type Pi = ReturnType<typeof createPiTools>;
const text = (r: Awaited<ReturnType<Pi["execute"]>>) => {
  const details = r.details as { content?: string; error?: string; matches?: { text: string }[] } | undefined;
  return details?.content ?? details?.error ?? details?.matches?.[0]?.text ?? r.content.map((c) => ("text" in c ? c.text : "")).join("");
};

it("each tool set reads only the logs its own exec named", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const a = createPiTools({ workspace: ws as never, root: "/workspace" });
    const b = createPiTools({ workspace: ws as never, root: "/workspace" });
    const ro = createPiTools({ workspace: ws as never, root: "/workspace", readonly: true });
    const r = await a.execute({ id: "x", name: "exec", arguments: { command: THREE_THOUSAND } });
    const log = /Full output: (\/\S+)\]$/.exec((r.details as { stdout: string }).stdout)?.[1] ?? "no note";
    const dir = log.slice(0, log.lastIndexOf("/"));
    await ws.fs.writeFile(`${dir}/worker-javascript.other.stdout.log`, "API_KEY=sk-secret\n");
    const call = (set: Pi, name: string, args: Record<string, unknown>) =>
      set.execute({ id: name, name, arguments: args }).then(text, (e: Error) => e.message);
    return {
      log: log.startsWith("/.computer/output/worker-javascript.") && log.endsWith(".stdout.log"),
      own: await call(a, "read", { path: log, offset: 3000, limit: 1 }),
      ownRelative: await call(a, "read", { path: `..${log}`, offset: 1, limit: 1 }),
      ownGrep: await call(a, "grep", { path: log, query: "line 1234" }),
      otherLog: (await call(a, "read", { path: `${dir}/worker-javascript.other.stdout.log` })) === `Path is outside /workspace: ${dir}/worker-javascript.other.stdout.log`,
      otherGrep: (await call(a, "grep", { path: `${dir}/worker-javascript.other.stdout.log`, query: "API_KEY" })) === `Path is outside /workspace: ${dir}/worker-javascript.other.stdout.log`,
      otherSet: (await call(b, "read", { path: log })) === `Path is outside /workspace: ${log}`,
      otherSetGrep: (await call(b, "grep", { path: log, query: "line" })) === `Path is outside /workspace: ${log}`,
      readonly: (await call(ro, "read", { path: log })) === `Path is outside /workspace: ${log}`,
    };
  });
  expect(out).toEqual({
    log: true,
    own: "line 3000",
    ownRelative: "line 1",
    ownGrep: "line 1234",
    otherLog: true,
    otherGrep: true,
    otherSet: true,
    otherSetGrep: true,
    readonly: true,
  });
}, 120_000);
