/**
 * The `publish` tool (spec 03 §4.9, spec 04 §1.8, seed 000 "publish"):
 * hands a Workspace file to the user as a link that expires, through the
 * Workspace's assets publisher (`workspace.assets.share`). Validate, pick the
 * prefix, share, report `{ ok: true, url }` — or `{ ok: false, error }` when
 * sharing fails (a missing file, a failed upload).
 *
 * The tool depends only on a structural assets client, so it works with
 * `createAssets()` from `<pkg>/assets`, with a `getWorkspace()` client (whose
 * `assets.share` bridges to the Durable Object's `publish`) and with any
 * object that has `share(path, options)` — or, failing that, only
 * `publish(path, options)`, as the Workspace stub's `assets` has.
 *
 * @module
 */
import { z } from "zod";
import { abortedCall, errorMessage, type SettledTool, type ToolFacts } from "./types.js";
import { fitMiddle, wellFormed } from "../../assets/metadata.js";

/**
 * Bytes (UTF-8) of the session id the publish prefix `agent-<sessionId>` holds: a longer id is kept as its start, `…`
 * and its end, so the key `<prefix>/<id>/<name>` always leaves the name room within R2's 1,024 bytes.
 */
const PUBLISH_PREFIX_SESSION_BYTES = 256;

/**
 * The publish prefix for a session id: `agent-<id>`, the id made safe for an R2 key first — a lone UTF-16
 * surrogate becomes U+FFFD (R2 stores such a key as three U+FFFD while the URL names one, so the link named
 * nothing) and a `.` or `..` segment of an id holding `/` becomes `_`/`__` (`share` refuses those segments: a URL
 * cannot address them, so every publish failed) — then cut to {@link PUBLISH_PREFIX_SESSION_BYTES}.
 */
function publishPrefix(sessionId: string): string {
  const safe = wellFormed(sessionId)
    .split("/")
    .map((segment) => (segment === "." || segment === ".." ? segment.replaceAll(".", "_") : segment))
    .join("/");
  return `agent-${fitMiddle(safe, PUBLISH_PREFIX_SESSION_BYTES)}`;
}

/**
 * publish counts as mutating: it uploads a file and hands out a link that
 * anyone can open. Its `{ ok: false, error }` has a string `error`, so the default
 * model output lowers it to error-text: the bare message in pi and TanStack
 * (spec 03 §6, §8).
 */
export const PUBLISH_FACTS: ToolFacts = { name: "publish", mutating: true };

/** Default link lifetime: one hour, in ms. */
export const DEFAULT_PUBLISH_EXPIRES_AFTER_MS = 3_600_000;
/** Longest link lifetime the assets publisher grants: seven days, in ms (longer requests are capped by `share`). */
export const MAX_PUBLISH_EXPIRES_AFTER_MS = 604_800_000;

/** Options the tool passes to `assets.share` (a subset of `ShareOptions` in `<pkg>/assets`). */
export interface PublishShareOptions {
  /** Link lifetime in ms (> 0). */
  expiresAfter: number;
  /** Bucket key prefix; `"agent-<sessionId>"` when the Workspace has a session id. */
  prefix?: string;
}

/**
 * What publish needs from an assets publisher: `share(path, options)`
 * resolving to the URL (an `AssetsClient` from `<pkg>/assets`, or a
 * `getWorkspace()` client's `assets`). An object with only
 * `publish(path, options)` (a Workspace stub's `assets`) is bridged to it.
 */
export type PublishAssetsLike =
  | { share(path: string, options: PublishShareOptions): Promise<string> }
  | { publish(path: string, options: PublishShareOptions): Promise<string> };

/** What publish needs from a Workspace: `assets` and, for the key prefix, `sessionId`. */
export interface PublishWorkspaceLike {
  /** The assets publisher; `undefined` (or `null`) when the Workspace has none. */
  readonly assets?: PublishAssetsLike | null | undefined;
  /** Non-empty → links are stored under the prefix `agent-<sessionId>`. */
  readonly sessionId?: string;
}

/** Options of `createPublishTool`. */
export interface PublishToolOptions {
  /** A `Workspace` with `assets`, a `getWorkspace()` client, or any object with the same `assets` (and `sessionId`). */
  workspace: PublishWorkspaceLike;
}

/** Input of the publish tool. */
export interface PublishInput {
  path: string;
  expiresAfterMs?: number;
}

