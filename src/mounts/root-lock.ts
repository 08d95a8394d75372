/**
 * The cross-Workspace root lock of mounts (spec 01 §6.2): Workspaces on one
 * storage object share their mount records, so mount runs, unmounts and
 * supersessions touching one subtree run one at a time per storage object,
 * whichever Workspace starts them.
 *
 * @module
 */
import { overlaps } from "../fs/mount-guard.js";
import { mountCallbackContext } from "./reentry.js";

/** Runs in progress per storage object: root → settled-never-rejects promise. */
const activeRuns = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `task` once no task for an overlapping root (the same root, an
 * ancestor or a descendant) is running on the same storage object, so mount
 * runs, unmounts and supersessions touching one subtree never interleave.
 *
 * @throws Error `mount <root>: its version() or materialize() got ready, unmounted or mounted <root> on the same storage, which would wait for itself`
 *   when called from a mount callback for an overlapping root on `storage`; else what `task` rejects with.
 */
export async function withRootLock(storage: object, root: string, task: () => Promise<void>): Promise<void> {
  const context = mountCallbackContext();
  if (context && context.storage === storage && overlaps(context.root, root)) {
    throw new Error(`mount ${context.root}: its version() or materialize() got ready, unmounted or mounted ${root} on the same storage, which would wait for itself`);
  }
  let runs = activeRuns.get(storage);
  if (!runs) activeRuns.set(storage, (runs = new Map()));
  for (;;) {
    const blocking = [...runs].filter(([other]) => overlaps(other, root)).map(([, done]) => done);
    if (blocking.length === 0) break;
    await Promise.all(blocking);
  }
  const current = task();
  const done = current.then(
    () => {},
    () => {},
  );
  runs.set(root, done);
  try {
    await current;
  } finally {
    if (runs.get(root) === done) runs.delete(root);
  }
}
