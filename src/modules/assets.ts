/**
 * `ws:assets` (spec 04 §1.10): publishing Workspace files from isolate code.
 * `createAssetsModule()` makes the host-module factory; `publish` runs in
 * the host (the Durable Object) on the Workspace's assets publisher
 * (`createAssets`, spec 04 §1), so the isolate never holds the R2 binding
 * or the signing secret.
 *
 * ```ts
 * import { createAssetsModule } from "agent-computer/modules/assets";
 *
 * new Workspace({
 *   storage: ctx.storage,
 *   assets: (ws) => createAssets({ ws, bucket: env.ASSETS, s3: { bucket: "agent-assets" }, env }),
 *   backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule() } })],
 * });
 * // in the isolate (paths relative to the backend's root, /workspace by default):
 * import { publish } from "ws:assets";
 * const url = await publish("out/chart.png", { expiresAfter: "1d" });
 * ```
 *
 * @module
 */
import { parseDuration } from "../artifacts/duration.js";
import { checkContentType } from "../assets/metadata.js";
import { quoteCut } from "../util/cut.js";
import { directoryForm } from "../util/path.js";
import type { AssetsClient, ShareOptions } from "../assets/types.js";
import type { WorkspaceRuntimeValue } from "../runtime/types.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunction, WorkspaceModuleHost } from "./types.js";

/** Default of {@link AssetsModuleOptions.defaultExpiresAfterMs}: one hour. */
export const DEFAULT_ASSETS_MODULE_EXPIRES_AFTER_MS = 3_600_000;

/** What `publish` rejects on an `access: "read"` backend (spec 04 §1.10), word for word. */
export const ASSETS_WRITE_ACCESS_MESSAGE = "ws:assets publish requires Workspace write access.";

/** The options `publish` accepts, in the order the description and errors name them. */
const PUBLISH_OPTIONS = ["expiresAfter", "filename", "disposition", "contentType"] as const;

/** Longest `filename` / `contentType` accepted, in characters. */
const MAX_OPTION_CHARS = 1024;

/** Options of {@link createAssetsModule} (spec 04 §1.10). */
export interface AssetsModuleOptions {
  /**
   * Link lifetime in milliseconds when `publish` is called without
   * `expiresAfter`. A finite number > 0; `share` rounds it up to whole
   * seconds and caps it at 7 days. Default 3600000 (1 hour).
   */
  defaultExpiresAfterMs?: number;
}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function isPlainObject(value: unknown): value is Record<string, WorkspaceRuntimeValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A lifetime in ms for people: `1 h`, `90 min`, `30 s`, `1500 ms`. */
function humanDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** `publish`'s `expiresAfter`: milliseconds (a finite number > 0) or a duration string (seconds, ×1000). */
function expiresAfterOf(value: WorkspaceRuntimeValue): number {
  if (typeof value === "number") {
    if (Number.isFinite(value) && value > 0) return value;
    throw new TypeError(`publish: expiresAfter must be a positive number of milliseconds or a duration string such as "30m", "2h" or "1d", got ${String(value)}`);
  }
  if (typeof value === "string") {
    try {
      return parseDuration(value) * 1000;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TypeError(`publish: expiresAfter: ${reason} (a duration is seconds, or <digits><s|m|h|d> segments such as "90", "30m", "2h30m", "1d")`);
    }
  }
  throw new TypeError(`publish: expiresAfter must be a positive number of milliseconds or a duration string such as "30m", "2h" or "1d", got ${typeName(value)}`);
}

function stringOption(key: "filename" | "contentType", value: WorkspaceRuntimeValue): string {
  if (typeof value !== "string") throw new TypeError(`publish: ${key} must be a string, got ${typeName(value)}`);
  if (value.length > MAX_OPTION_CHARS) throw new TypeError(`publish: ${key} must be at most ${MAX_OPTION_CHARS} characters, got ${value.length}`);
  return value;
}

/**
 * The share options of a `publish` call: `expiresAfter` (default
 * `defaultExpiresAfterMs`) and the given `filename`, `disposition`,
 * `contentType`. `undefined`/`null` members count as absent.
 *
 * @throws TypeError prefixed `publish:` naming the offending option.
 */
function shareOptionsOf(options: WorkspaceRuntimeValue | undefined, defaultExpiresAfterMs: number): ShareOptions {
  const out: ShareOptions = { expiresAfter: defaultExpiresAfterMs };
  if (options === undefined || options === null) return out;
  if (!isPlainObject(options)) throw new TypeError(`publish: options must be an object { ${PUBLISH_OPTIONS.join(", ")} }, got ${typeName(options)}`);
  for (const key of Object.keys(options)) {
    if (!(PUBLISH_OPTIONS as readonly string[]).includes(key)) {
      throw new TypeError(`publish: unknown option ${quoteCut(key)} (options are ${PUBLISH_OPTIONS.join(", ")})`);
    }
  }
  const { expiresAfter, filename, disposition, contentType } = options;
  if (expiresAfter !== undefined && expiresAfter !== null) out.expiresAfter = expiresAfterOf(expiresAfter);
  if (filename !== undefined && filename !== null) out.filename = stringOption("filename", filename);
  if (disposition !== undefined && disposition !== null) {
    if (disposition !== "inline" && disposition !== "attachment") {
      throw new TypeError(`publish: disposition must be "inline" or "attachment", got ${typeof disposition === "string" ? quoteCut(disposition) : typeName(disposition)}`);
    }
    out.disposition = disposition;
  }
  if (contentType !== undefined && contentType !== null) out.contentType = checkContentType(stringOption("contentType", contentType), "publish");
  return out;
}

