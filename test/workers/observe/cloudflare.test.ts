/**
 * `createCloudflareObserver` (spec 04 §4) in real workerd: with a recording
 * `tracing` object shaped like workerd's (`enterSpan(name, callback,
 * ...args)`, spans with `setAttribute`), a Workspace's stub calls become
 * tracing spans with their start and result attributes; falsy `tracing`
 * gives a pass-through observer; workerd's own `tracing` runs operations
 * unchanged.
 */
import * as workers from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createCloudflareObserver, type CloudflareTracing } from "../../../src/observe/cloudflare.js";
import { noopObserver } from "../../../src/index.js";
import { inObservedWorkspace, rejection } from "./helpers.js";

interface TracedSpan {
  name: string;
  attributes: Record<string, unknown>;
  ended: boolean;
}

/** Records spans as workerd's tracing would: `enterSpan` runs the callback in a new span and ends it when a returned promise settles. */
function recordingTracing() {
  const spans: TracedSpan[] = [];
  const tracing = {
    enterSpan<T, A extends unknown[]>(name: string, callback: (span: { setAttribute(k: string, v: boolean | number | string): unknown }, ...args: A) => T, ...args: A): T {
      const record: TracedSpan = { name, attributes: {}, ended: false };
      spans.push(record);
      const span = {
        setAttribute(key: string, value: boolean | number | string) {
          if (value === undefined) throw new TypeError("workerd refuses undefined attribute values");
          record.attributes[key] = value;
          return span;
        },
      };
      const result = callback(span, ...args);
      if (result instanceof Promise) {
        result.then(
          () => void (record.ended = true),
          () => void (record.ended = true),
        );
      } else record.ended = true;
      return result;
    },
  };
  return { tracing, spans };
}

describe("createCloudflareObserver", () => {
  it("turns stub calls into tracing spans: start attributes, result attributes, sanitised errors", async () => {
    const { tracing, spans } = recordingTracing();
    const observer = createCloudflareObserver({ tracing });
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      await fs.mkdir("/d", { recursive: true });
      await fs.writeFile("/d/x.txt", "x");
      expect((await fs.readdir("/d")).map((e) => e.name)).toEqual(["x.txt"]);
      const error = await rejection(fs.stat("/d/token=hunter2"));
      expect(error.code).toBe("ENOENT");
    });
    expect(spans).toEqual([
      { name: "workspace.fs.mkdir", attributes: { "workspace.fs.path": "/d", "workspace.fs.recursive": true }, ended: true },
      { name: "workspace.fs.writeFile", attributes: { "workspace.fs.path": "/d/x.txt" }, ended: true },
      { name: "workspace.fs.readdir", attributes: { "workspace.fs.path": "/d", "workspace.fs.entries": 1 }, ended: true },
      {
        name: "workspace.fs.stat",
        attributes: {
          "workspace.fs.path": "/d/token=hunter2",
          "error.name": "WorkspaceFsError",
          "error.message": "ENOENT: no such file or directory, stat: /d/token=[REDACTED]",
        },
        ended: true,
      },
    ]);
  });

  it("drops undefined attributes, calls run at once and passes its result and errors through", async () => {
    const { tracing, spans } = recordingTracing();
    const observer = createCloudflareObserver({ tracing });
    let ran = false;
    const promise = observer.span("custom.op", { "a.defined": "yes", "a.missing": undefined }, async (span) => {
      ran = true;
      span.setAttribute("r.count", 3);
      span.setAttribute("r.missing", undefined);
      return { answer: 42 };
    });
    expect(ran).toBe(true);
    expect(await promise).toEqual({ answer: 42 });
    const failure = new RangeError("nope");
    await expect(observer.span("custom.fail", {}, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(spans).toEqual([
      { name: "custom.op", attributes: { "a.defined": "yes", "r.count": 3 }, ended: true },
      { name: "custom.fail", attributes: {}, ended: true },
    ]);
  });

  it("falsy tracing: a pass-through observer that records nothing", async () => {
    for (const tracing of [undefined, null]) {
      const observer = createCloudflareObserver({ tracing });
      expect(observer).toBe(noopObserver);
      expect(await observer.span("x", { a: 1 }, async () => "through")).toBe("through");
    }
  });

  it("tracing that throws before running the operation does not fail it", async () => {
    const broken: CloudflareTracing = {
      enterSpan() {
        throw new Error("tracing is down");
      },
    };
    expect(await createCloudflareObserver({ tracing: broken }).span("x", {}, async () => "still runs")).toBe("still runs");
  });

  it("refuses options without an object or a tracing without enterSpan", () => {
    expect(() => createCloudflareObserver(null as never)).toThrow("createCloudflareObserver(options): options must be an object { tracing }, got null");
    expect(() => createCloudflareObserver({ tracing: {} as CloudflareTracing })).toThrow(
      "createCloudflareObserver({ tracing }): tracing must be Workers tracing (ctx.tracing or tracing from cloudflare:workers), with an enterSpan function",
    );
  });

  const realTracing = (workers as { tracing?: Tracing }).tracing;
  it.runIf(realTracing !== undefined)("workerd's own tracing (cloudflare:workers) runs stub calls unchanged", async () => {
    const observer = createCloudflareObserver({ tracing: realTracing });
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      await fs.writeFile("/t.txt", "traced");
      expect(await fs.readFile("/t.txt", "utf8")).toBe("traced");
      expect((await rejection(fs.stat("/nope"))).code).toBe("ENOENT");
    });
  });
});
