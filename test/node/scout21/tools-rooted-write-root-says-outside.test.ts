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
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it.fails("write of the root itself is EISDIR (or EINVAL for \"\"), never 'outside' naming the parent", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    const { execute } = createPiTools({ workspace: ws, root: "/workspace/d" });
    const out = [];
    for (const path of [".", "", "/workspace/d"]) {
      const r = await execute({ id: path, name: "write", arguments: { path, content: "x" } });
      out.push({ path, error: r.isError, text: (r.content[0] as { text: string }).text });
    }
    // Found: "." and "" → "Path is outside /workspace/d: /workspace".
    for (const o of out) {
      expect(o.error).toBe(true);
      expect(o.text).not.toMatch(/outside/);
      expect(o.text).toMatch(/^(EISDIR|EINVAL)/);
    }
    expect((await ws.fs.find("/", "**")).map((e) => e.path).sort()).toEqual(["/workspace", "/workspace/d"]);
  } finally {
    await ws.close();
  }
});