/** The `ws:assets` description the JavaScript backend shows the model. */
function describeAssetsModule(defaultExpiresAfterMs: number): string {
  return [
    "Publishes Workspace files as time-limited download links, run by the host:",
    "- `publish(path, options?)` uploads the file at `path` (relative to this runtime's root; it must exist) and returns its URL (a string). Needs write access.",
    `- \`options\`: \`expiresAfter\` — how long the link works: milliseconds (a number) or a duration string ("90" seconds, "30m", "2h30m", "1d"); default ${humanDuration(defaultExpiresAfterMs)}, at most 7 days (longer is cut to 7 days); \`filename\` — the name a download gets (default the file's name); \`disposition\` — "inline" (default, shown in the browser) or "attachment" (downloaded); \`contentType\` — default from the extension.`,
    "Each call makes a new link; anyone with the URL can read the file until it expires.",
  ].join("\n");
}

/**
 * Makes the `ws:assets` host module (spec 04 §1.10), exporting
 * `publish(path, options?)` → URL string: `workspace.assets.share(path, {
 * expiresAfter, filename?, disposition?, contentType? })` with no key
 * prefix.
 *
 * Rules, in this order:
 * - a backend with `access: "read"` rejects {@link ASSETS_WRITE_ACCESS_MESSAGE}
 *   (`ws:assets publish requires Workspace write access.`, `code` `EROFS`);
 * - 1 or 2 arguments, `path` a non-empty string, `options` `null`,
 *   `undefined` or a plain object with keys among `expiresAfter`,
 *   `filename`, `disposition`, `contentType`; `expiresAfter` a finite
 *   number of milliseconds > 0 or a duration string (spec 04 §3.5, seconds
 *   → ×1000); `disposition` `"inline"` or `"attachment"`; `filename` and
 *   `contentType` strings, `contentType` a header value (printable ASCII,
 *   tab or U+0080–U+00FF; no CR, LF or other control character) —
 *   otherwise a `TypeError` prefixed `publish:` naming what is wrong;
 * - `path` goes through the call context's `resolvePath` (relative to the
 *   backend's root, confined to it, no symbolic links, must exist: the
 *   filesystem's `ENOENT`), then the call's abort signal is checked, then
 *   the file is uploaded. A path in directory form (`r.txt/`, `r.txt/.`)
 *   keeps that form (the resolved path with a trailing `/`), so a file there
 *   rejects `ENOTDIR` (`share`'s check) and nothing is uploaded.
 *
 * `expiresAfter` defaults to `defaultExpiresAfterMs`; `share` caps every
 * lifetime at 7 days. A call repeated by a replay run (spec 02 §5) uploads
 * again and returns a new URL (publishing has no effect beyond a new object).
 *
 * @param options - {@link AssetsModuleOptions}. Default `{}`.
 * @returns The factory; it throws at backend connect when the Workspace has
 *   no assets publisher (`ws:assets needs the Workspace's assets publisher: …`).
 * @throws TypeError `createAssetsModule: defaultExpiresAfterMs must be a positive number.` for a non-finite or ≤ 0 value (or a non-number); TypeError when `options` is not an object.
 */
export function createAssetsModule(options: AssetsModuleOptions = {}): WorkspaceModuleFactory {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createAssetsModule(options): options must be an object, got ${typeName(options)}`);
  }
  const defaultExpiresAfterMs: unknown = options.defaultExpiresAfterMs === undefined ? DEFAULT_ASSETS_MODULE_EXPIRES_AFTER_MS : options.defaultExpiresAfterMs;
  if (typeof defaultExpiresAfterMs !== "number" || !Number.isFinite(defaultExpiresAfterMs) || defaultExpiresAfterMs <= 0) {
    throw new TypeError("createAssetsModule: defaultExpiresAfterMs must be a positive number.");
  }

  const factory = ((host: WorkspaceModuleHost) => {
    const assets = host.assets as Partial<AssetsClient> | undefined;
    if (!assets || typeof assets.share !== "function") {
      throw new Error(
        "ws:assets needs the Workspace's assets publisher: pass assets to new Workspace({ assets: (ws) => createAssets({ ws, bucket, s3 }) }) (agent-computer/assets), or leave ws:assets out of this backend's modules.",
      );
    }
    const client = assets as AssetsClient;

    const publish: WorkspaceModuleFunction = async (args, ctx: WorkspaceModuleCallContext) => {
      if (ctx.access !== "read-write") throw Object.assign(new Error(ASSETS_WRITE_ACCESS_MESSAGE), { code: "EROFS" });
      if (args.length < 1 || args.length > 2) {
        throw new TypeError(`publish: takes a path and an optional options object, got ${args.length} arguments`);
      }
      const path = args[0];
      if (typeof path !== "string" || path === "") {
        throw new TypeError(`publish: path must be a non-empty string, got ${typeof path === "string" ? "an empty string" : typeName(path)}`);
      }
      const share = shareOptionsOf(args[1], defaultExpiresAfterMs);
      const resolved = await ctx.resolvePath(path);
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("the call was aborted");
      // Resolving drops a trailing `/` or `/.`: keep the directory form, so share answers ENOTDIR for a file.
      return client.share(directoryForm(path) !== null && resolved !== "/" ? `${resolved}/` : resolved, share);
    };

    return { publish };
  }) as WorkspaceModuleFactory & { description?: string };
  Object.defineProperty(factory, "description", { enumerable: true, value: describeAssetsModule(defaultExpiresAfterMs) });
  return factory;
}
