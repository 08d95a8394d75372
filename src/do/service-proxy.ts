/**
 * `WorkspaceServiceProxy` (spec 01 §7, spec 02 §6): a Worker entrypoint that
 * reaches the Workspace of one Durable Object — the loopback 0.8.0's shell
 * gave its Dynamic Worker as `env.HOST`.
 *
 * This package's `WorkerShellBackend` does not need it (the host hands the
 * shell an RPC target over `workspace.fs` with each command; docs/porting.md
 * "Shell"), but a 0.8.0 Worker entry has
 * `export { WorkspaceServiceProxy } from "@cloudflare/computer"`; that line
 * keeps compiling and gives a working entrypoint: `ctx.exports.WorkspaceServiceProxy({ props })`
 * is a service binding to the Workspace of the object the props name, which
 * `getWorkspace()` accepts like the object itself.
 *
 * Under workerd it extends `WorkerEntrypoint` from `"cloudflare:workers"`,
 * loaded with a top-level dynamic `import()` (as `WorkspaceProxy` does), so
 * the root entry still loads on plain Node, where it extends a plain class.
 *
 * @module
 */
import type { WorkspaceStub } from "./stub.js";
import { EntrypointBase } from "../util/workers-runtime.js";

/**
 * Props of `ctx.exports.WorkspaceServiceProxy({ props })`: which Durable
 * Object's Workspace to reach (the `workspace` option of 0.8.0's
 * `WorkerShellBackend`: `{ binding, id, name? }`).
 */
export interface WorkspaceServiceProxyProps {
  /** Name of the Durable Object namespace binding in the Worker's `env` (e.g. `"Agent"`); its class is built with `withWorkspace`. */
  binding: string;
  /** The object's id as a string (`ctx.id.toString()`); used when present. */
  id?: string;
  /** The object's name (`idFromName`); used when `id` is absent. */
  name?: string;
}

/** The object stub the props name: what the proxy forwards to. */
interface WorkspaceObjectStub {
  __getWorkspaceStub(): Promise<WorkspaceStub>;
}

/**
 * A Worker entrypoint that forwards to the Workspace of the Durable Object
 * its props name (`env[props.binding]`, by `props.id`, else `props.name`).
 * It has one RPC method, `__getWorkspaceStub()`, and no `fetch`.
 * Re-export it from your Worker's main module (as 0.8.0 required for the
 * shell):
 *
 * @example
 * ```ts
 * // worker.ts (main module)
 * export { WorkspaceServiceProxy } from "agent-computer";
 *
 * // anywhere with ctx.exports, e.g. handing a Dynamic Worker its Workspace:
 * const host = ctx.exports.WorkspaceServiceProxy({ props: { binding: "Agent", id: ctx.id.toString() } });
 * using workspace = await getWorkspace(host);         // a remote client of that object's Workspace
 * await workspace.fs.writeFile("/workspace/a.txt", "hi");
 * ```
 */
export class WorkspaceServiceProxy extends EntrypointBase {
  /**
   * The Workspace's RPC target (a new `WorkspaceStub`): the object's own
   * `__getWorkspaceStub()`, forwarded. Makes the proxy a `getWorkspace()` source.
   * @throws Error when the props do not name a Durable Object namespace binding with an id or name.
   */
  async __getWorkspaceStub(): Promise<WorkspaceStub> {
    return this.#object().__getWorkspaceStub();
  }

  #object(): WorkspaceObjectStub {
    const props = (this.ctx as { props?: Partial<WorkspaceServiceProxyProps> } | undefined)?.props;
    const binding = props?.binding;
    if (typeof binding !== "string" || binding === "") {
      throw new Error('WorkspaceServiceProxy: props.binding must name a Durable Object namespace binding, e.g. ctx.exports.WorkspaceServiceProxy({ props: { binding: "Agent", id: ctx.id.toString() } })');
    }
    const namespace = (this.env as Record<string, unknown> | undefined)?.[binding] as DurableObjectNamespace | undefined;
    if (!namespace || typeof namespace.get !== "function" || typeof namespace.idFromString !== "function") {
      throw new Error(`WorkspaceServiceProxy: env.${binding} is not a Durable Object namespace binding of this Worker`);
    }
    let id: DurableObjectId;
    if (typeof props?.id === "string" && props.id !== "") id = namespace.idFromString(props.id);
    else if (typeof props?.name === "string" && props.name !== "") id = namespace.idFromName(props.name);
    else throw new Error("WorkspaceServiceProxy: props need the object's id (ctx.id.toString()) or name");
    return namespace.get(id) as unknown as WorkspaceObjectStub;
  }
}
