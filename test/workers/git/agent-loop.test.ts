/**
 * Issue 15's "Done when", in real workerd: an agent clones a repository
 * into its Workspace, changes it with the file tools and the shell, commits
 * and pushes, and the real git on the server sees exactly that history.
 *
 * Each agent library's own loop drives a scripted model over the tool set
 * of a Workspace (Durable Object SQLite) with `git: createGitClient()`, a
 * `defaultGitIdentity` and the worker-shell backend: the AI SDK's
 * `generateText` over `MockLanguageModelV4`, pi's loop over its faux
 * provider (each supported major), TanStack's `chat()` over a scripted
 * adapter. Checked exactly: the tool results the model saw (status lines,
 * the commit line, the push output), then on the server, with the real git:
 * `git log` = the fixture's history + the agent's commit with the default
 * identity, `git fsck --strict` clean, and the pushed change's bytes.
 *
 * Also: the same flow over Workers RPC (the loop in the test Worker, the
 * tools on `getWorkspace(GitAgent)`), and an upstream that moved while the
 * agent worked: the push is rejected, the agent pulls (a merge whose tree is
 * the one the real git's `merge-tree` makes) and pushes again.
 */
import { env } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { chat, maxIterations } from "@tanstack/ai";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace } from "../shell/helpers.js";
import { getWorkspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";

const IDENTITY = { name: "Agent Smith", email: "agent@example.com" };
const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: IDENTITY } };

/** The fixture's README.md on main (test/shared/git-server.ts, c3). */
const README = "# Fixture\n\nA repository made by the real git for the Workspace git tests.\n\nSecond paragraph.\n";
const README_EDITED = "# Fixture\n\nA repository made by the real git for the Workspace git tests.\n\nSecond paragraph, edited by the agent.\n";
const NEW_FILE = "notes/agent.txt";
const NEW_TEXT = "written by the agent\nline two: ünïcödé ✓\n";

const LOG_FORMAT = ["log", "--format=%H%n%an <%ae>%n%s", "main"];

/** The server-side view of the fork before the agent touches it. */
async function before(name: string) {
  const log = await serverGit(name, LOG_FORMAT);
  const head = await serverGit(name, ["rev-parse", "main"]);
  expect(log.code).toBe(0);
  return { log: log.stdout, head: head.stdout.trim() };
}

/**
 * What the real git on the server must see after the agent's push: one new
 * commit on main over the old head, by the default identity, with exactly the
 * README edit and the new file; a clean `fsck --strict`.
 */
async function expectServerHistory(name: string, old: { log: string; head: string }, subject: string, identity = IDENTITY): Promise<string> {
  const head = (await serverGit(name, ["rev-parse", "main"])).stdout.trim();
  expect(head).toMatch(/^[0-9a-f]{40}$/);
  expect(head).not.toBe(old.head);
  const log = await serverGit(name, LOG_FORMAT);
  expect(log.stdout).toBe(`${head}\n${identity.name} <${identity.email}>\n${subject}\n${old.log}`);
  // Committer too, and exactly one parent: the old head.
  const meta = await serverGit(name, ["log", "-1", "--format=%P%n%cn <%ce>", "main"]);
  expect(meta.stdout).toBe(`${old.head}\n${identity.name} <${identity.email}>\n`);
  const fsck = await serverGit(name, ["fsck", "--strict", "--no-dangling"]);
  expect([fsck.code, fsck.stdout, fsck.stderr]).toEqual([0, "", ""]);
  const stat = await serverGit(name, ["diff", "--name-status", "main~1", "main"]);
  expect(stat.stdout).toBe(`M\tREADME.md\nA\t${NEW_FILE}\n`);
  const readme = await serverGit(name, ["show", "main:README.md"]);
  expect(readme.stdout).toBe(README_EDITED);
  const added = await serverGit(name, ["show", `main:${NEW_FILE}`]);
  expect(added.bytes).toEqual(new TextEncoder().encode(NEW_TEXT));
  const oldBlob = (await serverGit(name, ["rev-parse", "--short=7", "main~1:README.md"])).stdout.trim();
  const newBlob = (await serverGit(name, ["rev-parse", "--short=7", "main:README.md"])).stdout.trim();
  const diff = await serverGit(name, ["diff", "main~1", "main", "--", "README.md"]);
  expect(diff.stdout).toBe(
    [
      "diff --git a/README.md b/README.md",
      `index ${oldBlob}..${newBlob} 100644`,
      "--- a/README.md",
      "+++ b/README.md",
      "@@ -2,4 +2,4 @@",
      " ",
      " A repository made by the real git for the Workspace git tests.",
      " ",
      "-Second paragraph.",
      "+Second paragraph, edited by the agent.",
      "",
    ].join("\n"),
  );
  return head;
}

