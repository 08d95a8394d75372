/**
 * `withWorkspace(Base, options)`: a Durable Object class that owns a
 * Workspace (spec 01 §5.1).
 *
 * @module
 */
import { provideStubFactory, Workspace, type WorkspaceOptions } from "../workspace.js";
import { WORKSPACE } from "./symbol.js";
import { createWorkspaceStub, type WorkspaceStub } from "./stub.js";

export { WORKSPACE };

// `workspace.stub()` builds its stub here: the core declares the method and
// this layer, loaded with the root entry, supplies it.
provideStubFactory(createWorkspaceStub);

/** What `withWorkspace` adds for remote callers: `__getWorkspaceStub()` over RPC. */
export interface WorkspaceStubHost {
  /** Awaits `workspace.ready()`, then resolves to a new `workspace.stub()`. */
  __getWorkspaceStub(): Promise<WorkspaceStub>;
}

/** What `withWorkspace` adds for local callers: the Workspace under a private symbol. */
export interface WorkspaceLocalHost {
  /** The Workspace, built in the constructor; non-enumerable and not reachable over RPC. */
  readonly [WORKSPACE]: Workspace;
}

/** The class `withWorkspace(Base, …)` returns. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WithWorkspaceCtor<T extends abstract new (...args: any[]) => object> = T &
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (new (...args: any[]) => InstanceType<T> & WorkspaceStubHost & WorkspaceLocalHost);

/**
 * Extends a Durable Object class (or any class) with a Workspace.
 *
 * The subclass constructor runs `super(...args)`, then `options(this)` — so
 * `ctx` and `env` are set — and builds the Workspace synchronously under a
 * private symbol (not reachable over RPC). It adds one RPC method,
 * `__getWorkspaceStub()`, which awaits `ready()` and returns a new
 * {@link WorkspaceStub}; `getWorkspace(stub)` in another Worker uses it.
 * Inside the object, `getWorkspace(this)` gives the local Workspace.
 *
 * @example
 * ```ts
 * class Base extends DurableObject<Env> {
 *   get storage() { return this.ctx.storage; } // ctx is protected; expose what options() needs
 * }
 * export class Agent extends withWorkspace(Base, (self) => ({ storage: self.storage })) {
 *   async run(prompt: string) {
 *     using workspace = await getWorkspace(this);
 *     return generateText({ model, prompt, tools: createAITools({ workspace }) });
 *   }
 * }
 * ```
 * @param Base The class to extend, usually `DurableObject<Env>` or a subclass.
 * @param options Called once per instance, after `super()`, with the instance.
 * @throws TypeError when `Base` is not a class or `options` not a function.
 * @throws whatever `new Workspace(options(this))` throws, from the constructor.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withWorkspace<T extends new (...args: any[]) => object>(
  Base: T,
  options: (self: InstanceType<T>) => WorkspaceOptions,
): WithWorkspaceCtor<T> {
  if (typeof Base !== "function") throw new TypeError("withWorkspace(Base, options): Base must be a class, e.g. DurableObject");
  if (typeof options !== "function") {
    throw new TypeError("withWorkspace(Base, options): options must be a function (self) => WorkspaceOptions, e.g. (self) => ({ storage: self.ctx.storage })");
  }
  class WithWorkspace extends Base {
    declare readonly [WORKSPACE]: Workspace;

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      // TypeScript types `this` in a class extending a generic base as the
      // class alone, not as InstanceType<T>; it is one at runtime.
      const workspace = new Workspace(options(this as InstanceType<T>));
      Object.defineProperty(this, WORKSPACE, { value: workspace, enumerable: false, writable: false, configurable: false });
    }

    async __getWorkspaceStub(): Promise<WorkspaceStub> {
      const workspace = this[WORKSPACE];
      await workspace.ready();
      return workspace.stub();
    }
  }
  Object.defineProperty(WithWorkspace, "name", { value: `WithWorkspace(${Base.name || "anonymous"})` });
  // Same limit: the class's instance type is not related to InstanceType<T>.
  return WithWorkspace as WithWorkspaceCtor<T>;
}
