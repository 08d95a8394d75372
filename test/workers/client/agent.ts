/**
 * Durable Objects for the client tests: a Workspace owned through
 * `withWorkspace`, reached over real Workers RPC from the test worker.
 */
import { DurableObject } from "cloudflare:workers";
import { withWorkspace, type WorkspaceAttributes, type WorkspaceObserver } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

/** Spans recorded by the observer, per Durable Object instance. */
export interface RecordedSpan {
  name: string;
  attributes: Record<string, unknown>;
}

class ClientTestBase extends DurableObject<Cloudflare.Env> {
  readonly spans: RecordedSpan[] = [];
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get loader(): WorkerLoader {
    return this.env.LOADER;
  }
  get observer(): WorkspaceObserver {
    const spans = this.spans;
    return {
      span(name: string, attributes: WorkspaceAttributes, run) {
        const record: RecordedSpan = { name, attributes: { ...attributes } };
        spans.push(record);
        return run({ setAttribute: (key, value) => void (record.attributes[key] = value) });
      },
    };
  }
}

/** A Durable Object with a Workspace and no backends. */
export class ClientTestAgent extends withWorkspace(ClientTestBase, (self) => ({
  storage: self.storage,
  observer: self.observer,
  now: () => 1_700_000_000_000,
})) {
  /** Spans recorded so far (for the observer test). */
  recordedSpans(): RecordedSpan[] {
    return this.spans;
  }

  /**
   * Throws one kind of error, so error-transport.test.ts can see what Workers
   * RPC keeps of it: an Error subclass with own fields and a non-enumerable
   * record, or a TypeError.
   */
  throwForTransport(kind: "subclass" | "type"): never {
    if (kind === "type") throw new TypeError("bad option");
    throw new ProbeError();
  }
}

/** An Error subclass with an own `name`, string fields and a non-enumerable object. */
class ProbeError extends Error {
  override readonly name = "ProbeError";
  readonly code = "EPROBE";
  readonly path = "/probe";
  constructor() {
    super("EPROBE: probe failed, probe: /probe");
    Object.defineProperty(this, "record", { value: { code: "EPROBE", nested: [1, "two"] }, enumerable: false });
  }
}

/** A Durable Object with a Workspace and the worker-javascript backend. */
export class ClientExecAgent extends withWorkspace(ClientTestBase, (self) => ({
  storage: self.storage,
  now: () => 1_700_000_000_000,
  backends: [new WorkerJavaScriptBackend({ loader: self.loader })],
})) {}
