import { expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

it("process.exit(code) and process.exitCode end the run with that code, keeping output", async () => {
  const out = await inWorkspace(async (ws) => {
    const run = async (source: string) => {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
      return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, value: r.value };
    };
    return {
      three: await run(`export default () => { console.log("a"); process.exit(3); console.log("never"); }`),
      zero: await run(`export default () => { console.log("a"); process.exit(0); }`),
      exitCode: await run(`export default () => { process.exitCode = 4; return 1; }`),
      bad: await run(`export default () => process.exit("nope")`),
    };
  });
  expect(out).toEqual({
    three: { status: "failed", exitCode: 3, stdout: "a\n", value: undefined },
    zero: { status: "completed", exitCode: 0, stdout: "a\n", value: null },
    exitCode: { status: "failed", exitCode: 4, stdout: "", value: undefined },
    bad: { status: "failed", exitCode: 1, stdout: "", value: undefined },
  });
});