/** A published file: `url` is the expiring link. */
export interface PublishSuccess {
  ok: true;
  url: string;
}

/** A failed publish: `error` is the underlying error's message (e.g. a missing file's ENOENT message). */
export interface PublishFailure {
  ok: false;
  error: string;
}

/** publish's result. */
export type PublishResult = PublishSuccess | PublishFailure;

/** publish's input schema. */
export const publishInputSchema = z.object({
  path: z.string().min(1).describe("Absolute path of the workspace file to publish, e.g. /workspace/out/chart.png."),
  expiresAfterMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`How long the link stays valid, in milliseconds (default ${DEFAULT_PUBLISH_EXPIRES_AFTER_MS}, one hour; at most ${MAX_PUBLISH_EXPIRES_AFTER_MS}, seven days).`),
});

/**
 * publish's output schema. Covers success, the tool's `{ ok: false, error }`
 * and the bare `{ error }` TanStack returns for a failure (spec 03 §7.3, §8),
 * because TanStack checks every return against it.
 */
export const publishOutputSchema = z.union([
  z.object({ ok: z.literal(true), url: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
  z.object({ error: z.string() }),
]);

const DESCRIPTION =
  "Publish a workspace file through the assets publisher and get back a link that expires. " +
  "Use it to hand files to the user: charts, screenshots, builds, reports. " +
  "The link is valid for one hour by default; set expiresAfterMs (milliseconds) for a different lifetime, up to seven days. " +
  "Paths are absolute. Returns { ok: true, url } or { ok: false, error }.";

type Share = (path: string, options: PublishShareOptions) => Promise<string>;

/** `assets.share`, or `assets.publish` when there is no `share`; `undefined` when neither is a function. */
function shareOf(assets: object): Share | undefined {
  const candidate = assets as { share?: unknown; publish?: unknown };
  if (typeof candidate.share === "function") return (path, options) => (candidate.share as Share).call(assets, path, options);
  if (typeof candidate.publish === "function") return (path, options) => (candidate.publish as Share).call(assets, path, options);
  return undefined;
}

/**
 * Builds the publish tool.
 *
 * Each call runs `workspace.assets.share(path, { expiresAfter: expiresAfterMs ?? 3600000, prefix })`,
 * where `prefix` is `"agent-" + workspace.sessionId` (an id over 256 bytes of UTF-8 as its start, `…` and its end)
 * and is left out when the session id is missing or empty. A rejected share becomes `{ ok: false, error }`.
 *
 * @throws Error `createPublishTool: workspace.assets is not configured` when the
 *   workspace has no assets publisher; TypeError when `workspace.assets` has
 *   neither `share` nor `publish`.
 */
export function publishDefinition(options: PublishToolOptions): SettledTool<PublishInput, PublishResult> {
  const workspace = options?.workspace;
  const assets = workspace?.assets;
  if (assets === undefined || assets === null) throw new Error("createPublishTool: workspace.assets is not configured");
  const share = typeof assets === "object" || typeof assets === "function" ? shareOf(assets) : undefined;
  if (!share) throw new TypeError("createPublishTool: workspace.assets must have share(path, options) (an AssetsClient from createAssets)");
  return {
    ...PUBLISH_FACTS,
    description: DESCRIPTION,
    inputSchema: publishInputSchema,
    outputSchema: publishOutputSchema,
    limits: { defaultExpiresAfterMs: DEFAULT_PUBLISH_EXPIRES_AFTER_MS, maxExpiresAfterMs: MAX_PUBLISH_EXPIRES_AFTER_MS },
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { ok: false, error: aborted };
      const shareOptions: PublishShareOptions = { expiresAfter: input.expiresAfterMs ?? DEFAULT_PUBLISH_EXPIRES_AFTER_MS };
      const sessionId = workspace.sessionId;
      if (typeof sessionId === "string" && sessionId !== "") shareOptions.prefix = publishPrefix(sessionId);
      try {
        const url: unknown = await share(input.path, shareOptions);
        if (typeof url !== "string" || url === "") {
          return { ok: false, error: `assets.share resolved to ${url === "" ? "an empty string" : typeof url}, not a URL; check the assets client passed to the Workspace` };
        }
        return { ok: true, url };
      } catch (err) {
        return { ok: false, error: errorMessage(err) };
      }
    },
  };
}
