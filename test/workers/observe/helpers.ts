/**
 * Shared set-up of the observability tests (spec 04 §4): a recording
 * observer — the `WorkspaceObserver` a user would write — and a fresh
 * Durable Object whose Workspace reports to it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceAttributes, type WorkspaceAttributeValue, type WorkspaceObserver, type WorkspaceOptions } from "../../../src/index.js";

/** One recorded span: its name, start attributes, then what was set while it ran, and how it ended. */
export interface RecordedSpan {
  name: string;
  attributes: Record<string, WorkspaceAttributeValue>;
  /** `"ok"`, `"error"`, or `"open"` while it runs. */
  outcome: "ok" | "error" | "open";
  /** Index of the span that was open when this one started, or -1. */
  parent: number;
}

/** An observer that records every span in `spans` (start order), nesting by what is open. */
export function recordingObserver(): { observer: WorkspaceObserver; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const open: number[] = [];
  const observer: WorkspaceObserver = {
    async span(name: string, attributes: WorkspaceAttributes, run) {
      const record: RecordedSpan = { name, attributes: {}, outcome: "open", parent: open.length > 0 ? open[open.length - 1] : -1 };
      for (const [key, value] of Object.entries(attributes)) if (value !== undefined) record.attributes[key] = value;
      const index = spans.push(record) - 1;
      open.push(index);
      try {
        const result = await run({ setAttribute: (key, value) => void (value !== undefined && (record.attributes[key] = value)) });
        record.outcome = "ok";
        return result;
      } catch (error) {
        record.outcome = "error";
        throw error;
      } finally {
        open.splice(open.lastIndexOf(index), 1);
      }
    },
  };
  return { observer, spans };
}

/** `spans` as `[name, attributes]` pairs (what most assertions compare). */
export const named = (spans: readonly RecordedSpan[]) => spans.map((s) => [s.name, s.attributes] as const);

/** Runs `fn` in a fresh Durable Object whose Workspace reports to `observer` (more options in `extra`). */
export async function inObservedWorkspace<T>(observer: WorkspaceObserver, fn: (ws: Workspace) => Promise<T>, extra: Partial<WorkspaceOptions> = {}): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({ storage: state.storage, observer, ...extra });
    try {
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}
