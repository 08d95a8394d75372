/**
 * Issue 20, twenty-sixth attack run: the shell backend hands a command to its isolate as ONE Workers RPC value
 * (src/backends/worker-shell/backend.ts `#exec` → `runtime.exec(request, host)`, the request holding `source`, `env`
 * and `stdin` whole), so a command whose stdin (or env, or source) passes workerd's 32 MiB fails with workerd's bare
 * serialization text as the command's stderr (`shell: Serialized RPC arguments …`, exit 1). Run 24 (FC2) made file
 * data past 16 MiB cross between the shell and its object as a stream, and run 25 made the `git`/`artifacts`
 * built-ins print E2BIG for such a call; the request that starts the command was left as it was.
 *
 * Tried: `ws.runtime.exec("wc -c", { stdin })` on the shell backend with 31 MiB and 33 MiB of stdin; 40 MiB in one
 * `env` variable; a 40 MB source; a 2 MB source for comparison.
 * Held: 31 MiB of stdin is read whole (`32505856`); a 2 MB source is refused with just-bash's own limit
 * (`Input too large: 2000014 bytes exceeds limit of 1000000`, exit 2); nothing is left running.
 *
 * Found (medium; 3 of 3 runs): 33 MiB of stdin → status "failed", exit 1, stdout "", stderr `shell: Serialized RPC
 * arguments or return values are limited to 32MiB, but the size of this value was: 34605554 bytes.` — `wc -c` never
 * ran. bash reads stdin of any size, the container backend refuses a large stdin up front with RangeError `E2BIG`
 * naming `stdin` (MAX_REMOTE_STDIN_BYTES, documented), and docs/runtime.md states no stdin limit for the shell. The
 * same bare text for a 40 MiB `env` value (Linux: E2BIG, "Argument list too long") and a 40 MB source (just-bash's
 * "Input too large" refusal never reached). A bash tool (tool-dirs) whose input is that large fails the same way.
 *
 * Suggested fix: in `#exec`, send `stdin` past `RPC_BYTES_AT_ONCE` as a byte stream (util/rpc-bytes.ts `byteStream`,
 * read whole in the isolate as `readBytes` answers are), and refuse a request whose `source` + `env` still estimate
 * past ~30 MiB before anything runs with RangeError `E2BIG` naming each part — as `checkRemoteExec` does for
 * containers; document the limit beside the shell's other limits.
 *
 * Fixed: `#exec` sends `stdin` as a stream of its bytes (util/rpc-bytes.ts `byteStream`) unless the whole request
 * estimates within `RPC_BYTES_AT_ONCE` (16 MiB); the isolate (worker.ts `runShell`) reads it whole. Before anything
 * runs, `checkShellExec` refuses with RangeError `E2BIG` a `stdin` over `MAX_SHELL_STDIN_BYTES` (64 MiB, the shell's
 * read bound) or a command text + `env` + other fields estimated over `MAX_SHELL_EXEC_BYTES` (30 MiB), naming each
 * part. 33 MiB of stdin is now read whole (`34603008`); 40 MiB of env and a 40 MB source reject `E2BIG`. Siblings
 * (65 MiB of stdin refused, 20 MiB of stdin with a 15 MiB env, the exact messages, the shell going on afterwards) in
 * test/workers/fix26/shell-exec-request-size.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace } from "../shell/helpers.js";

const MiB = 1024 * 1024;

type Outcome = { result: [number, string, boolean] } | { rejected: unknown };

describe("attack26c: a shell command whose request passes 32 MiB", () => {
  it("33 MiB of stdin is read (or refused E2BIG before running), never workerd's bare text as stderr", { timeout: 300_000 }, async () => {
    const got = await inShellWorkspace(async (ws) => {
      const run = async (source: string, options: { stdin?: Uint8Array; env?: Record<string, string> }): Promise<Outcome> => {
        try {
          const r = await (await ws.runtime.exec(source, { encoding: "utf8", ...options })).result();
          return { result: [r.exitCode, r.stdout, /Serialized RPC/.test(r.stderr)] };
        } catch (error) {
          return { rejected: (error as { code?: unknown }).code ?? null };
        }
      };
      return {
        stdin: await run("wc -c", { stdin: new Uint8Array(33 * MiB).fill(97) }),
        env: await run("echo ${#X}", { env: { X: "a".repeat(40 * MiB) } }),
        source: await run(`#${"a".repeat(40 * MiB)}\necho hi`, {}),
      };
    });
    // Found: stdin { result: [1, "", true] }; env and source the same.
    expect(got.stdin).toEqual({ result: [0, `${33 * MiB}\n`, false] });
    expect(got.env).toEqual({ rejected: "E2BIG" });
    expect(got.source).toEqual({ rejected: "E2BIG" });
  });
});
