/**
 * Issue 20, twenty-second attack run: the runtime's refusals quote a caller's execution id, call id, backend id,
 * `cwd` and env name whole, however long.
 * Tried: a Workspace in a Durable Object with a WorkerJavaScriptBackend; one 1,000,000-character string passed as
 * what each entry point names in its error: getExec / killExec / disposeExec (id), respond (id and callId — an
 * approval UI's endpoint takes both from its request), exec's `backend`, `cwd` (also the exec tool's `cwd`,
 * model-written) and an env name. Runs 20–21 bounded the same echo elsewhere: artifacts (1ed92fa, ac4050f: "64
 * characters + its length"), grep's regex errors (2b936ce: 200 characters), pi/ws:tools argument errors (4,096).
 * Held: exec's own `id` option is refused in 34 characters ("exec: id must be at most 256 bytes"); an import of a
 * 1 MB module name is ENAMETOOLONG in 169 characters; `pending()` answers; spans cut error.message to 512.
 * Found (low — every such call returns or throws ~1–2 MB of text, e.g. into an HTTP response or a log line, and an
 * id longer than 256 bytes can never name an execution; 3 of 3 runs): message lengths getExec/killExec/disposeExec
 * 1,000,046 (`no execution "xxx…" on backend …`, src/backends/worker-javascript/connection.ts), respond 2,000,082
 * (`execution "…" has no call "…" waiting …`), respond with a short id 1,000,081, exec backend 1,000,061
 * (`no backend with id "…"`, src/runtime/index.ts), cwd 1,000,031 / 1,000,039 (`cwd does not exist: …`,
 * `paths must stay under /workspace: cwd …`, request.ts), env 1,000,033 (`env.<name> must be a string`).
 * Suggested fix: quote ids, names and paths in these messages through one helper that keeps the first 64 characters
 * and the length (as the artifacts errors do) — or refuse an id/callId over 256 bytes before the lookup with a
 * fixed message; MAX_PATH_BYTES bounds a real cwd, so a longer one can be refused as ENAMETOOLONG like an import.
 *
 * Fixed (fix22 FCH): src/runtime/index.ts quotes through one helper, `quoteCut` (src/util/cut.ts: JSON-quoted, the
 * first 64 characters then `…" (<n> characters)`, as the artifacts errors quote a name), and refuses before any
 * backend is asked what can name nothing: getExec/killExec/disposeExec of an id over 256 bytes (what `exec` accepts)
 * → `ENOENT no execution "…" (<n> characters) on backend "<id>" (an execution id is at most 256 bytes)`; respond with
 * an id over 256 bytes or a callId over 293 (an id, `:`, a sequence number or UUID) → `ENOTWAITING`; an unknown
 * backend id is quoted cut; a cwd over MAX_PATH_BYTES → `ENAMETOOLONG`; an env entry whose name is over 64
 * characters and whose value is not a string → TypeError `exec: env["…" (<n> characters)] must be a string`. Left to
 * the backends (not the runtime's files): a cwd under MAX_PATH_BYTES (up to 256 KiB) is still quoted whole in their
 * `cwd does not exist: …`, and a short env name's message is theirs. The messages below are exact (each `x` × 64
 * shown as <64x>).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("runtime refusals quote a 1 MB id, callId, backend, cwd or env name cut to 64 characters and its length", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const big = "x".repeat(1_000_000);
    const length = (p: Promise<unknown>) => p.then(() => "resolved", (e: Error & { code?: string }) => `${e.code ?? e.name} ${e.message.replaceAll("x".repeat(64), "<64x>")}`);
    return {
      getExec: await length(ws.runtime.getExec(big) as Promise<unknown>),
      killExec: await length(ws.runtime.killExec(big)),
      disposeExec: await length(ws.runtime.disposeExec(big)),
      respond: await length(ws.runtime.respond(big, `${big}:1`, true)),
      respondCallId: await length(ws.runtime.respond("run-1", big, true)),
      backend: await length(ws.runtime.exec("export default 1", { backend: big })),
      cwdMissing: await length(ws.runtime.exec("export default 1", { cwd: `/workspace/${big}` })),
      cwdOutside: await length(ws.runtime.exec("export default 1", { cwd: `/${big}` })),
      envName: await length(ws.runtime.exec("export default 1", { env: { [big]: 1 as unknown as string } })),
    };
  });
  // Found: getExec/killExec/disposeExec 1000046, respond 2000082, respondCallId 1000081, backend 1000061,
  // cwdMissing 1000031, cwdOutside 1000039, envName 1000033.
  const q = (n: number) => `"<64x>…" (${n} characters)`;
  const gone = `ENOENT no execution ${q(1_000_000)} on backend "worker-javascript" (an execution id is at most 256 bytes)`;
  expect(out).toEqual({
    getExec: gone,
    killExec: gone,
    disposeExec: gone,
    respond: `ENOTWAITING execution ${q(1_000_000)} has no call ${q(1_000_002)} waiting for an answer on backend "worker-javascript"`,
    respondCallId: `ENOTWAITING execution "run-1" has no call ${q(1_000_000)} waiting for an answer on backend "worker-javascript"`,
    backend: `Error no backend with id ${q(1_000_000)}; this Workspace has "worker-javascript"`,
    cwdMissing: `ENAMETOOLONG ENAMETOOLONG: exec: cwd is over 262144 bytes (MAX_PATH_BYTES): "/workspace/${"x".repeat(53)}…" (1000011 characters)`,
    cwdOutside: `ENAMETOOLONG ENAMETOOLONG: exec: cwd is over 262144 bytes (MAX_PATH_BYTES): "/${"x".repeat(63)}…" (1000001 characters)`,
    envName: `TypeError exec: env[${q(1_000_000)}] must be a string, got number`,
  });
}, 120_000);
