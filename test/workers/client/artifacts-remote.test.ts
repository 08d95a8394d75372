/**
 * A remote `getWorkspace()` client's `artifacts` (spec 04 §3.3): the ten
 * methods run in the Durable Object through `WorkspaceStub.artifacts`.
 * `ClientTestAgent` has no `WorkspaceOptions.artifacts`, so the methods reject
 * `ENOCONFIG` (a local client throws it synchronously) and `cli` runs in
 * unconfigured mode. The configured path through the same stub is covered
 * by test/workers/artifacts/stub.test.ts.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { freshAgent, rejection } from "./helpers.js";

describe("remote client artifacts", () => {
  it("is namespace-wide, its methods reject ENOCONFIG with the spec's message, and cli answers in unconfigured mode", async () => {
    using ws = await getWorkspace(freshAgent());
    expect(ws.artifacts.sessionId).toBeUndefined();
    for (const call of [() => ws.artifacts.list(), () => ws.artifacts.get("x"), () => ws.artifacts.create("x"), () => ws.artifacts.getToken("x", "t")]) {
      const error = await rejection(call());
      expect(error).toMatchObject({ code: "ENOCONFIG", message: "Workspace Artifacts binding is not configured" });
    }
    const help = await ws.artifacts.cli({ argv: ["help"] });
    expect(help.exitCode).toBe(0);
    expect(help.stderr).toBe("");
    expect(help.stdout).toContain("artifacts");
    const repo = await ws.artifacts.cli({ argv: ["repo", "list"] });
    expect(repo.exitCode).toBe(1);
    expect(repo.stdout).toBe("");
  });

  it("a lazy client forwards too", async () => {
    using lazy = getWorkspace(freshAgent());
    expect(await rejection(lazy.artifacts.list())).toMatchObject({ code: "ENOCONFIG" });
  });
});
