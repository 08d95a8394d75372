/**
 * Node tests only: the `cloudflare:workers` names the Workers-only entry
 * points import at load time (`./backends/container`'s `WorkspaceProxy`
 * extends `WorkerEntrypoint`), so the typings test can load every built
 * entry on Node and list its exports. Nothing here runs a Worker.
 */
export class WorkerEntrypoint<Env = unknown, Props = unknown> {
  protected ctx: { props: Props };
  protected env: Env;
  constructor(ctx: { props: Props }, env: Env) {
    this.ctx = ctx;
    this.env = env;
  }
}
export class DurableObject<Env = unknown> {
  protected ctx: unknown;
  protected env: Env;
  constructor(ctx: unknown, env: Env) {
    this.ctx = ctx;
    this.env = env;
  }
}
