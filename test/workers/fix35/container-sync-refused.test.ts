/**
 * Issue 20, run 35, fixer CR — siblings of test/workers/attack35g/container-push-refused-enotdir-never-resent.test.ts:
 * a push the container refuses because its own entry is in the way (`EEXIST`, `ENOTDIR`, `EISDIR`,
 * src/runtime/sync.ts `IN_THE_WAY_CODES`) leaves the entry owed: every later push sends it again and lists it
 * (reason: the daemon's message, then `IN_THE_WAY`), until it lands or the Workspace changes it.
 * Covered: the file→directory standoff listed on every push (commands and `workspace.push()`), then resolved from
 * the Workspace's side (the Workspace removes its directory: the container's file comes in, nothing owed is left);
 * a link of the container in the way of a Workspace directory (the pull brings the link: the container wins); a directory
 * the container made where the Workspace wrote a file (`EISDIR`: the pull that follows brings the container's
 * directory — the container wins — and the owed file is dropped, as the Workspace changed it).
 * Messages in the container are real coreutils/bash (`cat: f/x: Not a directory`, `cat: g: Is a directory`).
 */
import { describe, expect, it } from "vitest";
import { drain, inWorkspace, sh, startContainer, waitFor, workspaceTree } from "../container/helpers.js";
import { IN_THE_WAY } from "../../../src/runtime/sync.js";

describe("fix35 CR: pushes refused by the container's entry in the way stay owed", () => {
  it("the file→directory standoff is listed on every push until the Workspace gives way; then the container's file comes in", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/f", "v1");
      await sh(ws, "true");
      const run = await ws.runtime.exec(`${waitFor("go")} && echo v2 > f`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.rm("/workspace/f");
      await ws.fs.mkdir("/workspace/f");
      await ws.fs.writeFile("/workspace/f/x", "mine");
      await c.put("go", "");
      await run.result();
      for (let i = 0; i < 2; i++) {
        const r = await sh(ws, "cat f/x");
        expect({ exitCode: r.exitCode, stderr: r.stderr, pushed: r.pushed }).toEqual({ exitCode: 1, stderr: "cat: f/x: Not a directory\n", pushed: 2 });
        expect(r.skipped.filter((s) => !("op" in s) || s.op !== "write")).toEqual([
          { path: "/workspace/f", reason: `EEXIST: mkdir: exists and is not a directory: "f": ${IN_THE_WAY}` },
          { path: "/workspace/f/x", reason: `ENOTDIR: not a directory (f/x): ${IN_THE_WAY}` },
        ]);
      }
      const [pushed] = await drain(ws.push());
      expect(pushed).toMatchObject({ complete: true, entries: 2, skipped: 2 });
      // The Workspace gives way: its directory goes, the container's file comes in, nothing is owed any more.
      await ws.fs.rm("/workspace/f", { recursive: true });
      const after = await sh(ws, "cat f");
      expect({ exitCode: after.exitCode, stdout: after.stdout, skipped: after.skipped }).toEqual({ exitCode: 0, stdout: "v2\n", skipped: [] });
      expect((await workspaceTree(ws)).get("f")).toEqual({ kind: "file", mode: 0o644, text: "v2\n" });
      const [again] = await drain(ws.push());
      expect(again).toMatchObject({ complete: true, entries: 0, skipped: 0 });
      expect(await c.text("f")).toBe("v2\n");
    });
  });

  it("a container link in the way of a Workspace directory: refused and listed; the pull then brings the link, nothing stays owed", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/t", { recursive: true });
      await sh(ws, "true");
      const run = await ws.runtime.exec(`${waitFor("go")} && ln -s t d`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.mkdir("/workspace/d");
      await ws.fs.writeFile("/workspace/d/k", "mine");
      await c.put("go", "");
      await run.result();
      // mkdir d is refused (the link is in the way); d/k is written through the link, as `echo mine > d/k` would.
      const refused = await sh(ws, "ls t");
      expect({ exitCode: refused.exitCode, stdout: refused.stdout, skipped: refused.skipped }).toEqual({
        exitCode: 0,
        stdout: "k\n",
        skipped: [{ path: "/workspace/d", reason: `EEXIST: mkdir: exists and is not a directory: "d": ${IN_THE_WAY}` }],
      });
      // The pull brings the container's link (the Workspace's directory held only what was synced): both sides agree.
      const tree = [...(await workspaceTree(ws)).entries()].filter(([p]) => p !== "go");
      expect(tree).toEqual([
        ["d", { kind: "symlink", mode: 0o777, target: "t" }],
        ["t", { kind: "directory", mode: 0o755 }],
        ["t/k", { kind: "file", mode: 0o644, text: "mine" }],
      ]);
      // The owed mkdir went with the Workspace's directory: nothing is sent or listed again.
      const [again] = await drain(ws.push());
      expect(again).toMatchObject({ complete: true, entries: 0, skipped: 0 });
      expect(await c.text("t/k")).toBe("mine");
    });
  });

  it("a directory the container made where the Workspace wrote a file (EISDIR): the container wins at the pull, nothing stays owed", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await sh(ws, "true");
      await ws.fs.writeFile("/workspace/g", "mine");
      await c.put("g/in", "c");
      const r = await sh(ws, "cat g");
      expect({ exitCode: r.exitCode, stderr: r.stderr, skipped: r.skipped }).toEqual({
        exitCode: 1,
        stderr: "cat: g: Is a directory\n",
        skipped: [{ path: "/workspace/g", reason: `EISDIR: illegal operation on a directory (g): ${IN_THE_WAY}` }],
      });
      expect([...(await workspaceTree(ws)).entries()]).toEqual([
        ["g", { kind: "directory", mode: 0o755 }],
        ["g/in", { kind: "file", mode: 0o644, text: "c" }],
      ]);
      const [again] = await drain(ws.push());
      expect(again).toMatchObject({ complete: true, entries: 0, skipped: 0 });
    });
  });
});
