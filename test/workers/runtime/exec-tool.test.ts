import { describe, expect, it } from "vitest";
import { execDefinition } from "../../../src/tools/core/exec.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { inWorkspace } from "./helpers.js";

async function last<T>(it: AsyncIterable<T>): Promise<T> {
  let value!: T;
  for await (const v of it) value = v;
  return value;
}

describe("exec tool over WorkerJavaScriptBackend", () => {
  it("matches the recorded output: last 5 lines with the note, stderr, result", async () => {
    const out = await inWorkspace(async (ws) => {
      const tool = execDefinition({ workspace: ws as never, maxLines: 5 });
      const command = `export default async function (input) { for (let i = 1; i <= 12; i++) console.log("line " + i); console.error("oops"); return { got: input }; }`;
      return last(tool.execute({ command, input: { a: 1 } }));
    });
    expect(out).toMatchObject({ cwd: null, backend: "worker-javascript", exitCode: 0, stderr: "oops\n", result: { got: { a: 1 } } });
    expect((out as { stdout: string }).stdout).toMatch(
      /^line 8\nline 9\nline 10\nline 11\nline 12\n\n\n\[Showing lines 8-12 of 12\. Full output: \/\.computer\/output\/worker-javascript\.[0-9a-f-]+\.stdout\.log\]$/,
    );
  });

  it("reports a thrown error, a missing return as null, a syntax error, and kills on abort", async () => {
    const out = await inWorkspace(async (ws) => {
      const tool = execDefinition({ workspace: ws as never });
      const controller = new AbortController();
      const aborted = last(tool.execute({ command: `export default async () => { for (;;) await new Promise((r) => setTimeout(r, 5)); }` }, { abortSignal: controller.signal }));
      setTimeout(() => controller.abort(), 50);
      return {
        thrown: await last(tool.execute({ command: `export default () => { throw new Error("boom"); }` })),
        none: await last(tool.execute({ command: `export default () => {}` })),
        syntax: await last(tool.execute({ command: `export default (` })),
        aborted: await aborted,
        names: Object.keys(createAITools({ workspace: ws })),
      };
    });
    expect(out.thrown).toEqual({ command: `export default () => { throw new Error("boom"); }`, cwd: null, backend: "worker-javascript", exitCode: 1, stdout: "", stderr: "boom\n" });
    expect(out.none).toMatchObject({ exitCode: 0, result: null });
    expect(out.syntax).toEqual({ command: "export default (", cwd: null, backend: "worker-javascript", error: "Unexpected token (1:16)" });
    expect(out.aborted).toMatchObject({ exitCode: 130, stderr: "Execution cancelled.\n" });
    expect(out.names).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete", "exec"]);
  });
});
