/**
 * Issue 20, twenty-third attack run: a python or bash tool run in the container backend cannot find its
 * `$TOOL_INPUT_FILE` when the tool's directory is reached through a symbolic link (a linked tool directory, or a
 * tools directory that is itself a link — `/workspace/tools` → `/workspace/data/agent/tools`, the layout
 * docs/tool-directories.md shows for sync's `to`).
 *
 * `runCommand` (src/tool-dirs/run.ts) builds `TOOL_INPUT_FILE="$(cd '../../.tool-input' && pwd)"/'<file>'` — the
 * input directory relative to the tool's directory *as the loader found it* (`tool.dir`, through the link), to be
 * resolved against the run's cwd. The daemon (container/lib/api.mjs `exec`, paths.mjs `directory`) resolves the cwd
 * with `realpath` and starts the command there with `PWD` set to that real directory. `..` is then taken from the
 * real directory, which sits at another depth: `cd` fails, `$(…)` is empty and `$TOOL_INPUT_FILE` is
 * `/<expiry>-<uuid>.json`, a file that does not exist. docs/tool-directories.md: "bash and python tools run through
 * the link, which the shell follows"; the python example (`csv_summary`) opens `os.environ["TOOL_INPUT_FILE"]`.
 *
 * Tried: the real daemon in process (`realDaemonWorkspace`, attack18c/real-daemon.ts) as backend `box`; a python tool
 * and a bash tool that print their inputs read from `$TOOL_INPUT_FILE`, in `/workspace/data/agent/tools/<name>`,
 * loaded through the link `/workspace/tools` → `data/agent/tools`, run with `runToolDirectory(…, { backend: "box" })`.
 * Held: the same tools in a real directory (`/workspace/plain/<name>`) read `{"name": "Ada"}`; `$INPUT_NAME` is set
 * through the link too; the loader reports `dir` through the link, as documented.
 *
 * Found (medium; 3 of 3 runs): through the link, python is an error result —
 * `Tool "greet_py" failed (exit 1): /bin/sh: 1: cd: can't cd to ../../.tool-input` then
 * `FileNotFoundError: [Errno 2] No such file or directory: '/<expiry>-<uuid>.json'`; bash succeeds with the wrong
 * result `hello, \n` (its `sed` found no file, the tool's exit status is printf's), the input silently lost.
 *
 * Suggested fix: do not resolve the input file relative to the cwd. Resolve `tool.dir` with `resolveLinks` (as
 * `runModule` does for JavaScript, `realToolPaths`) before computing `relativePath`, or pass the path relative to the
 * mount point through an environment variable and join it with the mount point the daemon reports (`info().mountPoint`)
 * — e.g. run `cd "$(dirname …)"` from the mount point instead of from the tool's directory.
 *
 * Fixed: `runCommand` (src/tool-dirs/run.ts, `realCommandPaths`) resolves the links of the tool's directory, of the
 * entry's directory and of `/workspace/.tool-input` with `resolveLinks` (as `realToolPaths` does for JavaScript),
 * starts the command in the real tool directory and computes the `cd` to the input directory and the entry's path
 * from there — the same directory the daemon's `realpath` gives, so `..` climbs from the right depth; the shell
 * backend starts there too (`$PWD` is the real directory on both). Siblings: test/node/fix23/tool-dirs-command-links
 * (absolute link target — before, `cwd does not exist` —, a tool directory linked from another depth, a linked
 * entry file) and test/workers/fix23/tool-dirs-shell-links (the shell backend).
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { loadToolDirectories, runToolDirectory } from "../../../src/tool-dirs/index.js";

const toolMd = (name: string, language: string) =>
  `---\nname: ${name}\ndescription: Greets.\nlanguage: ${language}\ninputs:\n  name:\n    type: string\n    description: Who to greet.\n---\n`;
const PY = `import json, os\nwith open(os.environ["TOOL_INPUT_FILE"], encoding="utf-8") as f:\n    print("hello, " + json.load(f)["name"])\n`;
const SH = `printf 'hello, %s\\n' "$(sed 's/.*"name":"\\([^"]*\\)".*/\\1/' "$TOOL_INPUT_FILE")"\n`;

describe("attack23c: a python/bash tool reached through a link, in the container", () => {
  it("reads $TOOL_INPUT_FILE as in a real directory", { timeout: 120_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    try {
      for (const base of ["/workspace/data/agent/tools", "/workspace/plain"]) {
        await ws.fs.mkdir(`${base}/greet_py`, { recursive: true });
        await ws.fs.writeFile(`${base}/greet_py/TOOL.md`, toolMd("greet_py", "python"));
        await ws.fs.writeFile(`${base}/greet_py/index.py`, PY);
        await ws.fs.mkdir(`${base}/greet_sh`, { recursive: true });
        await ws.fs.writeFile(`${base}/greet_sh/TOOL.md`, toolMd("greet_sh", "bash"));
        await ws.fs.writeFile(`${base}/greet_sh/index.sh`, SH);
      }
      await ws.fs.symlink("data/agent/tools", "/workspace/tools");
      const languages = ["typescript", "javascript", "bash", "python"] as const;
      const plain = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/plain"], languages: [...languages] });
      const linked = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"], languages: [...languages] });
      expect(linked.tools.map((t) => t.dir)).toEqual(["/workspace/tools/greet_py", "/workspace/tools/greet_sh"]);
      const run = async (tools: typeof plain.tools) => {
        const out: unknown[] = [];
        for (const tool of tools) out.push(await runToolDirectory(tool, { workspace: ws, params: { name: "Ada" }, backend: "box" }));
        return out;
      };
      const ok = [{ content: [{ type: "text", text: "hello, Ada\n" }] }, { content: [{ type: "text", text: "hello, Ada\n" }] }];
      expect(await run(plain.tools)).toEqual(ok);
      expect(await run(linked.tools)).toEqual(ok);
    } finally {
      await close();
    }
  });
});
