/**
 * Issue 18 regressions (observability): credentials in URLs and `Authorization:` headers are
 * redacted from span error messages; the ready-made observers never let their tracer fail an
 * operation (even when it throws after calling back); `new Workspace` refuses an observer without
 * `span`. The tracers here are minimal stand-ins: OpenTelemetry and Workers tracing have no local
 * recorder on Node.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type WorkspaceObserver } from "../../src/index.js";
import { createCloudflareObserver } from "../../src/observe/cloudflare.js";
import { createOpenTelemetryObserver } from "../../src/observe/opentelemetry.js";
import { sanitizeErrorMessage, withSpan } from "../../src/observer.js";

describe("sanitizeErrorMessage: credentials", () => {
  it.each([
    ["push to https://x:art_v2_x_0123456789abcdef@artifacts.example/git/ns/r.git failed", "push to https://x:[REDACTED]@artifacts.example/git/ns/r.git failed"],
    ["clone https://ghp_abc123@github.com/o/r.git", "clone https://[REDACTED]@github.com/o/r.git"],
    ["HTTP://User:p@ss@Host:8080/x?y", "HTTP://User:[REDACTED]@Host:8080/x?y"],
    ["ssh://git@host/x", "ssh://[REDACTED]@host/x"],
    ["stat: /https:/x:tok1@artifacts.example/r.git", "stat: /https:/x:[REDACTED]@artifacts.example/r.git"],
    ["no credentials: https://example.com/a@b and git@github.com:o/r.git", "no credentials: https://example.com/a@b and git@github.com:o/r.git"],
    ["GET /x\nAuthorization: Basic dXNlcjpodW50ZXIy\nHost: h", "GET /x Authorization: Basic [REDACTED] Host: h"],
    ["proxy-authorization: digest username=a", "proxy-authorization: digest [REDACTED]"],
    ["Authorization: Token abc rejected", "Authorization: Token [REDACTED] rejected"],
    ["Authorization: sk-live-1 rejected", "Authorization: [REDACTED] rejected"],
    ["Authorization failed for user bob", "Authorization failed for user bob"],
    ["GET /v1?token=abc&page=2 failed\nAuthorization: Bearer eyJ0", "GET /v1?token=[REDACTED]&page=2 failed Authorization: Bearer [REDACTED]"],
    // The pair rule keeps a known scheme as the header rule does (issue 20, run 34, fixer SR); was "authorization=[REDACTED] [REDACTED] x".
    ["authorization=Bearer s4 x", "authorization=Bearer [REDACTED] x"],
    // Issue 20, run 31 (run 30's left-alone list): cookie headers and credential names the list lacked.
    ["GET /x\nCookie: session=abc123; csrftoken=def456\nHost: h", "GET /x Cookie: [REDACTED] Host: h"],
    ["HTTP/1.1 200\r\nset-cookie: sid=s3cr3t; Path=/; HttpOnly\r\n", "HTTP/1.1 200  set-cookie: [REDACTED]  "],
    ["env: AWS_ACCESS_KEY_ID=AKIAX AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG x", "env: AWS_ACCESS_KEY_ID=AKIAX AWS_SECRET_ACCESS_KEY=[REDACTED] x"],
    ["private_key=-----BEGIN db_passwd=hunter2 GOOGLE_CREDENTIALS={x}", "private_key=[REDACTED] db_passwd=[REDACTED] GOOGLE_CREDENTIALS=[REDACTED]"],
    ["no cookie here: cookies are nice", "no cookie here: cookies are nice"],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeErrorMessage(input)).toBe(expected);
  });

  it("pathological inputs are bounded: the result is at most 512 characters", () => {
    for (const input of ["a.".repeat(40_000), "x://".repeat(20_000), "Authorization: ".repeat(5_000), `https://u:${"s".repeat(100_000)}@h`]) {
      const out = sanitizeErrorMessage(input);
      expect(out.length).toBeLessThanOrEqual(512);
      expect(out).not.toMatch(/s{600}/);
    }
  });

  it("a stub error naming a credentialed URL reaches the span redacted, the caller unchanged", async () => {
    const recorded: Record<string, unknown>[] = [];
    const observer: WorkspaceObserver = {
      async span(_name, attributes, run) {
        const fields: Record<string, unknown> = { ...attributes };
        try {
          return await run({ setAttribute: (k, v) => void (fields[k] = v) });
        } finally {
          recorded.push(fields);
        }
      },
    };
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), observer });
    const thrown = await ws.stub().fs.stat("/x https://x:SECRET9@h/r.git Authorization: Basic SECRET8").then(
      () => "",
      (e: Error) => e.message,
    );
    await ws.close();
    // the path is normalised (`//` → `/`), so the URL reads `https:/…`: still redacted
    expect(thrown).toBe("ENOENT: no such file or directory, stat: /x https:/x:SECRET9@h/r.git Authorization: Basic SECRET8");
    expect(recorded.at(-1)?.["error.message"]).toBe("ENOENT: no such file or directory, stat: /x https:/x:[REDACTED]@h/r.git Authorization: Basic [REDACTED]");
  });

  it("an error's name is sanitised and cut like a message (512 characters) on the span and in OpenTelemetry's recordException", async () => {
    const name = `Bad\nName Authorization: Bearer SECRET7 ${"n".repeat(1_000_000)}`;
    const error = Object.assign(new Error("boom"), { name });
    const expected = `Bad Name Authorization: Bearer [REDACTED] ${"n".repeat(512 - 42)}`;
    const fields: Record<string, unknown> = {};
    const recorder: WorkspaceObserver = { span: (_n, _a, run) => run({ setAttribute: (k, v) => void (fields[k] = v) }) };
    await expect(withSpan(recorder, "workspace.test", {}, async () => Promise.reject(error))).rejects.toBe(error);
    expect(fields["error.name"]).toBe(expected);
    expect(fields["error.message"]).toBe("boom");
    const exceptions: unknown[] = [];
    const span = { ...otelSpan({ n: 0 }), recordException: (e: unknown) => void exceptions.push(e) };
    const o = createOpenTelemetryObserver({ tracer: { startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) => fn(span) } as never });
    await expect(o.span("n", {}, async () => Promise.reject(error))).rejects.toBe(error);
    expect(exceptions).toEqual([{ name: expected, message: "boom" }]);
    // A name getter that throws: no error.name, the message still recorded.
    const odd = new Error("odd");
    Object.defineProperty(odd, "name", { get: () => { throw new Error("no name"); } });
    const oddFields: Record<string, unknown> = {};
    await expect(withSpan({ span: (_n, _a, run) => run({ setAttribute: (k, v) => void (oddFields[k] = v) }) }, "workspace.test", {}, async () => Promise.reject(odd))).rejects.toBe(odd);
    expect(oddFields).toEqual({ "error.message": "odd" });
  });
});

/** An OpenTelemetry span stand-in recording `end()` calls. */
function otelSpan(ended: { n: number }) {
  const s: Record<string, unknown> = {};
  for (const k of ["setAttribute", "setAttributes", "setStatus", "recordException", "addEvent", "updateName", "addLink", "addLinks"]) s[k] = () => s;
  s.end = () => void ended.n++;
  s.isRecording = () => true;
  return s;
}

