/**
 * The Durable Objects of the legacy container tests (spec 02 §7.2):
 *
 * - `LegacySandbox`: the platform-scheduled container object, mixed with
 *   `withLegacyWorkspaceContainer`. workerd has no containers here, so it is
 *   pointed at the local container host (`useHost`, as
 *   `env.COMPUTER_CONTAINER_HOST` would in `wrangler dev`).
 * - `LegacyWorkspaceAgent`: the object that owns the Workspace; its `fetch`
 *   hands every request to the backend a test installs (`backend`), as the
 *   documented wiring does with `LegacyContainerBackend.handleFetch`, and
 *   records what reached it (`seen`), so a test can check the daemon's
 *   dial-back came here through `WorkspaceProxy`.
 */
import { DurableObject } from "cloudflare:workers";
import { withLegacyWorkspaceContainer } from "../../../src/backends/container-legacy/index.js";

/** The user's container class before the mixin (named: an anonymous base with protected `ctx`/`env` cannot be emitted in declarations, TS4094). */
export class LegacySandboxBase extends DurableObject<Record<string, unknown>> {}

/** The legacy container object. */
export class LegacySandbox extends withLegacyWorkspaceContainer(LegacySandboxBase) {
  /** Test hook: the local container host's URL (tests have it from `inject("containerHost")`); call before `getWorkspaceContainer()`. */
  useHost(url: string): void {
    this.env = { ...this.env, COMPUTER_CONTAINER_HOST: url };
  }
}

/** A request that reached {@link LegacyWorkspaceAgent.fetch}. */
export interface SeenRequest {
  url: string;
  upgrade: string | null;
  authorized: boolean;
  status: number;
}

/** The object that owns the Workspace. */
export class LegacyWorkspaceAgent extends DurableObject {
  /** Set by a test (inside `runInDurableObject`): where `fetch` sends requests. */
  backend: { handleFetch(request: Request): Promise<Response> } | undefined;
  /** Every request `fetch` got, with the answer's status. */
  readonly seen: SeenRequest[] = [];

  override async fetch(request: Request): Promise<Response> {
    const answer = this.backend ? await this.backend.handleFetch(request) : new Response("no backend installed", { status: 503 });
    this.seen.push({ url: request.url, upgrade: request.headers.get("Upgrade"), authorized: request.headers.has("Authorization"), status: answer.status });
    return answer;
  }
}
