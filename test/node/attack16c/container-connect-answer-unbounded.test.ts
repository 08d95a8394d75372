/**
 * Issue 20, sixteenth attack run: a connect reads the container's answer to `POST /connect` whole and puts
 * all of it in its error — whatever listens on the container's port (a command can kill the daemon and
 * bind it) decides how much the Durable Object holds.
 *
 * Tried: `ContainerConnector.connect` (src/backends/container/connector.ts, both container backends) over
 * a stand-in `IWorkspaceContainerAPI` whose port answers `/health` 200, an unauthenticated `/api` 401 (as
 * the daemon must), and `POST /connect` with HTTP 500 and a 16 MiB body (64 MiB tried too). (Held: the
 * `/health` and `/api` probes cancel their bodies; a non-401 `/api` fails the connect at `auth`.)
 *
 * Found (medium-low; 2 of 2 runs): `await response.text()` reads the body whole, then the error is
 * `Container connect failed at connect: POST /connect answered HTTP 500: <the whole body>` — 16,777,286
 * characters here; with 64 MiB, 67,108,934 characters and the Node heap up 203 MB, past a 128 MB object.
 * A 200 answer is read whole too (its text unused). The error is what `exec` and the tools report.
 *
 * Suggested fix: read at most a few KiB of the `/connect` answer (cancel the rest) and show at most ~200
 * characters of it in the error, as `describe()` in daemon/handle.ts does for daemon values.
 *
 * Fixed: a refused `/connect` answer is read up to MAX_CONNECT_ANSWER_BYTES (512, connector.ts) and the
 * rest cancelled unread; the error shows those bytes and `… (answer cut at 512 bytes)`; a 200 answer's body
 * is cancelled, not read.
 */
import { describe, expect, it } from "vitest";
import { ContainerConnector, ContainerTransportError, containerSettings, MAX_CONNECT_ANSWER_BYTES } from "../../../src/backends/container/connector.js";

/** A container API whose `POST /connect` answers `answer`. */
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

describe("attack16c: the container's /connect answer is read whole", () => {
  it("a short refusal is shown whole; a multi-byte character cut at the bound is dropped", async () => {
    const messages: string[] = [];
    for (const body of ["no such relay", `${"x".repeat(511)}€€`]) {
      const connector = new ContainerConnector(containerSettings({ workspace: { binding: "Agent", id: "x" } }, "ContainerBackend", { ignore: true }));
      messages.push(await connector.connect(() => apiAnswering(() => new Response(body, { status: 502 })) as never).then(() => "connected", (e: Error) => e.message));
    }
    expect(messages).toEqual([
      "Container connect failed at connect: POST /connect answered HTTP 502: no such relay",
      `Container connect failed at connect: POST /connect answered HTTP 502: ${"x".repeat(511)}… (answer cut at 512 bytes)`,
    ]);
  });

  it("a 16 MiB HTTP 500 answer to POST /connect fails the connect with a short error", { timeout: 60_000 }, async () => {
    const body = "z".repeat(16 * 1024 * 1024);
    const api = {
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
        return new Response(body, { status: 500 });
      },
    };
    const connector = new ContainerConnector(containerSettings({ workspace: { binding: "Agent", id: "x" } }, "ContainerBackend", { ignore: true }));
    const error = await connector.connect(() => api as never).then(
      () => undefined,
      (e: unknown) => e as ContainerTransportError,
    );
    expect(error).toBeInstanceOf(ContainerTransportError);
    expect(error!.stage).toBe("connect");
    expect(error!.message.startsWith("Container connect failed at connect: POST /connect answered HTTP 500: zzz")).toBe(true);
    // Found: 16,777,286 characters (the whole body).
    expect(error!.message.length).toBeLessThan(1_000);
    expect(MAX_CONNECT_ANSWER_BYTES).toBe(512);
    expect(error!.message).toBe(`Container connect failed at connect: POST /connect answered HTTP 500: ${"z".repeat(512)}… (answer cut at 512 bytes)`);
  });
});