describe("ready-made observers: the operation's outcome wins over the tracer's", () => {
  it("OpenTelemetry: startActiveSpan throwing after calling back → the result, the operation ran once, the span ended", async () => {
    const ended = { n: 0 };
    let runs = 0;
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) => {
          void fn(otelSpan(ended));
          throw new Error("context manager broke");
        },
      } as never,
    });
    expect(await o.span("n", {}, async () => (runs++, "done"))).toBe("done");
    expect(runs).toBe(1);
    expect(ended.n).toBe(1);
  });

  it("OpenTelemetry: the operation's own error passes through when the tracer also throws after calling back", async () => {
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) => {
          void fn(otelSpan({ n: 0 }));
          throw new Error("tracer");
        },
      } as never,
    });
    const boom = new Error("op failed");
    await expect(o.span("n", {}, async () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it("OpenTelemetry: a tracer returning its own rejecting promise after calling back → the result", async () => {
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => Promise<unknown>) => fn(otelSpan({ n: 0 })).then(() => Promise.reject(new Error("exporter"))),
      } as never,
    });
    expect(await o.span("n", {}, async () => 42)).toBe(42);
  });

  it("OpenTelemetry: a tracer calling back twice runs the operation once", async () => {
    let runs = 0;
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) => (fn(otelSpan({ n: 0 })), fn(otelSpan({ n: 0 }))),
      } as never,
    });
    expect(await o.span("n", {}, async () => (runs++, "r"))).toBe("r");
    expect(runs).toBe(1);
  });

  it("OpenTelemetry and Workers tracing: a tracer that never calls back → the operation runs once, untraced", async () => {
    let runs = 0;
    const otel = createOpenTelemetryObserver({ tracer: { startActiveSpan: () => undefined } as never });
    const cf = createCloudflareObserver({ tracing: { enterSpan: () => undefined } as never });
    expect(await otel.span("n", {}, async () => (runs++, "a"))).toBe("a");
    expect(await cf.span("n", {}, async () => (runs++, "b"))).toBe("b");
    expect(runs).toBe(2);
  });

  it("Workers tracing: enterSpan throwing after calling back → the result; start attributes still set", async () => {
    const attrs: Record<string, unknown> = {};
    let runs = 0;
    const o = createCloudflareObserver({
      tracing: {
        enterSpan: (_n: string, fn: (s: unknown) => unknown) => {
          void fn({ setAttribute: (k: string, v: unknown) => void (attrs[k] = v) });
          throw new Error("tracing broke");
        },
      } as never,
    });
    expect(await o.span("n", { a: 1, b: undefined }, async (s) => (runs++, s.setAttribute("c", "x"), "done"))).toBe("done");
    expect(runs).toBe(1);
    expect(attrs).toEqual({ a: 1, c: "x" });
  });

  it("Workers tracing: a run that throws synchronously is reported as a rejection, and not run again", async () => {
    let runs = 0;
    const o = createCloudflareObserver({ tracing: { enterSpan: (_n: string, fn: (s: unknown) => unknown) => fn({ setAttribute() {} }) } as never });
    const boom = new Error("sync");
    await expect(
      o.span("n", {}, () => {
        runs++;
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(runs).toBe(1);
  });
});

describe("new Workspace({ observer })", () => {
  it.each([
    [42, "got number"],
    [null, "got null"],
    ["x", "got string"],
    [{}, "got an object without a span function"],
    [{ span: "x" }, "got an object without a span function"],
  ])("refuses %j with a TypeError naming observer", (observer, got) => {
    expect(() => new Workspace({ storage: nodeSqliteStorage(":memory:"), observer: observer as never })).toThrow(TypeError);
    expect(() => new Workspace({ storage: nodeSqliteStorage(":memory:"), observer: observer as never })).toThrow(
      `Workspace observer must be a WorkspaceObserver with a span(name, attributes, run) function (e.g. createOpenTelemetryObserver from agent-computer/observe/opentelemetry), or left out; ${got}`,
    );
  });

  it("accepts undefined (the no-op observer) and an object with span", async () => {
    const names: string[] = [];
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), observer: { span: (name, _a, run) => (names.push(name), run({ setAttribute() {} })) } });
    await ws.stub().fs.writeFile("/a", "x");
    await ws.close();
    expect(names).toEqual(["workspace.fs.writeFile"]);
    const plain = new Workspace({ storage: nodeSqliteStorage(":memory:"), observer: undefined });
    expect(typeof plain.observer.span).toBe("function");
    await plain.close();
  });
});
