/**
 * Issue 20, twenty-sixth run, fixer RC (siblings of attack26c/shell-exec-request-past-32-mib-workerd-error): the
 * shell backend's request to its isolate is one RPC value (workerd: at most 32 MiB). `stdin` goes as a stream of its
 * bytes unless the whole request fits in 16 MiB; `stdin` over `MAX_SHELL_STDIN_BYTES` (64 MiB) and a command text +
 * `env` estimated over `MAX_SHELL_EXEC_BYTES` (30 MiB) are refused with RangeError `E2BIG` before anything runs.
 */
import { describe, expect, it } from "vitest";
import { MAX_SHELL_EXEC_BYTES, MAX_SHELL_STDIN_BYTES } from "../../../src/backends/worker-shell/backend.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const MiB = 1024 * 1024;

function failure(error: unknown): { name: string; code: unknown; message: string } {
  const e = error as Error & { code?: unknown };
  return { name: e.name, code: e.code, message: e.message };
}

describe("fix26: a shell command's request past 32 MiB", () => {
  it("the bounds are 64 MiB of stdin and 30 MiB of the rest", () => {
    expect([MAX_SHELL_STDIN_BYTES, MAX_SHELL_EXEC_BYTES]).toEqual([67108864, 31457280]);
  });

  it("stdin past 16 MiB crosses byte for byte (non-UTF-8 bytes kept), and beside a 15 MiB env", { timeout: 300_000 }, async () => {
    const got = await inShellWorkspace(async (ws) => {
      const stdin = new Uint8Array(20 * MiB);
      for (let i = 0; i < stdin.byteLength; i++) stdin[i] = (i * 7) & 0xff;
      const written = await (await ws.runtime.exec("cat > in.bin; echo ${#X}", { stdin, env: { X: "b".repeat(15 * MiB) }, encoding: "utf8" })).result();
      const back = new Uint8Array(await new Response(await ws.fs.readFile("/workspace/in.bin")).arrayBuffer());
      let same: unknown = back.byteLength === stdin.byteLength;
      for (let i = 0; same === true && i < back.byteLength; i++) if (back[i] !== stdin[i]) same = [back.byteLength, i, back[i], stdin[i]];
      // 16 MiB exactly (inline or streamed, the same) and an empty stdin.
      const exact = await (await ws.runtime.exec("wc -c", { stdin: "c".repeat(16 * MiB), encoding: "utf8" })).result();
      const none = await sh(ws, "wc -c; echo done");
      return { written: [written.exitCode, written.stdout, written.stderr], same, exact: [exact.exitCode, exact.stdout], none: [none.exitCode, none.stdout] };
    }, { shell: { maxOutputBytes: 64 * MiB } });
    expect(got).toEqual({ written: [0, `${15 * MiB}\n`, ""], same: true, exact: [0, `${16 * MiB}\n`], none: [0, "0\ndone\n"] });
  });

  it("refuses stdin over 64 MiB and a source or env over 30 MiB with E2BIG before running; the shell goes on", { timeout: 300_000 }, async () => {
    const got = await inShellWorkspace(async (ws) => {
      const refusal = async (source: string, options: { stdin?: Uint8Array; env?: Record<string, string> }): Promise<{ name: string; code: unknown; message: string }> => {
        try {
          await ws.runtime.exec(source, { id: "big", ...options });
          return { name: "ran", code: null, message: "" };
        } catch (error) {
          return failure(error);
        }
      };
      const stdin = await refusal("touch ran-stdin", { stdin: new Uint8Array(64 * MiB + 1) });
      const env = await refusal("touch ran-env", { env: { X: "a".repeat(40 * MiB) } });
      const source = await refusal(`touch ran-source #${"a".repeat(31 * MiB)}`, {});
      const wide = await refusal("touch ran-wide", { env: { X: "€".repeat(16 * MiB) } });
      const after = await sh(ws, "ls; echo ok");
      return { stdin, env, source, wide, after: [after.exitCode, after.stdout] };
    });
    expect(got.stdin).toEqual({
      name: "RangeError",
      code: "E2BIG",
      message: "exec: stdin is 67108865 bytes, over the 67108864 bytes (64 MiB) the shell reads; nothing ran. Write the input to a Workspace file and redirect it (cmd < file) instead.",
    });
    // env: the object (3) + the name (1 + 2) + the value (40 MiB + 6).
    expect(got.env.name).toBe("RangeError");
    expect(got.env.code).toBe("E2BIG");
    expect(got.env.message).toMatch(
      /^exec: the request is \d+ bytes as sent to the shell \(command 19, env 41943052, other fields \d+\), over the 31457280 bytes \(30 MiB\) one call to the shell's isolate takes \(workerd's limit is 32 MiB\); nothing ran\. Put long text in a Workspace file and have the command read it \(sh \/workspace\/script\.sh, cmd < \/workspace\/input\) instead\.$/,
    );
    expect(got.source.code).toBe("E2BIG");
    expect(got.source.message).toMatch(/^exec: the request is \d+ bytes as sent to the shell \(command 32505880, env 3, other fields \d+\), over the 31457280 bytes/);
    // Two bytes a character once any is past Latin-1: 16 Mi characters of € are 32 MiB serialized (é, Latin-1, would be 16).
    expect(got.wide.message).toMatch(/\(command 20, env 33554444, other fields \d+\)/);
    expect(got.after).toEqual([0, "ok\n"]);
  });
});
