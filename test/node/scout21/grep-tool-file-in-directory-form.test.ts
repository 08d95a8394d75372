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
 * Fixed: the grep tool (src/tools/core/grep.ts checkDirectoryForm) stats a start path in directory form
 * (`f.txt/`, `f.txt/.`) before fs.grep and answers `ENOTDIR: not a directory, grep: <path as given>` for a
 * non-directory; a directory in that form (`d/`) is searched as before, a missing one is fs.grep's own ENOENT.
 * Under `root` the same (the check goes through the confined view).
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("grep of f.txt/ is ENOTDIR, as read and ls answer", async () => {
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
      { name: "read", error: true, text: "ENOTDIR: not a directory, stat: /workspace/f.txt/" },
      { name: "grep", error: true, text: "ENOTDIR: not a directory, grep: /workspace/f.txt/" },
    ]);
  } finally {
    await ws.close();
  }
});

it("grep of f.txt/. and, under root, of f.txt/ is ENOTDIR; d/ of a directory is searched", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "hello\n");
    await ws.fs.writeFile("/workspace/d/g.txt", "hello\n");
    const plain = createPiTools({ workspace: ws });
    const rooted = createPiTools({ workspace: ws, root: "/workspace" });
    const grep = async (tools: typeof plain, path: string) => {
      const r = await tools.execute({ id: path, name: "grep", arguments: { query: "hello", path } });
      const details = r.details as { error?: string; count?: number; matches?: { path: string }[] };
      return details.error ?? details.matches?.map((m) => m.path);
    };
    expect({
      dot: await grep(plain, "/workspace/f.txt/."),
      rooted: await grep(rooted, "f.txt/"),
      dir: await grep(plain, "/workspace/d/"),
      rootedDir: await grep(rooted, "d/."),
      file: await grep(plain, "/workspace/f.txt"),
    }).toEqual({
      dot: "ENOTDIR: not a directory, grep: /workspace/f.txt/.",
      rooted: "ENOTDIR: not a directory, grep: f.txt/",
      dir: ["/workspace/d/g.txt"],
      rootedDir: ["/workspace/d/g.txt"],
      file: ["/workspace/f.txt"],
    });
  } finally {
    await ws.close();
  }
});
