/**
 * `agent-computer/assets`: publish Workspace files to an R2 bucket and hand
 * out presigned GET URLs (spec 04 §1). See docs/assets.md.
 *
 * @example
 * ```ts
 * import { Workspace } from "agent-computer";
 * import { createAssets } from "agent-computer/assets";
 *
 * const workspace = new Workspace({
 *   storage: ctx.storage,
 *   assets: (ws) => createAssets({ ws, bucket: env.ASSETS, s3: { bucket: "agent-assets" }, env }),
 * });
 * const url = await workspace.assets!.share("/out/report.pdf", { expiresAfter: 3_600_000 });
 * ```
 *
 * @module
 */
export { createAssets, resolveS3 } from "./assets.js";
export { presignGetUrl, uriEncode, MAX_PRESIGN_SECONDS, type PresignGetUrlInput } from "./sigv4.js";
export {
  contentTypeFor,
  contentDisposition,
  DEFAULT_CONTENT_TYPE,
  MAX_CONTENT_TYPE_CHARS,
  MAX_DISPOSITION_BYTES,
  MAX_KEY_BYTES,
  MAX_SESSION_ID_BYTES,
  MAX_SOURCE_PATH_BYTES,
} from "./metadata.js";
export { crockfordBase32, CROCKFORD_ALPHABET } from "./id.js";
export type {
  AssetsClient,
  AssetsWorkspaceLike,
  AssetsEnv,
  CreateAssetsOptions,
  R2PutBucket,
  ResolvedS3Config,
  S3Config,
  ShareOptions,
  WorkspaceLike,
} from "./types.js";
