/**
 * A Durable Object agent with git (docs/git.md): `withWorkspace` with
 * `git: createGitClient()`, a default identity, the shell backend and the
 * JavaScript backend importing `ws:git` (network allowed). Reached over real
 * Workers RPC through `getWorkspace(stub)`.
 */
import { DurableObject } from "cloudflare:workers";
import { withWorkspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";

class GitAgentBase extends DurableObject<Cloudflare.Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get loader(): WorkerLoader {
    return this.env.LOADER;
  }
}

export class GitAgent extends withWorkspace(GitAgentBase, (self) => ({
  storage: self.storage,
  git: createGitClient(),
  defaultGitIdentity: { name: "Agent", email: "agent@example.com" },
  backends: [
    new WorkerShellBackend({ loader: self.loader }),
    new WorkerJavaScriptBackend({ loader: self.loader, modules: { "ws:git": createGitModule({ allowNetwork: true }) } }),
  ],
})) {}
