/**
 * A python tool directory (issue 19) on a real command backend with python:
 * a `computerd` daemon of the local container host (container/local-host.mjs),
 * reached through `TestBackend` (as test/workers/container does), named with
 * `options.backend`. Inputs arrive as INPUT_<NAME> and in $TOOL_INPUT_FILE.
 */
import { describe, expect, it } from "vitest";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";
import { inWorkspace, startContainer } from "../container/helpers.js";
import { FIXTURE_TOOLS, input, toolAt } from "./helpers.js";

describe("runToolDirectory: python on a container backend", () => {
  it("runs py_hello and a tool reading $TOOL_INPUT_FILE; a non-zero exit is an error", async () => {
    const container = await startContainer();
    try {
      const out = await inWorkspace(container, async (ws) => {
        await ws.fs.mkdir("/workspace/tools/py_hello", { recursive: true });
        await ws.fs.writeFile("/workspace/tools/py_hello/index.py", `import os\nprint(f"hello from python, {os.environ.get('INPUT_NAME', 'world')}")\n`);
        await ws.fs.mkdir("/workspace/tools/py_json", { recursive: true });
        await ws.fs.writeFile(
          "/workspace/tools/py_json/index.py",
          `import json, os, sys\nwith open(os.environ["TOOL_INPUT_FILE"]) as f:\n    data = json.load(f)\nif data["n"] < 0:\n    print("negative: " + os.environ["INPUT_KEY"], file=sys.stderr)\n    sys.exit(4)\nprint(data["n"] * 2, os.environ["TOOL_CALL_ID"])\n`,
        );
        const pyJson = toolAt("py_json", "python", "index.py", { n: input("number"), key: input("string", { sensitive: true }) });
        return [
          await runToolDirectory(FIXTURE_TOOLS.py_hello, { workspace: ws, backend: "box", params: { name: "Grace" } }),
          await runToolDirectory(pyJson, { workspace: ws, backend: "box", toolCallId: "c9", params: { n: 21, key: "k-secret" } }),
          await runToolDirectory(pyJson, { workspace: ws, backend: "box", params: { n: -1, key: "k-secret" } }),
        ];
      });
      expect(out).toEqual([
        { content: [{ type: "text", text: "hello from python, Grace\n" }] },
        { content: [{ type: "text", text: "42 c9\n" }] },
        { content: [{ type: "text", text: 'Tool "py_json" failed (exit 4): negative: ***' }], isError: true },
      ]);
    } finally {
      await container.stop();
    }
  });
});
