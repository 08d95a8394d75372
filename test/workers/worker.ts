import { DurableObject } from "cloudflare:workers";

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

export default {
  async fetch(): Promise<Response> {
    return new Response("agent-computer test worker");
  },
} satisfies ExportedHandler;
