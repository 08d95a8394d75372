/**
 * A Durable Object agent as the docs show it (docs/runtime.md "The shell"):
 * `withWorkspace` with the JavaScript and shell backends, reached over real
 * Workers RPC through `getWorkspace(stub)`.
 */
import { DurableObject } from "cloudflare:workers";
import { withWorkspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import jq from "../../../src/shell/jq.js";

class ShellAgentBase extends DurableObject<Cloudflare.Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get loader(): WorkerLoader {
    return this.env.LOADER;
  }
}

export class ShellAgent extends withWorkspace(ShellAgentBase, (self) => ({
  storage: self.storage,
  backends: [new WorkerJavaScriptBackend({ loader: self.loader }), new WorkerShellBackend({ loader: self.loader, commands: [jq] })],
})) {}
