/**
 * Fix of attack23c/tool-dirs-container-linked-dir-loses-input-file, the shell backend's side: a bash tool reached
 * through a linked tools directory (`/workspace/tools` -> `data/agent/tools`, relative or absolute) or a linked tool
 * directory runs from its real directory (links resolved, as the container daemon's `realpath`), reads
 * `$TOOL_INPUT_FILE`, and its input file is removed afterwards.
 */
import { describe, expect, it } from "vitest";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";
import { inToolWorkspace } from "../tool-dirs/helpers.js";

const TOOL_MD = `---\nname: greet_sh\ndescription: Greets.\nlanguage: bash\ninputs:\n  name:\n    type: string\n    description: Who to greet.\n---\n`;
const SH = `printf 'hello, %s\\n' "$(cat "$TOOL_INPUT_FILE")"\necho "$PWD"\n`;

describe("fix23: a bash tool through links, in the shell backend", () => {
  for (const [label, link, target, real] of [
    ["a tools directory linked relatively", "/workspace/tools2", "data/agent/tools", "/workspace/data/agent/tools/greet_sh"],
    ["a tools directory linked absolutely", "/workspace/tools2", "/workspace/data/agent/tools", "/workspace/data/agent/tools/greet_sh"],
    ["a tool directory linked from another depth", "/workspace/tools2/greet_sh", "../data/agent/tools/greet_sh", "/workspace/data/agent/tools/greet_sh"],
  ] as const) {
    it(`${label}: runs from the real directory and reads $TOOL_INPUT_FILE`, async () => {
      const out = await inToolWorkspace(async (ws) => {
        await ws.fs.mkdir("/workspace/data/agent/tools/greet_sh", { recursive: true });
        await ws.fs.writeFile("/workspace/data/agent/tools/greet_sh/TOOL.md", TOOL_MD);
        await ws.fs.writeFile("/workspace/data/agent/tools/greet_sh/index.sh", SH);
        await ws.fs.mkdir(link.slice(0, link.lastIndexOf("/")), { recursive: true });
        await ws.fs.symlink(target, link);
        const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools2"], languages: ["bash"] });
        const result = await runToolDirectory(loaded.tools[0], { workspace: ws, params: { name: "Ada" } });
        return { dirs: loaded.tools.map((t) => t.dir), result, left: await ws.fs.readdir("/workspace/.tool-input") };
      });
      expect(out).toEqual({
        dirs: ["/workspace/tools2/greet_sh"],
        result: { content: [{ type: "text", text: `hello, {"name":"Ada"}\n${real}\n` }] },
        left: [],
      });
    });
  }
});
