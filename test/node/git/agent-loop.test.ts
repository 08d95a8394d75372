/**
 * Issue 15's "Done when" on Node: a Workspace on a node:sqlite file with
 * `git: createGitClient()` and a `defaultGitIdentity`; `workspace.git`
 * clones from the loopback server, the AI SDK's `generateText` over
 * `MockLanguageModelV4` drives the file tools (read, edit, write), and
 * `workspace.git.cli` checks status, commits and pushes. The Workspace's
 * status is compared with the real git's on an exported copy; the server's
 * history, fsck and bytes are checked with the real git.
 */
import { join } from "node:path";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, exportDir, realGit, tempDir } from "./worktree-helpers.js";
import { Workspace } from "../../../src/index.js";
import { nodeSqliteStorage } from "../../../src/storage/node-sqlite.js";
import { createGitClient } from "../../../src/git/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

afterAll(cleanupScratch);

const IDENTITY = { name: "Node Agent", email: "node-agent@example.com" };
const README_EDITED = "# Fixture\n\nA repository made by the real git for the Workspace git tests.\n\nSecond paragraph, edited by the agent.\n";
const NEW_TEXT = "written by the agent\n";

describe("an agent on Node: workspace.git clones, the file tools edit, workspace.git.cli commits and pushes", () => {
  it("the real git on the server sees the fixture's history plus the agent's commit", async () => {
    const { url, name } = await forkRepo();
    const oldLog = (await serverGit(name, ["log", "--format=%H%n%an <%ae>%n%s", "main"])).stdout;
    const oldHead = (await serverGit(name, ["rev-parse", "main"])).stdout.trim();
    const file = join(tempDir("wsgit-agent-"), "ws.sqlite");
    const open = () => new Workspace({ storage: nodeSqliteStorage(file), git: createGitClient(), defaultGitIdentity: IDENTITY });
    const ws = open();
    let head = "";
    try {
      await ws.git.clone({ url, dir: "/workspace/proj" });

      const model = new MockLanguageModelV4({
        doGenerate: [
          call("read", "read", { path: "/workspace/proj/README.md" }),
          call("edit", "edit", { path: "/workspace/proj/README.md", edits: [{ oldText: "Second paragraph.", newText: "Second paragraph, edited by the agent." }] }),
          call("write", "write", { path: "/workspace/proj/notes/agent.txt", content: NEW_TEXT }),
          done,
        ],
      });
      const result = await generateText({ model, prompt: "edit", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(10) });
      expect(result.text).toBe("done");
      expect(outputFor(model, "edit")).toMatchObject({ type: "json", value: { path: "/workspace/proj/README.md", editsApplied: 1, firstChangedLine: 5 } });
      expect(outputFor(model, "write")).toEqual({ type: "json", value: { path: "/workspace/proj/notes/agent.txt", bytesWritten: NEW_TEXT.length } });

      const cli = (...argv: string[]) => ws.git.cli({ argv, cwd: "/workspace/proj" });
      // status v1 matches the real git's on an exported copy of the same checkout.
      const status = await cli("status", "--porcelain=v1");
      expect([status.exitCode, status.stdout, status.stderr]).toEqual([0, " M README.md\n?? notes/\n", ""]);
      expect(realGit(await exportDir(ws, "/workspace/proj"), "status", "--porcelain=v1")).toBe(status.stdout);

      expect(await cli("add", "-A")).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
      const commit = await cli("commit", "-m", "node agent change");
      head = (await cli("rev-parse", "HEAD")).stdout.trim();
      expect([commit.exitCode, commit.stdout, commit.stderr]).toEqual([0, `[${head.slice(0, 7)}] node agent change\n`, ""]);
      const push = await cli("push", "origin", "main");
      expect([push.exitCode, push.stdout, push.stderr]).toEqual([0, "", `To ${url}\n   ${oldHead.slice(0, 7)}..${head.slice(0, 7)}  main -> main\n`]);
      expect((await cli("status", "--porcelain=v1")).stdout).toBe("");

      // The server, through the real git.
      expect((await serverGit(name, ["log", "--format=%H%n%an <%ae>%n%s", "main"])).stdout).toBe(
        `${head}\n${IDENTITY.name} <${IDENTITY.email}>\nnode agent change\n${oldLog}`,
      );
      expect((await serverGit(name, ["log", "-1", "--format=%P%n%cn <%ce>", "main"])).stdout).toBe(`${oldHead}\n${IDENTITY.name} <${IDENTITY.email}>\n`);
      const fsck = await serverGit(name, ["fsck", "--strict", "--no-dangling"]);
      expect([fsck.code, fsck.stdout, fsck.stderr]).toEqual([0, "", ""]);
      expect((await serverGit(name, ["diff", "--name-status", "main~1", "main"])).stdout).toBe("M\tREADME.md\nA\tnotes/agent.txt\n");
      expect((await serverGit(name, ["show", "main:README.md"])).stdout).toBe(README_EDITED);
      expect((await serverGit(name, ["show", "main:notes/agent.txt"])).stdout).toBe(NEW_TEXT);
    } finally {
      await ws.close();
    }
    // The repository outlives the Workspace object: reopened from the same file, it is clean at the pushed commit.
    const again = open();
    try {
      const log = await again.git.cli({ argv: ["log", "-2", "--format=%H %s"], cwd: "/workspace/proj" });
      expect(log.stdout).toBe(`${head} node agent change\n${oldHead} ${oldLog.split("\n")[2]}\n`);
      expect((await again.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/workspace/proj" })).stdout).toBe("");
      expect((await again.git.cli({ argv: ["rev-parse", "origin/main"], cwd: "/workspace/proj" })).stdout).toBe(`${head}\n`);
    } finally {
      await again.close();
    }
  });
});
