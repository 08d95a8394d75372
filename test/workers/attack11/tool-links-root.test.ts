/**
 * Issue 20, eleventh attack run: tool directories reached through symbolic links, and JavaScript
 * tools under a confined JavaScript backend (`root`), in real workerd — loader and runner together.
 *
 * Tried:
 * - a tools-directory entry that is a link to a tool directory (the loader follows it, as
 *   test/node/tool-dirs/load.test.ts "follows a link to a tool directory" shows), for a JavaScript
 *   and a bash tool; a JavaScript tool whose entry file is a link;
 * - with `root: "/workspace/proj"` on the JavaScript backend: an entry that links out of the root, a
 *   tool importing `../../../outside.js`, a tool directory outside the root.
 */
import { describe, expect, it } from "vitest";
import { loadToolDirectories, runToolDirectory, type ToolDirectory } from "../../../src/tool-dirs/index.js";
import { inToolWorkspace, toolAt } from "../tool-dirs/helpers.js";

const ok = (text: string) => `export async function execute() { return { content: [{ type: "text", text: ${JSON.stringify(text)} }] }; }`;

describe("attack11: tool directories through links", () => {
  // FIXED (was DEFECT, low-medium: the model is offered a tool that can never run). run.ts runModule now
  // resolves symbolic links in tool.dir and tool.entry (lstat/readlink, src/tool-dirs/realpath.ts) before
  // it runs a JavaScript/TypeScript tool, so it runs from its real directory and entry, as a bash tool
  // runs through the link; the loader's report (dir/entry through the link) is unchanged.
  // loadToolDirectories follows a link to a tool directory (load.ts: an entry that `isSymbolicLink` and
  // stats as a directory is loaded; a link as the entry file passes `isFile`, which follows links) and
  // reports the tool with `dir`/`entry` through the link. runToolDirectory then runs a JavaScript/
  // TypeScript tool with `cwd: tool.dir` and imports `tool.entry` in the JavaScript backend, which
  // refuses any symbolic link on a path (docs/runtime.md: "a symbolic link on a path is refused";
  // src/backends/worker-javascript/paths.ts:96), so every call is the error result
  // `Tool "linked_js" failed: cannot traverse symbolic link: /workspace/tools/linked_js`.
  // A bash tool through the same kind of link runs. Expected: a tool the loader reports as loaded
  // runs — resolve the real path of the tool directory and entry when loading (fs.realpath) or before
  // exec — or the loader skips a JavaScript/TypeScript tool reached through a link, with that reason.
  it("a JavaScript tool whose directory is a link, and one whose entry is a link, run as loaded", async () => {
    const out = await inToolWorkspace(async (ws) => {
      await ws.fs.rm("/workspace/tools", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace/real/linked_js", { recursive: true });
      await ws.fs.writeFile("/workspace/real/linked_js/TOOL.md", "---\nname: linked_js\ndescription: d\nlanguage: javascript\n---\n");
      await ws.fs.writeFile("/workspace/real/linked_js/index.js", ok("ran linked_js"));
      await ws.fs.mkdir("/workspace/tools/entry_link", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/entry_link/TOOL.md", "---\nname: entry_link\ndescription: d\nlanguage: javascript\n---\n");
      await ws.fs.writeFile("/workspace/real/impl.js", ok("ran entry_link"));
      await ws.fs.symlink("/workspace/real/impl.js", "/workspace/tools/entry_link/index.js");
      await ws.fs.symlink("/workspace/real/linked_js", "/workspace/tools/linked_js");
      const { tools, skipped } = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      expect(skipped).toEqual([]);
      expect(tools.map((t) => t.name)).toEqual(["entry_link", "linked_js"]);
      const results = [];
      for (const t of tools) results.push(await runToolDirectory(t, { workspace: ws }));
      return results;
    });
    expect(out).toEqual([{ content: [{ type: "text", text: "ran entry_link" }] }, { content: [{ type: "text", text: "ran linked_js" }] }]);
  });

  it("a bash tool whose directory is a link loads and runs", async () => {
    const out = await inToolWorkspace(async (ws) => {
      await ws.fs.rm("/workspace/tools", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace/real/linked_sh", { recursive: true });
      await ws.fs.writeFile("/workspace/real/linked_sh/TOOL.md", "---\nname: linked_sh\ndescription: d\nlanguage: bash\n---\n");
      await ws.fs.writeFile("/workspace/real/linked_sh/index.sh", "echo ran sh\n");
      await ws.fs.mkdir("/workspace/tools", { recursive: true });
      await ws.fs.symlink("/workspace/real/linked_sh", "/workspace/tools/linked_sh");
      const { tools } = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      expect(tools.map((t) => [t.name, t.dir])).toEqual([["linked_sh", "/workspace/tools/linked_sh"]]);
      return runToolDirectory(tools[0], { workspace: ws });
    });
    expect(out).toEqual({ content: [{ type: "text", text: "ran sh\n" }] });
  });
});

describe("attack11: JavaScript tools under a confined backend (root /workspace/proj)", () => {
  it("an entry linking out of the root, an import out of the root, a tool outside the root: error results, nothing outside runs", async () => {
    const out = await inToolWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/proj/tools/inlink", { recursive: true });
        await ws.fs.mkdir("/workspace/proj/tools/imp", { recursive: true });
        await ws.fs.writeFile("/workspace/outside.js", ok("OUTSIDE RAN"));
        await ws.fs.symlink("/workspace/outside.js", "/workspace/proj/tools/inlink/index.js");
        await ws.fs.writeFile("/workspace/proj/tools/imp/index.js", `import * as o from "../../../outside.js";\n${ok("IMPORTED")}`);
        await ws.fs.mkdir("/workspace/tools/plain", { recursive: true });
        await ws.fs.writeFile("/workspace/tools/plain/index.js", ok("PLAIN RAN"));
        const at = (dir: string): ToolDirectory => ({ ...toolAt("x", "javascript", "index.js"), dir, entry: `${dir}/index.js`, toolFile: `${dir}/TOOL.md` });
        const results = [];
        for (const d of ["/workspace/proj/tools/inlink", "/workspace/proj/tools/imp", "/workspace/tools/plain"]) results.push(await runToolDirectory(at(d), { workspace: ws }));
        return results;
      },
      { javascript: { root: "/workspace/proj" } },
    );
    expect(out).toEqual([
      // the runner resolves the entry link (see above); the backend's root check then refuses its real path
      { content: [{ type: "text", text: 'Tool "x" failed: paths must stay under /workspace/proj: /workspace/outside.js' }], isError: true },
      { content: [{ type: "text", text: 'Tool "x" failed: paths must stay under /workspace/proj: ../../../outside.js' }], isError: true },
      { content: [{ type: "text", text: 'Tool "x" failed: paths must stay under /workspace/proj: cwd /workspace/tools/plain' }], isError: true },
    ]);
  });
});
