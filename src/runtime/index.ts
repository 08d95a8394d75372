/**
 * PLACEHOLDER — replaced by the runtime issue (#4). Until then the runtime
 * has no backends: `backends()` is `[]` and `exec` rejects.
 */
import type { Workspace } from "../workspace.js";

export interface WorkspaceBackendInfo {
  id: string;
  protocol: "command" | "module";
  callable: boolean;
  description?: string;
}

/** A backend as registered with `new Workspace({ backends })` (shape owned by the runtime issue). */
export interface WorkspaceRegisteredBackend {
  readonly id: string;
  readonly protocol?: "command" | "module";
  readonly callable?: boolean;
  readonly description?: string;
}

export class WorkspaceRuntime {
  readonly #backends: readonly WorkspaceRegisteredBackend[];
  constructor(_workspace: Workspace, backends: readonly WorkspaceRegisteredBackend[]) {
    this.#backends = backends;
  }
  backends(): WorkspaceBackendInfo[] {
    return this.#backends.map((b) => ({
      id: b.id,
      protocol: b.protocol === "module" ? "module" : "command",
      callable: b.callable === true,
      ...(b.description !== undefined ? { description: b.description } : {}),
    }));
  }
  isCallable(id: string): boolean {
    return this.#backends.some((b) => b.id === id && b.callable === true);
  }
  async exec(_source: string, _options?: unknown): Promise<never> {
    throw new Error("no execution backend configured: pass backends to new Workspace({ storage, backends })");
  }
  async close(): Promise<void> {}
}