/** The agent's tool calls, in order: clone in the shell, read, edit, write, then status/add/commit/push in the shell. */
function script(url: string, subject: string): Array<[id: string, tool: string, input: Record<string, unknown>]> {
  return [
    ["clone", "exec", { command: `git clone ${url} /workspace/proj` }],
    ["read", "read", { path: "/workspace/proj/README.md" }],
    ["edit", "edit", { path: "/workspace/proj/README.md", edits: [{ oldText: "Second paragraph.", newText: "Second paragraph, edited by the agent." }] }],
    ["write", "write", { path: `/workspace/proj/${NEW_FILE}`, content: NEW_TEXT }],
    ["commit", "exec", { command: `cd /workspace/proj && git status --short && git add -A && git commit -m "${subject}" && git push origin main` }],
  ];
}

/**
 * The results the model must have seen for {@link script}'s calls (the
 * tools' raw results; each library wraps them in its own way). `oid` is the
 * agent's commit, `before` the server's main before the push.
 */
function expectedResults(url: string, subject: string, oid: string, before: string): Record<string, unknown> {
  const exec = (command: string, stdout: string, stderr: string) => ({ command, cwd: null, backend: "worker-shell", exitCode: 0, stdout, stderr });
  const [clone, , , , commit] = script(url, subject);
  return {
    clone: exec(clone![2].command as string, "", "Cloning into '/workspace/proj'...\n"),
    // read's text: the file without its final newline.
    read: README.slice(0, -1),
    edit: {
      path: "/workspace/proj/README.md",
      editsApplied: 1,
      diff: " 1 # Fixture\n 2 \n 3 A repository made by the real git for the Workspace git tests.\n 4 \n-5 Second paragraph.\n+5 Second paragraph, edited by the agent.",
      patch:
        "Index: /workspace/proj/README.md\n===================================================================\n--- /workspace/proj/README.md\n+++ /workspace/proj/README.md\n@@ -1,5 +1,5 @@\n # Fixture\n \n A repository made by the real git for the Workspace git tests.\n \n-Second paragraph.\n+Second paragraph, edited by the agent.\n",
      firstChangedLine: 5,
    },
    write: { path: `/workspace/proj/${NEW_FILE}`, bytesWritten: new TextEncoder().encode(NEW_TEXT).length },
    // status -s as spec 04 §2.5 has it (untracked ` ? p`, an untracked directory once, as `notes/`),
    // the commit line `[<oid7>] <subject>`, the push report on stderr.
    commit: exec(commit![2].command as string, ` M README.md\n ? notes/\n[${oid.slice(0, 7)}] ${subject}\n`, `To ${url}\n   ${before.slice(0, 7)}..${oid.slice(0, 7)}  main -> main\n`),
  };
}

/** Runs `loop` in a Durable Object Workspace with git and the shell; returns what it reports and the local HEAD. */
async function agentRun<T>(loop: (ws: Parameters<Parameters<typeof inShellWorkspace>[0]>[0]) => Promise<T>) {
  return inShellWorkspace(async (ws) => {
    const seen = await loop(ws);
    const [head] = await ws.git.log({ dir: "/workspace/proj", depth: 1 });
    const status = await ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/workspace/proj" });
    return { seen, local: head!.oid, status: status.stdout };
  }, withGit);
}

