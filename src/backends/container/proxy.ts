/**
 * `WorkspaceProxy` (spec 02 §7.1): the entrypoint the container's
 * intercepted HTTP goes to. Under workerd it extends `WorkerEntrypoint` from
 * `"cloudflare:workers"`, loaded with a top-level dynamic `import()` (the
 * pattern of `do/rpc-target.ts`), so `ctx.exports.WorkspaceProxy` exists; on
 * Node (the root entry loads there) it extends a plain class and
 * `"cloudflare:workers"` is never requested.
 *
 * @module
 */
import { GATEWAY_TOKEN_HEADER } from "./backend.js";
import type { WorkspaceProxyProps } from "./api.js";
import { EntrypointBase } from "../../util/workers-runtime.js";

/**
 * The entrypoint the container's intercepted HTTP goes to: it forwards each
 * request to the Durable Object named by its props (`env[binding]`, `id`),
 * whose `fetch` hands it to `ContainerBackend.handleFetch`. Re-export it from
 * your Worker's main module: `export { WorkspaceProxy } from "agent-computer"`
 * (or from `"agent-computer/backends/container"`).
 */
export class WorkspaceProxy extends EntrypointBase {
  /** Forwards `request` to the Durable Object of the props (adding the gateway token when set). 500 when `env[binding]` is missing. */
  async fetch(request: Request): Promise<Response> {
    const props = (this.ctx as { props: WorkspaceProxyProps }).props;
    const namespace = (this.env as Record<string, DurableObjectNamespace | undefined>)[props.binding];
    if (!namespace) return new Response(`WorkspaceProxy: env.${props.binding} is not a Durable Object namespace binding`, { status: 500 });
    const stub = namespace.get(namespace.idFromString(props.id));
    if (props.gatewayToken === undefined) return stub.fetch(request);
    const headers = new Headers(request.headers);
    headers.set(GATEWAY_TOKEN_HEADER, props.gatewayToken);
    return stub.fetch(new Request(request, { headers }));
  }
}
