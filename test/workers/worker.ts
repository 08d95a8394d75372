import { DurableObject, WorkerEntrypoint } from "cloudflare:workers";

/** A bare Durable Object whose SQLite storage the tests build Workspaces on. */
export class TestDurableObject extends DurableObject {
  ping(): string {
    return "pong";
  }
}

export { ClientTestAgent, ClientExecAgent } from "./client/agent.js";
export { ClientAssetsAgent } from "./tools-publish/agent.js";
export { MountAgent } from "./mounts/agent.js";
export { ShellAgent } from "./shell/agent.js";
export { GitAgent } from "./git/agent.js";
export { DurableAgent } from "./durable/agent.js";
// 0.8.0 Worker entries re-export it; ctx.exports.WorkspaceServiceProxy reaches a Workspace (service-proxy tests).
export { WorkspaceServiceProxy } from "../../src/index.js";
export { LegacySandbox, LegacyWorkspaceAgent } from "./container-legacy/agent.js";
// The entrypoint container HTTP is routed through (ctx.exports.WorkspaceProxy; container-legacy tests).
export { WorkspaceProxy } from "../../src/backends/container/index.js";

/** An egress gateway for Dynamic Workers (`egress: { mode: "http-gateway" }` tests): answers every request itself. */
export class EgressGateway extends WorkerEntrypoint {
  override async fetch(request: Request): Promise<Response> {
    return new Response(`gateway saw ${request.method} ${request.url}`);
  }
}

export default {
  async fetch(): Promise<Response> {
    return new Response("agent-computer test worker");
  },
} satisfies ExportedHandler;
