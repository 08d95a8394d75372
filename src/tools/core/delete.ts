/**
 * The `delete` tool (spec 03 §4.7): forced removal under a path lock (a
 * subtree lock when recursive). A missing path succeeds — unless a sibling
 * with the same name in another Unicode normalisation exists: then nothing
 * is removed and the error names that sibling (issue 12 §6).
 *
 * @module
 */
import { z } from "zod";
import { lastSegment, normalizePath } from "../../util/path.js";
import { headCut } from "../../util/cut.js";
import { withPathLock } from "./locks.js";
import type { MutableFileStore } from "./store.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";
import { siblingHint, storeSibling } from "./unicode-names.js";
import { echoedText } from "./paging.js";

/** delete changes the Workspace. */
export const DELETE_FACTS: ToolFacts = { name: "delete", mutating: true };

/** Options of the delete tool. */
export interface DeleteToolOptions {
  /** Store the tool removes from. */
  store: MutableFileStore;
}

/** Input of the delete tool. */
export interface DeleteInput {
  path: string;
  recursive?: boolean;
}

/** A successful delete (also for a path that did not exist). */
export interface DeleteResult {
  /** The path as given, cut past 4,096 characters as the tools echo one (`echoedText`). */
  deleted: string;
}

/** delete's input schema. */
export const deleteInputSchema = z.object({
  path: z.string().describe("Absolute path of the file or directory to delete."),
  recursive: z.boolean().optional().describe("Remove a non-empty directory with everything in it (default false)."),
});

/** delete's output schema: success or `{ error }`. */
export const deleteOutputSchema = z.union([z.object({ deleted: z.string() }), z.object({ error: z.string() })]);

/** Builds the delete tool. */
export function deleteDefinition(options: DeleteToolOptions): SettledTool<DeleteInput, DeleteResult | ToolError> {
  const store = options.store;
  return {
    ...DELETE_FACTS,
    description:
      "Delete a file or directory in the workspace. Deleting a path that does not exist succeeds. A non-empty directory is removed only with recursive: true. Name the file or directory itself: a path ending in . or .. is refused, and so is the tool set's root. Paths are absolute.",
    inputSchema: deleteInputSchema,
    outputSchema: deleteOutputSchema,
    limits: {},
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { error: aborted };
      const recursive = input.recursive === true;
      const refused = refusal(input.path, store);
      if (refused !== undefined) return { error: refused };
      try {
        return await withPathLock(store, input.path, recursive, async (): Promise<DeleteResult | ToolError> => {
          // A missing name whose Unicode-equivalent twin exists is refused, naming the twin (issue 12 §6).
          if (store.readdir && !(await store.stat(input.path).catch(() => null))) {
            const twin = await storeSibling(store, input.path);
            if (twin) return { error: `Nothing deleted: ${echoedText(input.path)} does not exist. ${siblingHint(twin)}` };
          }
          await store.remove(input.path, { recursive, force: true });
          return { deleted: echoedText(input.path) };
        });
      } catch (err) {
        return { error: errorMessage(err) };
      }
    },
  };
}

/**
 * Why `path` is refused before anything is locked or removed, or
 * `undefined`: an empty path (`EINVAL` — under a tool set's `root` it would
 * name the root), or one whose last segment as written (trailing `/`
 * ignored) is `.` or `..` (`EINVAL`, as GNU `rm` and node:fs `rm` refuse
 * it): resolved, it names the directory itself or its parent, which a
 * recursive delete would empty with everything in it. A path that names
 * `/` is left to the store (`EPERM`, as before).
 */
function refusal(path: string, store: MutableFileStore): string | undefined {
  if (typeof path !== "string") return undefined;
  if (path === "") return "EINVAL: invalid argument, delete: the path is empty; give the path of the file or directory to delete.";
  const last = lastSegment(path);
  if (last !== "." && last !== "..") return undefined;
  if ((store.lockPath ? store.lockPath(path) : normalizePath(path)) === "/") return undefined;
  const head = headCut(path, 200);
  const shown = head.length < path.length ? `${JSON.stringify(head)}…[${path.length - head.length} more characters]` : JSON.stringify(path);
  return `EINVAL: invalid argument, delete: refusing to delete a path ending in "${last}" (${shown}); name the file or directory itself, without a last "." or "..".`;
}
