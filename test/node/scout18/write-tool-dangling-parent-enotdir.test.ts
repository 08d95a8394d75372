/**
 * Issue 20, scout after the eighteenth attack run: the write tool's new
 * ENOTDIR (f831924) is also given for a parent that is a dangling link, and
 * a path ending in `/` leaves a new directory behind.
 *
 * Tried: the AI SDK write tool (createAITools) on /workspace/dangle/x.txt
 * (dangle → /workspace/nothere, missing), on /workspace/newdir/ (nothing
 * there), and workspace.fs.writeFile on the same dangling path.
 *
 * Found (low — wrong code and a leftover; nothing lost):
 * - dangling-link parent: the tool answers `ENOTDIR: not a directory,
 *   writeFile: /workspace/dangle/x.txt`; workspace.fs.writeFile of the same
 *   path is ENOENT, as POSIX open(2) (a dangling link resolves to nothing).
 *   f831924 maps every parent `stat` cannot show as a directory to ENOTDIR,
 *   including one stat fails on (ENOENT here).
 * - `newdir/`: the tool answers `EISDIR: is a directory, writeFile:
 *   /workspace/newdir` but has made the directory `newdir` first (mkdir -p
 *   of dirname("/workspace/newdir/")); POSIX open("newdir/", O_CREAT) is
 *   EISDIR and creates nothing.
 *
 * Fixed: WorkspaceFileStore.write gives stat's own code for a parent stat fails on, and refuses a path ending in
 * `/` with EISDIR before any mkdir.
 * Suggested fix: in WorkspaceFileStore.write, throw ENOTDIR only when stat
 * succeeds and is not a directory; when stat fails, rethrow its code under
 * writeFile (ENOENT, ELOOP). Refuse a path ending in `/` with EISDIR before
 * any mkdir.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

type Executable = { execute: (input: unknown, options: unknown) => Promise<unknown> };
const run = (tools: Record<string, unknown>, name: string, input: unknown) =>
  (tools[name] as Executable).execute(input, { toolCallId: "t", messages: [] });

it("a dangling-link parent is ENOENT (as workspace.fs.writeFile); a path ending in / creates nothing", async () => {
  const workspace = new Workspace({ storage: nodeSqliteStorage() });
  await workspace.ready();
  await workspace.fs.mkdir("/workspace", { recursive: true });
  await workspace.fs.symlink("/workspace/nothere", "/workspace/dangle");
  const tools = createAITools({ workspace });
  const fsError = await workspace.fs.writeFile("/workspace/dangle/x.txt", "x").then(
    () => "wrote",
    (e: { code?: string }) => e.code,
  );
  expect(fsError).toBe("ENOENT");
  const out = {
    dangle: await run(tools, "write", { path: "/workspace/dangle/x.txt", content: "x" }),
    slash: await run(tools, "write", { path: "/workspace/newdir/", content: "x" }),
    names: (await workspace.fs.readdir("/workspace")).map((e) => e.name),
  };
  // Probe (this checkout): dangle "ENOTDIR: not a directory, writeFile: …", names ["dangle", "newdir"].
  expect(out).toEqual({
    dangle: { error: "ENOENT: no such file or directory, writeFile: /workspace/dangle/x.txt" },
    slash: { error: "EISDIR: is a directory, writeFile: /workspace/newdir" },
    names: ["dangle"],
  });
}, 60_000);
