/**
 * Issue 20, seventeenth attack run: the bounded read of a refused `POST /connect` answer (attack16c's fix,
 * `answerText` in src/backends/container/connector.ts) has no deadline — an answer whose headers come but
 * whose body stalls holds the connect for ever, past `connectTimeoutMs`, and with it every command of the
 * backend (the runtime shares one pending connect per backend).
 *
 * Tried: `ContainerConnector.connect` (both container backends) with `connectTimeoutMs: 2000` over a stand-in
 * `IWorkspaceContainerAPI` whose port answers `/health` 200 and an unauthenticated `/api` 401 (as the daemon
 * must), and `POST /connect` HTTP 500 with a body stream that (a) sends nothing and never ends, (b) sends
 * "partial" and stalls, (c) sends exactly MAX_CONNECT_ANSWER_BYTES (512) and stalls — whatever listens on the
 * container's port (a command can kill the daemon and bind it) decides. (Held: the answer's headers are
 * awaited within the connect's deadline (`withTimeout`); a 16 MiB body is cut at 512 bytes; `/health` and
 * `/api` bodies are cancelled, not read.)
 *
 * Found (medium; 2 of 2 runs): `answerText` awaits `reader.read()` outside `withTimeout` — until the body
 * ends or 512 bytes came, and in (c) once more to learn whether more follows. All three connects are still
 * pending 10 s later (5× the 2 s connectTimeoutMs; for ever here). Through a Workspace the runtime keeps this
 * as the backend's pending connect (`#connecting`), so every later `exec`, `push` and `pull` of the backend
 * waits on it too; nothing but closing the Workspace ends it.
 *
 * Suggested fix: read the answer within what is left of the connect's deadline (`withTimeout(answerText(...),
 * left(), …)`, cancelling the reader when it passes) and decide "cut" from the bytes in hand — show what was
 * read and "… (answer cut: no more within the connect's deadline)".
 * Fixed: container/connector.ts `answerText` reads the refused answer's body until the connect's deadline at the latest
 * (each read raced against it, the reader cancelled unawaited): a body stalling there shows what came, then "… (answer
 * cut: no more within the connect's deadline)"; the connect fails `ContainerTransportError` stage `connect` at
 * connectTimeoutMs. (Also: the connect's ignore check calls `info` bounded by REMOTE_SYNC_CALL_TIMEOUT_MS.)
 */
import { describe, expect, it } from "vitest";
import { ContainerConnector, ContainerTransportError, containerSettings } from "../../../src/backends/container/connector.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

/** A container API whose `POST /connect` answers `answer()`. */
function apiAnswering(answer: () => Response) {
  return {
    start: async () => ({ runtimeId: "r", clientSecret: "s", outcome: "launched" as const }),
    restart: async () => ({ runtimeId: "r", clientSecret: "s", outcome: "launched" as const }),
    setInactivityTimeout: async () => {},
    status: async () => ({ running: true }),
    exitInfo: async () => undefined,
    interceptOutboundHttp: async () => {},
    interceptAllOutboundHttp: async () => {},
    fetchPort: async (_port: number, request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/health") return new Response("ok");
      if (path === "/api") return new Response("unauthorized", { status: 401 });
      return answer();
    },
  };
}

/** A body that sends `first` (when not empty) and then neither sends nor ends. */
const stalled = (first: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      if (first !== "") controller.enqueue(new TextEncoder().encode(first));
    },
  });

describe("attack17c: a refused /connect answer whose body stalls", () => {
  it("the connect fails at its deadline (connectTimeoutMs) with the stage named", { timeout: 40_000 }, async () => {
    const outcomes: string[] = [];
    for (const first of ["", "partial", "x".repeat(512)]) {
      const connector = new ContainerConnector(
        containerSettings({ workspace: { binding: "Agent", id: "x" }, connectTimeoutMs: 2000 } as never, "ContainerBackend", { ignore: true }),
      );
      const settled = connector.connect(() => apiAnswering(() => new Response(stalled(first), { status: 500 })) as never).then(
        () => "connected",
        (e: unknown) => (e instanceof ContainerTransportError ? `failed at ${e.stage}` : `failed ${String(e)}`),
      );
      // Found: "pending" in all three cases (for ever).
      outcomes.push(await within(settled, 6_000, "pending"));
    }
    expect(outcomes).toEqual(["failed at connect", "failed at connect", "failed at connect"]);
  });
});
