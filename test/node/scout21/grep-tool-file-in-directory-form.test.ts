/**
 * Issue 20, twenty-first attack run (scout of fixes): the grep tool searches a file named in directory form.
 * Tried: 341f8d0 made `f.txt/` of a file ENOTDIR for read, write, edit and delete; the sibling tools on the same
 * path: ls, find and grep (createPiTools, a Workspace over node:sqlite).
 * Held: ls (`ENOTDIR: not a directory, readdir: /workspace/f.txt`) and find (`ENOTDIR … find`) refuse it.
 * Found (low — consistency of the path rule across tools; deterministic): `grep({ query: "hello", path:
 * "/workspace/f.txt/" })` answers `count: 1` with the match in `/workspace/f.txt`; GNU grep answers
 * `grep: f.txt/: Not a directory` and matches nothing.
 * Suggested fix: in the grep tool (or WorkspaceFileStore/fs.grep's start path), check `directoryForm(path)` as
 * read does — a non-directory there is `ENOTDIR` — before searching.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it.fails("grep of f.txt/ is ENOTDIR, as read and ls answer", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "hello\n");
    const { execute } = createPiTools({ workspace: ws });
    const out = [];
    for (const name of ["read", "grep"]) {
      const r = await execute({ id: name, name, arguments: name === "grep" ? { query: "hello", path: "/workspace/f.txt/" } : { path: "/workspace/f.txt/" } });
      out.push({ name, error: r.isError, text: (r.content[0] as { text: string }).text });
    }
    // Found: grep → { error: false, text: '{"path":"/workspace/f.txt/","query":"hello","count":1,…}' }.
    expect(out).toEqual([
      { name: "read", error: true, text: expect.stringMatching(/^ENOTDIR/) },
      { name: "grep", error: true, text: expect.stringMatching(/^ENOTDIR/) },
    ]);
  } finally {
    await ws.close();
  }
});
