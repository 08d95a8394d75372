/**
 * The test-output filter (test/quiet-logs.ts): workerd's callee-side RPC error
 * logs are counted and dropped, everything else passes through unchanged, and
 * NODE_OPTIONS silences node:sqlite's ExperimentalWarning in child processes.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dropCalleeErrors } from "../quiet-logs.js";

describe("quiet test logs", () => {
  it("drops workerd's 'uncaught exception' lines for caught RPC errors, keeps the rest byte for byte", () => {
    const written: unknown[] = [];
    const stream = { write: (chunk: unknown) => (written.push(chunk), true) } as unknown as NodeJS.WriteStream;
    let dropped = 0;
    dropCalleeErrors(stream, () => dropped++);
    let called = false;
    stream.write(
      "uncaught exception; source = Uncaught (in promise); stack = WorkspaceFsError: ENOENT: no such file or directory, stat: /x\n    at f (a.ts:1:1)\n",
      () => (called = true),
    );
    stream.write(Buffer.from("uncaught exception; source = Uncaught (in promise); stack = Error: source broke\n"));
    stream.write('Sourcemap for "/w/node_modules/@workflow/serde/dist/index.js" points to missing source files\n');
    stream.write(" ✓ workers test/workers/smoke.test.ts (1 test)\n");
    stream.write("Error: uncaught exception; source = Uncaught (in promise) in a real failure message\n");
    expect(dropped).toBe(2);
    expect(called).toBe(true);
    expect(written).toEqual([
      " ✓ workers test/workers/smoke.test.ts (1 test)\n",
      "Error: uncaught exception; source = Uncaught (in promise) in a real failure message\n",
    ]);
  });

  it("vitest.config.ts silences node:sqlite's ExperimentalWarning in the processes it starts", () => {
    // vitest.config.ts ran quietTestLogs() in the main process; test workers inherit its NODE_OPTIONS.
    expect(process.env.NODE_OPTIONS ?? "").toContain("--disable-warning=ExperimentalWarning");
    const child = spawnSync(process.execPath, ["-e", "require('node:sqlite'); console.log('opened')"], { encoding: "utf8" });
    expect(child.stdout).toBe("opened\n");
    expect(child.stderr).not.toContain("ExperimentalWarning");
  });
});
