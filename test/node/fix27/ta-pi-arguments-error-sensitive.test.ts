/**
 * Issue 20, run 27, fixer TA (lead 5): pi 1.x's `argumentsError` ends with the model's raw arguments text
 * (`Received arguments:\n<text>`, pi-ai utils/json-parse.js) and its reason can quote a piece of it. For a
 * directory tool with a `sensitive` input the pi adapter no longer passes that text on (a secret in malformed
 * arguments would reach the model's context through the error result); other tools keep pi's text, as before.
 */
import { expect, it } from "vitest";
import { parseToolCallArguments } from "@earendil-works/pi-ai";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import type { ToolDirectory } from "../../../src/tool-dirs/types.js";

function tool(name: string, sensitive: boolean): ToolDirectory {
  const dir = `/workspace/tools/${name}`;
  return {
    name,
    label: name,
    description: name,
    summary: name,
    body: "",
    version: 1,
    language: "typescript",
    inputs: {
      user: { name: "user", type: "string", description: "who", optional: false, sensitive: false },
      key: { name: "key", type: "string", description: "the key", optional: false, sensitive },
    },
    mutating: true,
    env: [],
    dir,
    toolFile: `${dir}/TOOL.md`,
    entry: `${dir}/index.ts`,
    root: "/workspace/tools",
  };
}

it("leaves pi's raw arguments text out of the error for a tool with sensitive inputs", async () => {
  const storage = nodeSqliteStorage();
  const workspace = new Workspace({ storage });
  const { execute } = createPiTools({ workspace, toolDirectories: { tools: [tool("login", true), tool("plain", false)] } });
  const raw = '{"user": "ann", "key": "s3cr3t-value"';
  const parsed = parseToolCallArguments(raw) as { arguments: unknown; argumentsError?: string };
  expect(parsed.argumentsError).toContain("s3cr3t-value");
  const secret = await execute({ id: "c1", name: "login", arguments: parsed.arguments, argumentsError: parsed.argumentsError });
  const plain = await execute({ id: "c2", name: "plain", arguments: parsed.arguments, argumentsError: parsed.argumentsError });
  const bare = await execute({ id: "c3", name: "login", arguments: {}, argumentsError: "s3cr3t-value is not JSON" });
  storage.close();
  expect(secret).toEqual({
    content: [{ type: "text", text: "Invalid arguments for login: the arguments text is not a JSON object (not shown: this tool has sensitive inputs)" }],
    isError: true,
  });
  expect(bare).toEqual(secret);
  // A tool without sensitive inputs: pi's text as it was (its reason, then the raw text).
  expect(plain).toEqual({ content: [{ type: "text", text: `Invalid arguments for plain: ${parsed.argumentsError}` }], isError: true });
  expect((plain.content[0] as { text: string }).text).toContain(`Received arguments:\n${raw}`);
});
