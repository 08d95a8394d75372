/**
 * Issue 20, twelfth attack run: a directory tool called with a huge string input (3,000,000 characters, as
 * a model's runaway argument) through createPiTools' `execute`, in real workerd.
 *
 * Tried: a TypeScript tool (JavaScript backend, maxInputBytes 1 MiB) and a bash tool (inputs as INPUT_<NAME>
 * and in $TOOL_INPUT_FILE). Held: the TypeScript call is an error result naming the limit, the bash tool gets
 * the whole value, and no input file is left in /workspace/.tool-input. (The shell backend has no env or
 * input-file limit of its own; the value is bounded by what the model can send.)
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { input, inToolWorkspace, toolAt } from "../tool-dirs/helpers.js";

describe("attack12: a 3,000,000-character input to directory tools (held)", () => {
  it("TypeScript: error result over maxInputBytes; bash: the whole value; no input file left", { timeout: 120_000 }, async () => {
    const out = await inToolWorkspace(async (ws) => {
      const b = toolAt("b", "bash", "index.sh", { s: input("string") }, { mutating: false });
      const t = toolAt("t", "typescript", "index.ts", { s: input("string") }, { mutating: false });
      await ws.fs.mkdir("/workspace/tools/b", { recursive: true });
      await ws.fs.mkdir("/workspace/tools/t", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/b/index.sh", 'echo "len=${#INPUT_S}"; wc -c < "$TOOL_INPUT_FILE"\n');
      await ws.fs.writeFile("/workspace/tools/t/index.ts", 'export async function execute(id, p) { return { content: [{ type: "text", text: "len=" + p.s.length }] }; }\n');
      const { execute } = createPiTools({ workspace: ws, toolDirectories: { tools: [b, t] } });
      const s = "z".repeat(3_000_000);
      const results = [];
      for (const name of ["b", "t"]) {
        const r = await execute({ type: "toolCall", id: name, name, arguments: { s } } as never);
        results.push({ isError: r.isError, text: (r.content[0] as { text: string }).text });
      }
      return { results, left: await ws.fs.readdir("/workspace/.tool-input").then((e) => e.length, (e: { code: string }) => e.code) };
    });
    expect(out.results).toEqual([
      { isError: false, text: "len=3000000\n3000008\n" },
      { isError: true, text: 'Tool "t" failed: input is 3000036 bytes of JSON, over maxInputBytes (1048576)' },
    ]);
    expect([0, "ENOENT"]).toContain(out.left);
  });
});
