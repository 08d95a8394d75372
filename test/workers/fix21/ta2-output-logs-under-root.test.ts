/**
 * Fixer TA2, issue 20 run 21 (siblings of attack21a exec-note-names-file-outside-tool-root): under a tool set's
 * `root`, read and grep may open exec's full-output logs — a `*.stdout.log`/`*.stderr.log` directly in the
 * Workspace's `output.dir` — and nothing else is let past the root: the logs cannot be listed, found, written,
 * edited or deleted; other files of the output directory, logs in a subdirectory of it, a log reached through
 * a link, and every log when the Workspace saves none (`output: false`) stay refused. A Workspace with another
 * `output.dir` has its own logs readable, and the default directory is then refused. AI SDK tools too.
 * Narrowed (fixer S1, scout21 tools-root-reads-every-output-log): only the logs the same tool set's exec named are
 * readable; a link named like a log is now `Path is outside`, as it is no noted log.
 */
import { expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

const THREE_THOUSAND = `export default () => { for (let i = 1; i <= 3000; i++) console.log("line " + i); }`;

type Pi = ReturnType<typeof createPiTools>;
const text = (r: Awaited<ReturnType<Pi["execute"]>>) => {
  const details = r.details as { content?: string; error?: string; matches?: { text: string }[] } | undefined;
  return details?.content ?? details?.error ?? details?.matches?.[0]?.text ?? r.content.map((c) => ("text" in c ? c.text : "")).join("");
};

async function noteOf(execute: Pi["execute"]): Promise<string> {
  const r = await execute({ id: "x", name: "exec", arguments: { command: THREE_THOUSAND } });
  return /Full output: (\/\S+)\]$/.exec((r.details as { stdout: string }).stdout)?.[1] ?? "no note";
}

it("only reading a log is let past the root; listing, writing, editing and deleting it are refused", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const { execute } = createPiTools({ workspace: ws as never, root: "/workspace" });
    const log = await noteOf(execute);
    const dir = log.slice(0, log.lastIndexOf("/"));
    await ws.fs.writeFile(`${dir}/other.txt`, "secret\n");
    await ws.fs.mkdir(`${dir}/sub`, { recursive: true });
    await ws.fs.writeFile(`${dir}/sub/x.stdout.log`, "secret\n");
    await ws.fs.writeFile("/secret.txt", "secret\n");
    await ws.fs.symlink("/secret.txt", `${dir}/link.stdout.log`);
    const call = async (name: string, args: Record<string, unknown>) => text(await execute({ id: name, name, arguments: args }));
    return {
      log: log.startsWith("/.computer/output/worker-javascript.") && log.endsWith(".stdout.log"),
      read: await call("read", { path: log, offset: 2999, limit: 5 }),
      relative: await call("read", { path: `..${log}`, offset: 1, limit: 1 }),
      grep: await call("grep", { path: log, query: "line 2999" }),
      write: await call("write", { path: log, content: "x" }),
      edit: await call("edit", { path: log, edits: [{ oldText: "line 1\n", newText: "" }] }),
      delete: await call("delete", { path: log }),
      ls: await call("ls", { path: dir }),
      find: await call("find", { path: dir, pattern: "*.log" }),
      other: await call("read", { path: `${dir}/other.txt` }).catch((e: Error) => e.message),
      sub: await call("read", { path: `${dir}/sub/x.stdout.log` }).catch((e: Error) => e.message),
      link: await call("read", { path: `${dir}/link.stdout.log` }).catch((e: Error) => e.message),
      intact: (await ws.fs.readFile(log, { encoding: "utf8" })).startsWith("line 1\nline 2\n"),
    };
  });
  expect(out).toEqual({
    log: true,
    read: "line 2999\nline 3000",
    relative: "line 1",
    grep: "line 2999",
    // write is refused at the store's mkdir of the log's directory, before any byte is written; edit's write is
    // conditional (ifMatch) and makes no parents since run 33 (fixer WG), so it is refused naming the log itself.
    write: "Path is outside /workspace: /.computer/output",
    edit: expect.stringMatching(/^Path is outside \/workspace: \/\.computer\/output\/worker-javascript\.[0-9a-f-]+\.stdout\.log$/),
    delete: expect.stringMatching(/^Path is outside \/workspace: \/\.computer\/output\/worker-javascript\.[0-9a-f-]+\.stdout\.log$/),
    ls: "Path is outside /workspace: /.computer/output",
    find: "Path is outside /workspace: /.computer/output",
    other: "Path is outside /workspace: /.computer/output/other.txt",
    sub: "Path is outside /workspace: /.computer/output/sub/x.stdout.log",
    // Not a log this tool set's exec named (fixer S1: only noted logs are let past the root).
    link: "Path is outside /workspace: /.computer/output/link.stdout.log",
    intact: true,
  });
}, 120_000);

it("another output.dir: its logs are readable, the default directory is not; output: false opens none", async () => {
  const custom = await inWorkspace(
    async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.mkdir("/.computer/output", { recursive: true });
      await ws.fs.writeFile("/.computer/output/a.stdout.log", "secret\n");
      const { execute } = createPiTools({ workspace: ws as never, root: "/workspace" });
      const log = await noteOf(execute);
      return {
        log: log.startsWith("/logs/worker-javascript."),
        read: text(await execute({ id: "r", name: "read", arguments: { path: log, offset: 1, limit: 1 } })),
        other: await execute({ id: "o", name: "read", arguments: { path: "/.computer/output/a.stdout.log" } }).then(text, (e: Error) => e.message),
      };
    },
    { workspace: { output: { dir: "/logs" } } },
  );
  expect(custom).toEqual({ log: true, read: "line 1", other: "Path is outside /workspace: /.computer/output/a.stdout.log" });
  const none = await inWorkspace(
    async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.mkdir("/.computer/output", { recursive: true });
      await ws.fs.writeFile("/.computer/output/a.stdout.log", "secret\n");
      const { execute } = createPiTools({ workspace: ws as never, root: "/workspace" });
      return execute({ id: "o", name: "read", arguments: { path: "/.computer/output/a.stdout.log" } }).then(text, (e: Error) => e.message);
    },
    { workspace: { output: false } },
  );
  expect(none).toBe("Path is outside /workspace: /.computer/output/a.stdout.log");
}, 120_000);

it("the AI SDK tools built with root read the note's file too", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const tools = createAITools({ workspace: ws as never, root: "/workspace" });
    const ctx = { toolCallId: "1", messages: [] };
    let final: { stdout: string } | undefined;
    const run = tools.exec.execute!({ command: THREE_THOUSAND } as never, ctx as never) as unknown as AsyncIterable<{ stdout: string }>;
    for await (const snapshot of run) final = snapshot;
    const log = /Full output: (\/\S+)\]$/.exec(final!.stdout)?.[1] ?? "no note";
    const read = (await tools.read.execute!({ path: log, offset: 1, limit: 2 } as never, ctx as never)) as { content?: string };
    const grep = (await tools.grep.execute!({ path: log, query: "line 7", limit: 1 } as never, ctx as never)) as { matches?: { text: string }[] };
    return { read: read.content, grep: grep.matches?.[0]?.text };
  });
  expect(out).toEqual({ read: "line 1\nline 2", grep: "line 7" });
}, 120_000);
