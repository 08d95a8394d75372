/**
 * Issue 20, twenty-fifth attack run: the exec tool echoes the call's `cwd` whole in every snapshot of a run that
 * succeeds — the sibling of attack24a tools-path-echo-unbounded-past-ls-find-grep (read/write/edit/delete now cut
 * the path they echo past 4,096 characters with echoedText; exec's `cwd` is a path argument too).
 * Tried: the same path trick as attack24a — `cwd` = `/workspace` then `/\u0001/..` × 52,000 (260,010 characters,
 * under MAX_PATH_BYTES, normalising back to /workspace) — on `createAITools({ workspace }).exec` and
 * `createPiTools({ workspace }).execute({ name: "exec" })` over a WorkerJavaScriptBackend, command
 * `export default () => 42;`.
 * Held: the runtime accepts the cwd and the run completes (`exitCode: 0`, `result: 42`); a cwd the runtime refuses
 * (over MAX_PATH_BYTES) is the left-alone error-snapshot echo.
 * Found (low — the model's context pays 520 KB (AI SDK) / 1 MB (pi) for a 24-byte answer, for a path it sent; a
 * provider's request limit can then refuse the whole conversation; 3 of 3 runs): the settled snapshot's `cwd` is all
 * 260,010 characters — 520,136 bytes of JSON (AI SDK), and pi's text result (the JSON once more, escaped in
 * `content[0].text`, plus `details`) 1,092,000+ bytes. src/tools/core/exec.ts checkInput copies `fields.cwd` into
 * every snapshot as it is. docs/tools.md: "a result never carries more than 4,096 characters of the path it was
 * given" (for the file tools).
 * Suggested fix: echo `echoedText(cwd)` (src/tools/core/paging.ts) in exec's snapshots (running, settled and error),
 * as the file tools echo their path.
 * Fixed: src/tools/core/exec.ts checkInput echoes `command`, `cwd` and `backend` through echoedText (first 4,096
 * characters, then `[… N characters cut …]`) in every snapshot — running, settled and error; the run itself gets the
 * whole cwd. Now the settled snapshot is 8,338 bytes of JSON (AI SDK) and pi's result 17,583 bytes.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const CWD = "/workspace" + "/\u0001/..".repeat(52_000);
const COMMAND = "export default () => 42;";
const bytesOf = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).byteLength;

it("exec's snapshots echo a long cwd cut past 4,096 characters, as the file tools echo a path", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const exec = createAITools({ workspace: ws }).exec as unknown as { execute: (i: unknown, o: unknown) => AsyncIterable<Record<string, unknown>> };
    const values: Record<string, unknown>[] = [];
    for await (const v of exec.execute({ command: COMMAND, cwd: CWD }, { toolCallId: "c1", messages: [] })) values.push(v);
    const pi = await createPiTools({ workspace: ws }).execute({ id: "p1", name: "exec", arguments: { command: COMMAND, cwd: CWD } } as never);
    return { last: values.at(-1)!, pi };
  });
  // Held: the run completed.
  expect({ exitCode: out.last.exitCode, result: out.last.result, stderr: out.last.stderr }).toEqual({ exitCode: 0, result: 42, stderr: "" });
  // Found: cwd 260,010 characters; 520,136 bytes of JSON (AI SDK); pi's result 1,092,000+ bytes.
  expect({ cwd: out.last.cwd, aiBytes: bytesOf(out.last), piBytes: bytesOf(out.pi) }).toEqual({
    cwd: `${CWD.slice(0, 4096)}[… ${CWD.length - 4096} characters cut …]`,
    aiBytes: 8_338,
    piBytes: 17_583,
  });
}, 120_000);
