/**
 * Issue 20, twenty-sixth attack run: run 25 (fixer FG) made the shell's `git` and `artifacts` built-ins print
 * `<cmd>: E2BIG: argument list too long (…)` when their call to the object passes workerd's 32 MiB
 * (src/backends/worker-shell/commands.ts `rejectionLine`); the third host built-in, `assets`, still prints
 * `assets: ${messageOf(err)}` — workerd's bare serialization text.
 *
 * Tried: `assets publish "$p"` with a 33 MiB operand (a variable read from a file), in a Workspace without assets and
 * one would expect the same in one with them (the call never reaches the host); `git`/`artifacts` with the same
 * operand for comparison (fix25/git-shell-env covers them).
 * Held: the shell goes on (`rc=1`), nothing is published.
 *
 * Found (low; 3 of 3 runs): stderr `assets: Serialized RPC arguments or return values are limited to 32MiB, but the
 * size of this value was: 34603036 bytes.` — where `git`/`artifacts` print the E2BIG line naming the limit.
 *
 * Suggested fix: in defineAssetsCommand's catch, `return { stdout: "", stderr: rejectionLine("assets", err), exitCode: 1 }`
 * (keeping the ENOCONFIG case), as the git and artifacts built-ins do.
 *
 * Fixed: defineAssetsCommand's catch prints `rejectionLine("assets", err)` (src/backends/worker-shell/commands.ts),
 * so workerd's size refusal is `assets: E2BIG: argument list too long (…)`, exit 1; ENOCONFIG still prints
 * `assets: publishing is not configured for this workspace`, other rejections `assets: <message>`.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

describe("attack26c: the shell's assets built-in past 32 MiB", () => {
  it("prints E2BIG naming the limit, as git and artifacts do", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/p.txt", "a".repeat(11 * 1024 * 1024));
      return sh(ws, 'p=$(cat p.txt); assets publish "$p$p$p"; echo rc=$?', { cwd: "/workspace" });
    });
    // Found: stderr "assets: Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: 34603036 bytes.\n".
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      0,
      "rc=1\n",
      "assets: E2BIG: argument list too long (its arguments, environment and input cross to the host as one call of at most 32 MiB)\n",
    ]);
  });
});
