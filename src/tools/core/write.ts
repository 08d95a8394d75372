/**
 * The `write` tool (spec 03 §4.5): validate, lock, stat, write, report.
 * Overwrites keep the file's mode; missing parents are created.
 *
 * @module
 */
import { z } from "zod";
import { withPathLock } from "./locks.js";
import type { FileStore } from "./store.js";
import { checkPositive, utf8, utf8Length } from "./truncate.js";
import { errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** write changes the Workspace. */
export const WRITE_FACTS: ToolFacts = { name: "write", mutating: true };

/** Options of the write tool. */
export interface WriteToolOptions {
  /** Store the tool writes to. */
  store: FileStore;
  /** Largest content accepted, in UTF-8 bytes. Default `2097152` (2 MiB). */
  maxBytes?: number;
}

/** Input of the write tool. */
export interface WriteInput {
  path: string;
  content: string;
}

/** A successful write. */
export interface WriteResult {
  path: string;
  bytesWritten: number;
}

export const WRITE_DEFAULTS = { maxBytes: 2097152 } as const;

/** write's input schema. */
export const writeInputSchema = z.object({
  path: z.string().describe("Absolute path of the file to write. Missing parent directories are created."),
  content: z.string().describe("The complete new content of the file (UTF-8)."),
});

/** write's output schema: success or `{ error }` (TanStack validates every return). */
export const writeOutputSchema = z.union([
  z.object({ path: z.string(), bytesWritten: z.number().int() }),
  z.object({ error: z.string() }),
]);

/** Builds the write tool. @throws TypeError for an invalid `maxBytes`. */
export function writeDefinition(options: WriteToolOptions): SettledTool<WriteInput, WriteResult | ToolError> {
  const store = options.store;
  const maxBytes = checkPositive("createWriteTool", "maxBytes", options.maxBytes ?? WRITE_DEFAULTS.maxBytes);
  return {
    ...WRITE_FACTS,
    description: `Write a file in the workspace, creating it or overwriting anything already at the path (an existing file keeps its permissions). Content is capped at ${Math.round(maxBytes / 1024)}KB; to change part of an existing file, prefer the edit tool. Paths are absolute.`,
    inputSchema: writeInputSchema,
    outputSchema: writeOutputSchema,
    limits: { maxBytes },
    async execute(input) {
      const size = utf8Length(input.content);
      if (size > maxBytes) {
        return {
          error: `Content too large: ${size} bytes exceeds the ${maxBytes}-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.`,
        };
      }
      try {
        return await withPathLock(store, input.path, false, async () => {
          const stat = await store.stat(input.path);
          const bytes = utf8(input.content);
          await store.write(input.path, bytes, stat?.mode === undefined ? undefined : { mode: stat.mode });
          return { path: input.path, bytesWritten: bytes.byteLength };
        });
      } catch (err) {
        return { error: errorMessage(err) };
      }
    },
  };
}
