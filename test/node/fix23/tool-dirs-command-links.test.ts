/**
 * Fix of attack23c/tool-dirs-container-linked-dir-loses-input-file: siblings of a bash/python tool reached through
 * symbolic links, run in the real container daemon (in process, `realDaemonWorkspace`). `runCommand` now resolves the
 * tool's directory, the entry's directory and `/workspace/.tool-input` with `resolveLinks`, starts the command in the
 * real tool directory and finds `$TOOL_INPUT_FILE` relative to it — the daemon starts every command in the `realpath`
 * of its cwd, so `..` is taken from there.
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { loadToolDirectories, runToolDirectory } from "../../../src/tool-dirs/index.js";
import type { Workspace } from "../../../src/index.js";

const toolMd = (name: string, language: string) =>
  `---\nname: ${name}\ndescription: Greets.\nlanguage: ${language}\ninputs:\n  name:\n    type: string\n    description: Who to greet.\n---\n`;
const PY = `import json, os\nwith open(os.environ["TOOL_INPUT_FILE"], encoding="utf-8") as f:\n    print("hello, " + json.load(f)["name"])\n`;
const SH = `printf 'hello, %s\\n' "$(sed 's/.*"name":"\\([^"]*\\)".*/\\1/' "$TOOL_INPUT_FILE")"\nbasename "$PWD"\n`;

async function writeTools(ws: Workspace, base: string): Promise<void> {
  await ws.fs.mkdir(`${base}/greet_py`, { recursive: true });
  await ws.fs.writeFile(`${base}/greet_py/TOOL.md`, toolMd("greet_py", "python"));
  await ws.fs.writeFile(`${base}/greet_py/index.py`, PY);
  await ws.fs.mkdir(`${base}/greet_sh`, { recursive: true });
  await ws.fs.writeFile(`${base}/greet_sh/TOOL.md`, toolMd("greet_sh", "bash"));
  await ws.fs.writeFile(`${base}/greet_sh/index.sh`, SH);
}

async function runAll(ws: Workspace, dir: string): Promise<unknown[]> {
  const loaded = await loadToolDirectories({ workspace: ws, dirs: [dir], languages: ["bash", "python"] });
  const out: unknown[] = [];
  for (const tool of loaded.tools) out.push(await runToolDirectory(tool, { workspace: ws, params: { name: "Ada" }, backend: "box" }));
  return out;
}

const OK = [{ content: [{ type: "text", text: "hello, Ada\n" }] }, { content: [{ type: "text", text: "hello, Ada\ngreet_sh\n" }] }];

describe("fix23: bash/python tools through links, in the container daemon", () => {
  it("a tools directory linked by an absolute target (/workspace/tools -> /workspace/data/agent/tools)", { timeout: 120_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    try {
      await writeTools(ws, "/workspace/data/agent/tools");
      await ws.fs.symlink("/workspace/data/agent/tools", "/workspace/tools");
      expect(await runAll(ws, "/workspace/tools")).toEqual(OK);
      expect(await ws.fs.readdir("/workspace/.tool-input")).toEqual([]);
    } finally {
      await close();
    }
  });

  it("each tool directory a link, at another depth than its target", { timeout: 120_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    try {
      await writeTools(ws, "/workspace/a/b/c/d");
      await ws.fs.mkdir("/workspace/tools", { recursive: true });
      await ws.fs.symlink("../a/b/c/d/greet_py", "/workspace/tools/greet_py");
      await ws.fs.symlink("../a/b/c/d/greet_sh", "/workspace/tools/greet_sh");
      expect(await runAll(ws, "/workspace/tools")).toEqual(OK);
      expect(await ws.fs.readdir("/workspace/.tool-input")).toEqual([]);
    } finally {
      await close();
    }
  });

  it("an entry file that is a link into another directory runs through its link, from the real tool directory", { timeout: 120_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    try {
      await writeTools(ws, "/workspace/data/agent/tools");
      await ws.fs.mkdir("/workspace/lib", { recursive: true });
      await ws.fs.writeFile("/workspace/lib/greet.py", `import os\n${PY}print(os.path.basename(os.getcwd()), os.path.basename(__file__))\n`);
      await ws.fs.rm("/workspace/data/agent/tools/greet_py/index.py");
      await ws.fs.symlink("../../../../lib/greet.py", "/workspace/data/agent/tools/greet_py/index.py");
      await ws.fs.symlink("data/agent/tools", "/workspace/tools");
      const [py] = await runAll(ws, "/workspace/tools");
      expect(py).toEqual({ content: [{ type: "text", text: "hello, Ada\ngreet_py index.py\n" }] });
    } finally {
      await close();
    }
  });
});
