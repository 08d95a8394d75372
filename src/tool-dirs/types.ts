/**
 * Shared shapes of TOOL.md tool directories (spec 03 §9, seed 001): what the
 * loader ({@link ToolDirectory}, {@link SkippedToolDirectory}) hands to the
 * runner and the adapters, and what a tool's entry returns
 * ({@link ToolResult}, {@link OnUpdate}). Types only; no runtime code.
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";

/**
 * The language a tool is written in (front matter `language`, default
 * `"typescript"`). It decides the entry file and the backend that runs it:
 *
 * | language | entry file (first found wins) | backend |
 * |---|---|---|
 * | `typescript` | `index.ts`, then `index.js` | JavaScript (types stripped when the entry or an import is `.ts`) |
 * | `javascript` | `index.js`, then `index.ts` | JavaScript |
 * | `bash` | `index.sh` | shell |
 * | `python` | `index.py` | container (skipped when none is configured) |
 *
 * `javascript` is an addition to the seed's list (typescript, bash, python).
 *
 * Conventions the runner follows (proposed here so loader, runner, fixtures
 * and docs agree):
 * - JavaScript/TypeScript: the entry exports `execute(toolCallId, params,
 *   signal, onUpdate)` → {@link ToolResult}; relative imports are written
 *   as for Node ESM TypeScript (`./util.js` finds `./util.ts` when no
 *   `util.js` exists).
 * - bash: each input arrives as the environment variable `INPUT_<NAME>`
 *   (the input name upper-cased; booleans `true`/`false`, numbers in JS
 *   `String()` form, absent optional inputs unset) and all inputs but the
 *   sensitive ones as one JSON object in the file named by
 *   `$TOOL_INPUT_FILE`; stdout is the
 *   result text, a non-zero exit status makes it `isError`.
 */
export type ToolLanguage = "typescript" | "javascript" | "bash" | "python";

/** The type of one input (front matter `inputs.<name>.type`, spec 03 §9). */
export type ToolInputType = "string" | "number" | "boolean" | "enum";

/** A default value: matches the input's type (an enum default is one of `values`). */
export type ToolInputValue = string | number | boolean;

/**
 * One input (parameter) of a tool, from front matter `inputs.<name>`
 * (spec 03 §9).
 */
export interface ToolInput {
  /** The parameter name (the key under `inputs`): `[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters. */
  name: string;
  /** `string`, `number`, `boolean` or `enum`. */
  type: ToolInputType;
  /** What the parameter is for; shown to the model (required, non-empty). */
  description: string;
  /**
   * `true` when the model may leave it out. Front matter `optional`
   * (default `false`). An input with a `default` is also optional to the
   * model (the default fills it in), but this flag reports the front matter.
   */
  optional: boolean;
  /** The value must never be logged, put in spans or echoed unmasked. Front matter `sensitive` (default `false`). */
  sensitive: boolean;
  /**
   * The allowed values of an `enum` input, in order, trimmed, no empties, no
   * duplicates. Front matter `values`: a comma-separated string (the seed's
   * form) or a YAML list of strings. Present only for `enum`.
   */
  values?: string[];
  /** The value used when the model gives none; absent when the front matter has no `default`. */
  default?: ToolInputValue;
}

/**
 * A tool directory that loaded and validated (spec 03 §9). Paths are
 * absolute Workspace paths.
 */