describe("an agent clones, edits, commits and pushes (issue 15, Done when)", () => {
  it("AI SDK generateText: exec git clone → read → edit → write → exec git status/add/commit/push", async () => {
    const { url, name } = await forkRepo();
    const old = await before(name);
    const subject = "agent change";
    const calls = script(url, subject);
    const { seen, local, status } = await agentRun(async (ws) => {
      const model = new MockLanguageModelV4({ doGenerate: [...calls.map(([id, tool, input]) => call(id, tool, input)), done] });
      const result = await generateText({ model, prompt: "change the README, add notes, push", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(10) });
      expect(result.text).toBe("done");
      expect(model.doGenerateCalls.length).toBe(calls.length + 1);
      return Object.fromEntries(calls.map(([id]) => [id, outputFor(model, id)]));
    });
    const expected = expectedResults(url, subject, local, old.head);
    expect(seen).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, value]) => [id, typeof value === "string" ? { type: "text", value } : { type: "json", value }])),
    );
    expect(status).toBe("");
    expect(await expectServerHistory(name, old, subject)).toBe(local);
  });

  for (const major of PI_MAJORS) {
    describe(`pi ${major.name}`, () => {
      const runLoop = major.piLoop();
      it("pi's loop over the faux provider: the same clone → read → edit → write → commit/push", async () => {
        const { url, name } = await forkRepo();
        const old = await before(name);
        const subject = `pi ${major.name} agent change`;
        const calls = script(url, subject);
        const { seen, local, status } = await agentRun(async (ws) => {
          const tools = createPiTools({ workspace: ws });
          const result = await runLoop(tools, [
            ...calls.map(([id, tool, input]) => step(major, major.fauxToolCall(tool, input, { id }))),
            major.fauxAssistantMessage("done"),
          ]);
          expect(result.context.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done" }] });
          return Object.fromEntries(calls.map(([id]) => [id, result.results.get(id)]));
        });
        const expected = expectedResults(url, subject, local, old.head);
        for (const [id] of calls) {
          const value = expected[id];
          const r = seen[id]!;
          expect([r.toolCallId, r.isError]).toEqual([id, false]);
          if (typeof value === "string") expect(r.content).toEqual([{ type: "text", text: value }]);
          else expect({ content: r.content, details: r.details }).toEqual({ content: [{ type: "text", text: JSON.stringify(value) }], details: value });
        }
        expect(status).toBe("");
        expect(await expectServerHistory(name, old, subject)).toBe(local);
      });
    });
  }

  it("TanStack chat() over a scripted adapter: the same clone → read → edit → write → commit/push", async () => {
    const { url, name } = await forkRepo();
    const old = await before(name);
    const subject = "tanstack agent change";
    const calls = script(url, subject);
    const { seen, local, status } = await agentRun(async (ws) => {
      const tools = createTanStackTools({ workspace: ws });
      // TanStack's default loop strategy stops after 5 model turns; this agent takes 6.
      const { adapter, seen } = scriptedAdapter([...calls.map(([id, tool, input]) => ({ calls: [{ id, name: tool, input }] })), { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(10) });
      const chunks: Array<Record<string, unknown>> = [];
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
      expect(seen.length).toBe(calls.length + 1);
      expect(chunks.filter((c) => c.type === "TEXT_MESSAGE_CONTENT").map((c) => c.delta)).toEqual(["done"]);
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      return Object.fromEntries(calls.map(([id]) => [id, last.find((m) => m.role === "tool" && m.toolCallId === id)?.content]));
    });
    // TanStack hands the model each result as text: JSON for objects, read's text as is.
    const expected = expectedResults(url, subject, local, old.head);
    expect(seen).toEqual(Object.fromEntries(Object.entries(expected).map(([id, value]) => [id, typeof value === "string" ? value : JSON.stringify(value)])));
    expect(status).toBe("");
    expect(await expectServerHistory(name, old, subject)).toBe(local);
  });

  it("over Workers RPC: the AI SDK loop in the test Worker, the tools on getWorkspace(GitAgent) (the documented agent)", async () => {
    const { url, name } = await forkRepo();
    const old = await before(name);
    const subject = "rpc agent change";
    const calls = script(url, subject);
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    const model = new MockLanguageModelV4({ doGenerate: [...calls.map(([id, tool, input]) => call(id, tool, input)), done] });
    // GitAgent has the shell and JavaScript backends; the tool set offers the shell alone (no `backend` parameter).
    const tools = createAITools({ workspace: ws, exec: { "worker-shell": {} } });
    const result = await generateText({ model, prompt: "change the README, add notes, push", tools, stopWhen: stepCountIs(10) });
    expect(result.text).toBe("done");
    const head = await ws.git.cli({ argv: ["rev-parse", "HEAD"], cwd: "/workspace/proj" });
    const local = head.stdout.trim();
    const expected = expectedResults(url, subject, local, old.head);
    expect(Object.fromEntries(calls.map(([id]) => [id, outputFor(model, id)]))).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, value]) => [id, typeof value === "string" ? { type: "text", value } : { type: "json", value }])),
    );
    const status = await ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/workspace/proj" });
    expect([status.exitCode, status.stdout]).toEqual([0, ""]);
    // GitAgent's defaultGitIdentity (test/workers/git/agent.ts).
    expect(await expectServerHistory(name, old, subject, { name: "Agent", email: "agent@example.com" })).toBe(local);
  });

  it("AI SDK: upstream moved while the agent worked — push rejected, the agent pulls (a merge) and pushes; the server has both lines of history", async () => {
    const { url, name } = await forkRepo();
    const old = await before(name);
    const subject = "agent change";
    const out = await inShellWorkspace(async (ws) => {
      // The agent cloned earlier (host side)…
      await ws.git.clone({ url, dir: "/workspace/proj" });
      // …then someone else pushed UPSTREAM.md to main (the real git, on the server).
      const upstream = await advanceServer(name, "UPSTREAM.md", "from upstream\n", "upstream change");
      const PUSH = { command: `cd /workspace/proj && git commit -q -am "${subject}" && git push origin main` };
      const PULL = { command: "cd /workspace/proj && git pull origin main && git push origin main" };
      const model = new MockLanguageModelV4({
        doGenerate: [
          call("read", "read", { path: "/workspace/proj/README.md" }),
          call("edit", "edit", { path: "/workspace/proj/README.md", edits: [{ oldText: "Second paragraph.", newText: "Second paragraph, edited by the agent." }] }),
          call("push", "exec", PUSH),
          call("pull", "exec", PULL),
          done,
        ],
      });
      const result = await generateText({ model, prompt: "edit and push", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(10) });
      expect(result.text).toBe("done");
      const [merge, mine] = await ws.git.log({ dir: "/workspace/proj", depth: 2 });
      return { upstream, push: outputFor(model, "push"), pull: outputFor(model, "pull"), merge: merge!, mine: mine!, PUSH, PULL };
    }, withGit);
    const { upstream, merge, mine } = out;
    // The model saw the rejection (exit 1), then the merge line and the push report.
    expect(out.push).toEqual({
      type: "json",
      value: {
        command: out.PUSH.command,
        cwd: null,
        backend: "worker-shell",
        exitCode: 1,
        stdout: "",
        stderr:
          `To ${url}\n ! [rejected]        main -> main (non-fast-forward (fetch and merge first, or push with force))\n` +
          `error: failed to push some refs to '${url}'\n`,
      },
    });
    expect(out.pull).toEqual({
      type: "json",
      value: { command: out.PULL.command, cwd: null, backend: "worker-shell", exitCode: 0, stdout: `Merge commit ${merge.oid.slice(0, 7)}\n`, stderr: `To ${url}\n   ${upstream.slice(0, 7)}..${merge.oid.slice(0, 7)}  main -> main\n` },
    });
    // The Workspace's commits: the agent's over the old head, then the merge (first parent the agent's), both by the default identity.
    expect(mine.parent).toEqual([old.head]);
    expect(mine.message).toBe(`${subject}\n`);
    expect(merge.parent).toEqual([mine.oid, upstream]);
    // Real git's message for `git pull <remote> <branch>`.
    expect(merge.message).toBe(`Merge branch 'main' of ${url.replace(/\.git$/, "")}\n`);
    for (const c of [mine, merge]) expect([c.author.name, c.author.email, c.committer.name, c.committer.email]).toEqual([IDENTITY.name, IDENTITY.email, IDENTITY.name, IDENTITY.email]);

    // The server, through the real git: main is the merge; exactly three new commits; the merged tree is the one real git's merge-tree makes.
    expect((await serverGit(name, ["rev-parse", "main"])).stdout).toBe(`${merge.oid}\n`);
    // (The two side commits may share a committer second, so their order in the log is not fixed: compare as a set.)
    const added = (await serverGit(name, ["log", "--format=%H %P|%an|%s", "main", `^${old.head}`])).stdout.split("\n");
    expect(added.pop()).toBe("");
    expect(added[0]).toBe(`${merge.oid} ${mine.oid} ${upstream}|${IDENTITY.name}|Merge branch 'main' of ${url.replace(/\.git$/, "")}`);
    expect(added.slice(1).sort()).toEqual([`${mine.oid} ${old.head}|${IDENTITY.name}|${subject}`, `${upstream} ${old.head}|Upstream Dev|upstream change`].sort());
    expect((await serverGit(name, ["log", "--format=%H%n%an <%ae>%n%s", `${old.head}`])).stdout).toBe(old.log);
    const realMerge = await serverGit(name, ["merge-tree", "--write-tree", mine.oid, upstream]);
    expect([realMerge.code, realMerge.stdout]).toEqual([0, `${merge.tree}\n`]);
    expect((await serverGit(name, ["rev-parse", "main^{tree}"])).stdout).toBe(`${merge.tree}\n`);
    expect((await serverGit(name, ["diff", "--name-status", upstream, "main"])).stdout).toBe("M\tREADME.md\n");
    expect((await serverGit(name, ["show", "main:README.md"])).stdout).toBe(README_EDITED);
    expect((await serverGit(name, ["show", "main:UPSTREAM.md"])).stdout).toBe("from upstream\n");
    const fsck = await serverGit(name, ["fsck", "--strict", "--no-dangling"]);
    expect([fsck.code, fsck.stdout, fsck.stderr]).toEqual([0, "", ""]);
  });
});

/** The real git on the server commits `path` = `text` on top of main (hash-object, mktree, commit-tree, update-ref); returns the new oid. */
async function advanceServer(name: string, path: string, text: string, message: string): Promise<string> {
  const blob = (await serverGit(name, ["hash-object", "-w", "--stdin"], new TextEncoder().encode(text))).stdout.trim();
  const listing = (await serverGit(name, ["ls-tree", "main"])).stdout;
  const tree = (await serverGit(name, ["mktree"], new TextEncoder().encode(`${listing}100644 blob ${blob}\t${path}\n`))).stdout.trim();
  const parent = (await serverGit(name, ["rev-parse", "main"])).stdout.trim();
  const ident = ["-c", "user.name=Upstream Dev", "-c", "user.email=upstream@example.com"];
  const commit = await serverGit(name, [...ident, "commit-tree", tree, "-p", parent, "-m", message]);
  expect(commit.code).toBe(0);
  const oid = commit.stdout.trim();
  expect((await serverGit(name, ["update-ref", "refs/heads/main", oid, parent])).code).toBe(0);
  return oid;
}
