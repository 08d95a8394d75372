/**
 * The `mounts` option of a Workspace (spec 01 §6.1): roots checked (absolute,
 * canonical, not nested in one another), factories run, and each value
 * checked to be a mount — all at construction.
 *
 * @module
 */
import { within } from "../fs/mount-guard.js";
import { isCanonicalPath } from "../fs/path.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { SQLiteWorkspaceProvider } from "../fs/provider.js";
import type { Mount, MountFactory } from "./types.js";

/**
 * The configured mounts, root → mount, in the order given (factories called
 * once, with `{ sessionId, root, vfs: workspace.provider() }`). `undefined` configures none.
 *
 * @throws TypeError when `mounts` is not an object, or a value is not a mount
 *   (`strategy: "eager"` and `materialize`, a `mode` of `"read-only"` /
 *   `"read-write"`, a non-empty `kind`); Error for a root that is not absolute,
 *   ends in `/` or is not canonical, for a root inside another root, and
 *   when a factory throws (the original kept as `cause`). Messages start
 *   `Workspace mounts: `.
 */
export function configuredMounts(
  mounts: Record<string, Mount | MountFactory> | undefined,
  context: { fs: WorkspaceFilesystem; provider: () => SQLiteWorkspaceProvider; sessionId: string },
): Map<string, Mount> {
  const registry = new Map<string, Mount>();
  if (mounts === undefined) return registry;
  if (mounts === null || typeof mounts !== "object" || Array.isArray(mounts)) {
    throw new TypeError("Workspace mounts must be an object of root path → R2Bucket(…) / WorkerBundle(…) / mount factory");
  }
  const roots = Object.keys(mounts);
  for (const root of roots) checkRoot(root);
  for (const a of roots) {
    for (const b of roots) {
      if (a !== b && within(b, a)) throw new Error(`Workspace mounts: ${b} lies inside mount ${a}; mount roots must not nest`);
    }
  }
  for (const root of roots) {
    const value = mounts[root];
    let mount: unknown = value;
    if (typeof value === "function") {
      try {
        mount = value({ sessionId: context.sessionId, root, vfs: context.provider() });
      } catch (error) {
        throw new Error(`Workspace mounts: the factory for ${root} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    checkMount(root, mount);
    registry.set(root, mount);
  }
  return registry;
}

function checkRoot(root: string): void {
  if (!root.startsWith("/")) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must be an absolute path`);
  if (root !== "/" && root.endsWith("/")) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must not end with "/"`);
  if (!isCanonicalPath(root)) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must be canonical (no empty, "." or ".." segments)`);
}

function checkMount(root: string, mount: unknown): asserts mount is Mount {
  const m = mount as Partial<Mount> | null;
  if (!m || typeof m !== "object" || m.strategy !== "eager" || typeof m.materialize !== "function") {
    throw new TypeError(`Workspace mounts: ${root} must be a mount (R2Bucket(…), WorkerBundle(…) or { strategy: "eager", materialize }) or a factory returning one`);
  }
  if (m.mode !== "read-only" && m.mode !== "read-write") throw new TypeError(`Workspace mounts: ${root} has mode ${JSON.stringify(m.mode)}; use "read-only" or "read-write"`);
  if (typeof m.kind !== "string" || m.kind === "") throw new TypeError(`Workspace mounts: ${root} needs a kind string`);
}