export interface ToolDirectory {
  /** The call id (front matter `name`): snake_case `[a-z][a-z0-9_]*`, at most 64 characters. */
  name: string;
  /** Display name (front matter `label`); defaults to `name`. */
  label: string;
  /**
   * The text the model sees: the front-matter description, then a blank
   * line and the Markdown body when the body is not empty.
   */
  description: string;
  /** The front-matter `description` alone (trimmed). */
  summary: string;
  /** The Markdown body after the front matter (trimmed; `""` when none). */
  body: string;
  /** Front matter `version`: a non-negative safe integer; missing → `0`. Used by sync. */
  version: number;
  /** Front matter `language` (default `"typescript"`). */
  language: ToolLanguage;
  /** The inputs by name, in front-matter order (a plain object; `{}` when none). */
  inputs: Record<string, ToolInput>;
  /**
   * Whether the tool may change things (files, remote state). `true` unless
   * the front matter says `readonly: true`. The adapters drop mutating
   * directory tools under `readonly` and ask for approval of them under
   * `approve: "mutating"`.
   */
  mutating: boolean;
  /**
   * Names of host environment variables this tool may receive (front matter
   * `env`: a YAML list of names `[A-Za-z_][A-Za-z0-9_]*`; `[]` when absent).
   * The host supplies the values (for example Worker secrets) to that tool's
   * run only.
   */
  env: string[];
  /** The tool directory, e.g. `/workspace/tools/web_fetch`. */
  dir: string;
  /** The TOOL.md file, `<dir>/TOOL.md`. */
  toolFile: string;
  /** The entry file (see {@link ToolLanguage} for which), e.g. `<dir>/index.ts`. */
  entry: string;
  /** The searched directory (an element of the loader's `dirs`) this tool came from. */
  root: string;
}

/** One content block of a tool result (spec 03 §9). */
export interface ToolResultContent {
  /** Usually `"text"`. */
  type: string;
  /** The text. */
  text: string;
}

/**
 * What a tool's `execute` resolves to (spec 03 §9, seed 001). `isError: true`
 * is a failure the agent can react to.
 */
export type ToolResult = {
  /** The result's content blocks, usually one `{ type: "text", text }`. */
  content: ToolResultContent[];
  /** `true` for a failure the agent can react to. Default: absent (success). */
  isError?: boolean;
};

/** Progress callback a tool may call during a long operation (spec 03 §9). */
export type OnUpdate = (partial: {
  /** The progress text so far, as content blocks. */
  content: ToolResultContent[];
}) => void;

/**
 * Machine-readable reason a directory was skipped; {@link SkippedToolDirectory.reason}
 * says it in words.
 */
export type ToolDirectorySkipCode =
  | "no-tool-file" //      no TOOL.md
  | "no-entry" //          no entry file for the language
  | "too-large" //         TOOL.md over 256 KiB
  | "bad-front-matter" //  no `---` block, bad YAML, or not a mapping
  | "invalid" //           a field fails validation (names, types, values, defaults…)
  | "builtin-name" //      the name is one of the built-in tools
  | "duplicate-name" //    an earlier directory already has the name
  | "language-unavailable" // no backend can run this language (python without a container)
  | "unreadable" //        the directory or a file could not be read
  | "limit"; //            over the loader's maxTools

/** A directory the loader did not load, with the reason (spec 03 §9: "skipped"). */
export interface SkippedToolDirectory {
  /** The directory, e.g. `/workspace/tools/broken`. */
  dir: string;
  /** The front-matter `name` when it could be read. */
  name?: string;
  /** Why, in a sentence that says what to fix. */
  reason: string;
  /** The same, for programs. */
  code: ToolDirectorySkipCode;
}

/** The Workspace methods the loader reads with (a `Workspace`, a `getWorkspace()` client, or the same shape). */
export interface ToolDirsReadWorkspace {
  /** `readdir` (listing tools directories), `stat` and `readFile` (TOOL.md, entry files). */
  fs: Pick<WorkspaceFilesystem, "readdir" | "stat" | "readFile">;
}

/** The Workspace methods sync reads and writes with. */
export interface ToolDirsWorkspace {
  /**
   * Reads the seed and the target (`readdir`, `stat`, `lstat`, `readFile`) and writes the copy (`writeFile`, `mkdir`, `rm`, `rename`).
   * `readlink` (optional; a Workspace has it) lets sync resolve links in `from` and `to` before checking they do not overlap.
   */
  fs: Pick<WorkspaceFilesystem, "readdir" | "stat" | "lstat" | "readFile" | "writeFile" | "mkdir" | "rm" | "rename"> &
    Partial<Pick<WorkspaceFilesystem, "readlink">>;
}
