import { tracing } from "cloudflare:workers";
import { trace } from "@opentelemetry/api";
import { Workspace, type WorkspaceObserver } from "../../../src/index.js";
import { createCloudflareObserver } from "../../../src/observe/cloudflare.js";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";

/** An observer that keeps one line per span: its name, attributes (results included) and outcome. */
export function lineObserver(lines: string[]): WorkspaceObserver {
  return {
    async span(name, attributes, run) {
      const fields: Record<string, unknown> = { ...attributes };
      let outcome = "error";
      try {
        const result = await run({ setAttribute: (key, value) => void (value !== undefined && (fields[key] = value)) });
        outcome = "ok";
        return result;
      } finally {
        lines.push(`${name} ${outcome} ${JSON.stringify(fields)}`);
      }
    },
  };
}

/** Calls through the stub are spans; direct `workspace.fs` calls are not. */
export async function demo(storage: DurableObjectStorage): Promise<string[]> {
  const lines: string[] = [];
  const workspace = new Workspace({ storage, observer: lineObserver(lines) });
  await workspace.fs.writeFile("/notes.txt", "hello\n"); // direct: no span
  const stub = workspace.stub(); // what other Workers reach over RPC
  await stub.fs.readdir("/");
  await stub.fs.exists("/notes.txt");
  await stub.fs.stat("/missing").catch(() => {});
  await workspace.close();
  return lines;
}

/** The two ready-made observers: Workers tracing, and any OpenTelemetry tracer. */
export function tracedWorkspaces(storage: DurableObjectStorage): Workspace[] {
  return [
    new Workspace({ storage, observer: createCloudflareObserver({ tracing }) }),
    new Workspace({ storage, observer: createOpenTelemetryObserver({ tracer: trace.getTracer("my-agent") }) }),
  ];
}
