/**
 * Issue 20, fifteenth attack run: the exit code a container's daemon reports is taken as it comes — a
 * string, an object, null, -1 or 10⁹ becomes the run's `exitCode`, and a 4 MiB string goes whole into
 * the exec tool's result for the model, past every output limit.
 *
 * Tried: the daemon handle every container backend uses (src/backends/daemon/handle.ts `daemonHandle`)
 * over a stand-in daemon ("Treat what the daemon answers as coming from the model's side",
 * docs/container.md: a command can replace the daemon) whose `events` end the run with
 * `{ name: "exit", code: <value> }`. (Held: output events are cut at MAX_REMOTE_OUTPUT_BYTES and a
 * non-bytes `data` is dropped; scan paths, kinds and link targets are checked.)
 *
 * Found (low-medium): `eventStream` forwards `event.code` unchecked. `result()` then answers
 * `{ status: "failed", exitCode: "0" }` (a string), `exitCode: { a: 1 }`, `exitCode: null`, `-1`,
 * `1000000000`, `0.5` — not the integer 0–255 the type and spec 02 §1.5 promise (and `status` is decided
 * from it). Through the exec tool (defineExec), a code of 4 MiB of text is the terminal snapshot's
 * `exitCode`, whole: the tool's `maxBytes`/`maxLines` limits cut stdout and stderr only, so the model's
 * context gets 4 MiB from one call; and `exitCode: null` makes the terminal snapshot look like a running
 * one (`isProgress`). Reproduction:
 *
 *   events: async () => ({ events: [{ seq: 1, name: "exit", code: "x".repeat(4 << 20) }], done: true })
 *   for await (const s of defineExec({ workspace: ws }).execute({ command: "true", backend: "box" })) …
 *   // the last snapshot's exitCode is a 4,194,304-character string
 *
 * Suggested fix: in eventStream, accept an exit code only when it is an integer 0–255 (else treat the
 * event as malformed: end the run with exit 1 and a stderr line "invalid exit code from the container").
 *
 * Fixed: `eventStream` takes the daemon's exit code only when it is an integer 0–255; any other value ends
 * the run `failed`, exit 1, after the stderr line `[run "<id>": the container reported exit code <value>, not
 * an integer 0–255; the run is reported failed with exit code 1]` — a string shown as its first 40
 * characters and its length, an object by its type, never the whole value.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "./daemon-stand-in.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";

function daemon(code: unknown): DaemonApi {
  const events = [
    { seq: 1, name: "stdout", data: "hi\n" },
    { seq: 2, name: "exit", code },
  ];
  return {
    ...emptyDaemon(),
    events: async ({ after }: { after: number }) => ({ events: events.filter((e) => e.seq > after), done: true }),
  } as unknown as DaemonApi;
}

function workspace(code: unknown): Workspace {
  return new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon(code), { closed: new Promise(() => {}), close() {} }) }],
  });
}

describe("attack15c: the daemon's exit code is not checked", () => {
  it("a run's exitCode is an integer 0–255 whatever code the daemon reports: a bad one is exit 1, failed, named on stderr", async () => {
    const seen: unknown[] = [];
    for (const code of ["0", { a: 1 }, null, -1, 1e9, 0.5, 255, 0]) {
      const ws = workspace(code);
      await ws.fs.mkdir("/workspace", { recursive: true });
      const r = await (await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r" })).result();
      seen.push({ status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
      await ws.close();
    }
    // Found: ["0", { a: 1 }, null, -1, 1000000000, 0.5].
    const bad = (shown: string) => ({
      status: "failed",
      exitCode: 1,
      stdout: "hi\n",
      stderr: `[run "r": the container reported exit code ${shown}, not an integer 0–255; the run is reported failed with exit code 1]\n`,
    });
    expect(seen).toEqual([
      bad(`"0"`),
      bad("a value of type object"),
      bad("null"),
      bad("-1"),
      bad("1000000000"),
      bad("0.5"),
      { status: "failed", exitCode: 255, stdout: "hi\n", stderr: "" },
      { status: "completed", exitCode: 0, stdout: "hi\n", stderr: "" },
    ]);
  });

  it("the exec tool's terminal snapshot carries no 4 MiB exit code", async () => {
    const ws = workspace("x".repeat(4 * 1024 * 1024));
    await ws.fs.mkdir("/workspace", { recursive: true });
    const out: ExecToolOutput[] = [];
    for await (const s of defineExec({ workspace: ws }).execute({ command: "true", backend: "box" } as never)) out.push(s);
    await ws.close();
    const last = out[out.length - 1] as { exitCode?: unknown; stdout?: string; stderr?: string };
    // Found: exitCode is the 4,194,304-character string; the snapshot is over 4 MiB of JSON.
    expect(last).toEqual({
      command: "true",
      cwd: null,
      backend: "box",
      exitCode: 1,
      stdout: "hi\n",
      stderr: expect.stringMatching(
        /^\[run "[0-9a-f-]{36}": the container reported exit code "x{40}"… \(a string of 4194304 characters\), not an integer 0–255; the run is reported failed with exit code 1\]\n$/,
      ),
    });
    expect(JSON.stringify(last).length).toBeLessThan(400);
  });
});
