/**
 * Issue 20 sixth attack run, categories 1 and 2, the shell backend
 * (worker-shell) in real workerd. New angles not in runs 2–5:
 * (2) resource exhaustion through the interpreter itself — a brace
 * expansion of 10^7 words, `seq` to 10^8, a string doubled 40 times (1 TiB),
 * a function that calls itself, a "fork bomb" (`f | f &`), 500 nested
 * `$(…)`, `printf '%*s'` with a 10^9 width, a 5 MB here-document, a
 * 200-deep `mkdir -p` listed with `ls -R` and `find`: each stops at a named
 * limit (exit 126 or 2) in bounded time, and the next command answers.
 * (1) what the shell can reach: its file system is the whole Workspace by
 * design (docs/runtime.md "The shell"), so `cd ../..` stops at `/`; a link
 * made in the shell to another directory works as a link; commands of groups
 * not configured (sqlite3, jq, curl) are 127 with the group named, so no
 * `ATTACH`, `input` or `file://` reads exist to abuse.
 * All withstood.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const run = async (ws: Workspace, source: string) => {
  const started = Date.now();
  const r = await sh(ws, source, { timeoutMs: 60_000 });
  return { exitCode: r.exitCode, stdout: r.stdout as string, stderr: r.stderr as string, ms: Date.now() - started };
};

describe("attack6: the shell's own limits", () => {
  it("expansion, iteration, recursion, nesting, width and script-size bombs stop at named limits; the shell goes on", async () => {
    const r = await inShellWorkspace(async (ws) => ({
      brace: await run(ws, "echo {1..10}{1..10}{1..10}{1..10}{1..10}{1..10}{1..10} | wc -c"),
      seq: await run(ws, "seq 1 100000000 | tail -n 1"),
      doubling: await run(ws, "a=x; for i in $(seq 1 40); do a=$a$a; done; echo ${#a}"),
      recursion: await run(ws, "f() { f; }; f; echo after"),
      fork: await run(ws, "f() { f | f & }; f; echo after"),
      nesting: await run(ws, "echo " + "$(".repeat(500) + "echo deep" + ")".repeat(500)),
      width: await run(ws, "printf '%*s' 1000000000 x | wc -c"),
      heredoc: await run(ws, "cat > big <<'E'\n" + "y".repeat(5_000_000) + "\nE\nwc -c big"),
      deep: await run(ws, "mkdir -p " + "d/".repeat(200) + "; ls -R | wc -l; find . | wc -l"),
      after: await run(ws, "echo alive"),
      big: await ws.fs.stat("/workspace/big").then(() => "exists", (e) => (e as { code: string }).code),
    }));
    const limit = (stderr: string) => ({ exitCode: 126, stdout: "", stderr });
    const pick = ({ exitCode, stdout, stderr }: { exitCode: number | undefined; stdout: string; stderr: string }) => ({ exitCode, stdout, stderr });
    // 10^7 words: past the 100,000-word result limit (run 33, fixer SD: the work budget is 4× the limit, so the
    // result limit is met first; it was the brace_operations work limit).
    expect(pick(r.brace)).toEqual(limit("bash: brace expansion result limit exceeded (100000)\n"));
    // Was: "bash: seq: iteration limit exceeded (100000)" — numbers printed are not loop iterations since issue 20's
    // twenty-eighth run (fixer LM); the one command's 16 MiB output bound stops it.
    expect(pick(r.seq)).toEqual(limit("bash: seq: output size limit exceeded (16777216 bytes)\n"));
    expect(pick(r.doubling)).toEqual(limit("bash: word expansion: string length limit exceeded (67108864 bytes)\n"));
    expect(pick(r.recursion)).toEqual(limit("bash: f: maximum recursion depth (100) exceeded, increase executionLimits.maxCallDepth\n"));
    expect(pick(r.fork)).toEqual(limit("bash: f: maximum recursion depth (100) exceeded, increase executionLimits.maxCallDepth\n"));
    expect(pick(r.nesting)).toEqual({ exitCode: 2, stdout: "", stderr: "bash: syntax error: Parse error at 1:1: Maximum parser nesting depth exceeded (200)\n" });
    expect(pick(r.width)).toEqual(limit("bash: format width limit exceeded (16777216 bytes)\n"));
    expect(pick(r.heredoc)).toEqual({ exitCode: 2, stdout: "", stderr: "bash: syntax error: Parse error at 1:1: Input too large: 5000098 bytes exceeds limit of 1000000\n" }); // the worker's GROUP_START (BASH_VERSINFO) adds 65 bytes (run 40, fixer f40sh)
    expect(pick(r.deep)).toEqual({ exitCode: 0, stdout: "601\n201\n", stderr: "" });
    expect(pick(r.after)).toEqual({ exitCode: 0, stdout: "alive\n", stderr: "" });
    expect(r.big).toBe("ENOENT");
    // about hangs, not speed: each answers well inside a minute on a slow shared machine
    for (const [name, x] of Object.entries(r)) if (typeof x === "object") expect(x.ms, name).toBeLessThan(30_000);
  });

  it("cd above / stays at /; links made in the shell are links; unconfigured groups offer no ATTACH, input or file:// read", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.writeFile("/top.txt", "TOP");
      await ws.fs.mkdir("/other", { recursive: true });
      await ws.fs.writeFile("/other/o.txt", "OTHER");
      return {
        up: await run(ws, "cd ../../../..; pwd; cat top.txt"),
        link: await run(ws, "ln -s ../other o; cat o/o.txt; readlink o"),
        groups: await run(ws, "sqlite3 :memory: \"ATTACH '/top.txt' AS s\"; jq -n input /top.txt; curl -s file:///top.txt; echo $?"),
        other: await ws.fs.readFile("/other/o.txt", "utf8"),
      };
    });
    expect(r.up).toMatchObject({ exitCode: 0, stdout: "/\nTOP", stderr: "" });
    expect(r.link).toMatchObject({ exitCode: 0, stdout: "OTHER../other\n", stderr: "" });
    expect(r.groups).toMatchObject({
      exitCode: 0,
      stdout: "127\n",
      stderr:
        'bash: sqlite3: command not found; it comes with the sqlite command group (import "agent-computer/shell/sqlite" and pass it in WorkerShellBackend({ commands }))\n' +
        'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))\n' +
        'bash: curl: command not found; it comes with the curl command group (import "agent-computer/shell/curl" and pass it in WorkerShellBackend({ commands }))\n',
    });
    expect(r.other).toBe("OTHER");
  });
});
