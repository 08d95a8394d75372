/**
 * Spec 04 §4 in real workerd: the git RPC stub's `workspace.git.cli` span —
 * `workspace.git.command` (the subcommand, cut to 64 characters: any string
 * can arrive over RPC) and `workspace.git.exit_code`; a Workspace without
 * git records the ENOCONFIG rejection.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inObservedWorkspace, named, recordingObserver, rejection } from "./helpers.js";

describe("workspace.git.cli", () => {
  it("records the subcommand (cut to 64 characters) and the exit code", async () => {
    const { observer, spans } = recordingObserver();
    const long = "x".repeat(100_000);
    await inObservedWorkspace(
      observer,
      async (ws) => {
        await ws.fs.mkdir("/repo");
        const git = ws.stub().git!;
        expect(await git.cli({ argv: ["init"], cwd: "/repo" })).toEqual({ stdout: "Initialized empty Git repository in /repo/.git/\n", stderr: "", exitCode: 0 });
        expect((await git.cli({ argv: [long], cwd: "/repo" })).exitCode).toBe(1);
        expect((await git.cli({ argv: ["status"], cwd: "/" })).exitCode).toBe(128);
      },
      { git: createGitClient() },
    );
    expect(named(spans)).toEqual([
      ["workspace.git.cli", { "workspace.git.command": "init", "workspace.git.exit_code": 0 }],
      ["workspace.git.cli", { "workspace.git.command": "x".repeat(64), "workspace.git.exit_code": 1 }],
      ["workspace.git.cli", { "workspace.git.command": "status", "workspace.git.exit_code": 128 }],
    ]);
  });

  it("without git: the call rejects ENOCONFIG and the span records it", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(observer, async (ws) => {
      const error = await rejection(ws.stub().git!.cli({ argv: ["status"] }));
      expect(error.code).toBe("ENOCONFIG");
    });
    expect(named(spans)).toEqual([
      ["workspace.git.cli", { "workspace.git.command": "status", "error.name": "Error", "error.message": "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git" }],
    ]);
  });
});
