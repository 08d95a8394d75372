/**
 * Issue 20, twenty-first attack run (scout of fixes): write to a rooted tool set's root itself says "outside".
 * Tried: next to 341f8d0 (delete refuses "" / a last "." / the root: EINVAL, EPERM), the same spellings of the root
 * for write under `root: "/workspace/d"`: `"."`, `""`, and `"/workspace/d"`.
 * Held: nothing is written; `x/` (a directory there) is `EISDIR: is a directory, writeFile: /workspace/d/x`.
 * Found (low — a wrong error the model acts on; deterministic): `write({ path: "." })` and `write({ path: "" })`
 * answer `Path is outside /workspace/d: /workspace` — the path is the root itself, inside by definition, and the
 * message names its parent, so the model is told its root is elsewhere.
 * Suggested fix: in WorkspaceFileStore.write, take the root itself (lockPath(path) === root) as a directory:
 * `EISDIR: is a directory, writeFile: /workspace/d` (and "" EINVAL, as delete answers), before computing its parent.
 * Fixed: WorkspaceFileStore.write (src/tools/core/store.ts) takes a path naming the confined root however spelled
 * (".", "./", "sub/..", the root's absolute path) as the directory it is — `EISDIR: is a directory, writeFile:
 * <root>` — and "" as `EINVAL` (nothing to write to), before its parent's mkdir; edit goes through the same write.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("write of the root itself is EISDIR (or EINVAL for \"\"), never 'outside' naming the parent", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    const { execute } = createPiTools({ workspace: ws, root: "/workspace/d" });
    const out = [];
    for (const path of [".", "", "/workspace/d", "./", "sub/.."]) {
      const r = await execute({ id: path, name: "write", arguments: { path, content: "x" } });
      out.push({ path, error: r.isError, text: (r.content[0] as { text: string }).text });
    }
    // Found: "." and "" → "Path is outside /workspace/d: /workspace".
    const isDir = "EISDIR: is a directory, writeFile: /workspace/d";
    expect(out).toEqual([
      { path: ".", error: true, text: isDir },
      { path: "", error: true, text: "EINVAL: invalid argument, writeFile: the path is empty; give the path of the file to write." },
      { path: "/workspace/d", error: true, text: isDir },
      { path: "./", error: true, text: isDir },
      { path: "sub/..", error: true, text: isDir },
    ]);
    expect((await ws.fs.find("/", "**")).map((e) => e.path).sort()).toEqual(["/workspace", "/workspace/d"]);
  } finally {
    await ws.close();
  }
});
