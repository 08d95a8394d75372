/**
 * Public shapes of `agent-computer/assets` (spec 04 §1.1).
 *
 * Type-only module: the root entry imports {@link AssetsClient} from here
 * without loading any assets code.
 *
 * @module
 */

/**
 * The part of an R2 binding (`R2Bucket`) that `share` uses: one streamed
 * `put`. Any object with this method works (a real `env.MY_BUCKET` binding, or
 * a test double).
 */
export interface R2PutBucket {
  /**
   * Stores `value` under `key`. `share` passes a stream of known length (a
   * Workers `FixedLengthStream`), so R2 accepts it without buffering.
   */
  put(
    key: string,
    value: ReadableStream<Uint8Array>,
    options?: {
      /** HTTP headers served with the object; `share` always passes `Content-Type` and `Content-Disposition`. Default: none (R2's). */
      httpMetadata?: { contentType?: string; contentDisposition?: string };
      /** Metadata stored with the object; `share` always passes `{ sourcePath, sessionId, expiresAt }`. Default: none. */
      customMetadata?: Record<string, string>;
    },
  ): Promise<unknown>;
}

/**
 * What `share` needs from a Workspace: its session id (recorded in the
 * object's metadata) and `fs.stat` + `fs.readFile` (streamed). A
 * `Workspace` satisfies it.
 */
export interface AssetsWorkspaceLike {
  /** Recorded as `customMetadata.sessionId`; `""` when the Workspace has none (a non-string counts as none). */
  readonly sessionId: string;
  /**
   * The two `workspace.fs` methods `share` calls, in parallel, on the shared
   * path; a rejection of either (e.g. `ENOENT`) rejects `share` and nothing is uploaded.
   */
  readonly fs: {
    /** Size of the file in bytes. */
    stat(path: string): Promise<{ size: number }>;
    /** The file's bytes as a stream. */
    readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  };
}

/**
 * @deprecated Use {@link AssetsWorkspaceLike}. The 0.8.0 name, kept for
 * porting; `agent-computer/tools` exports a different `WorkspaceLike`.
 */
export type WorkspaceLike = AssetsWorkspaceLike;

/**
 * Environment variables consulted by {@link resolveS3} (usually the Worker's
 * `env`). Only string values are read; `undefined` and `""` count as absent.
 */
export type AssetsEnv = Record<string, string | undefined>;

/**
 * Where presigned URLs point and how they are signed (R2's S3 API, or any
 * S3-compatible endpoint). Everything but `bucket` can come from the
 * environment instead (spec 04 §1.2).
 */
export interface S3Config {
  /** Required. Bucket name written into the URL path (no env fallback). */
  bucket: string;
  /** Cloudflare account id, used to build the R2 endpoint. Env fallback `CLOUDFLARE_ACCOUNT_ID`. */
  accountId?: string;
  /** S3 API access key id. Env fallbacks `R2_ACCESS_KEY_ID`, then `AWS_ACCESS_KEY_ID`. */
  accessKeyId?: string;
  /** S3 API secret access key. Env fallbacks `R2_SECRET_ACCESS_KEY`, then `AWS_SECRET_ACCESS_KEY`. Never printed. */
  secretAccessKey?: string;
  /**
   * S3 endpoint URL. Env fallback `R2_ENDPOINT`, then
   * `https://<accountId>.r2.cloudflarestorage.com`. Only its origin (scheme,
   * host, port) is used; a path is ignored.
   */
  endpoint?: string;
  /** SigV4 region. Default `"auto"` (R2). No env fallback. */
  region?: string;
  /** SigV4 service. Default `"s3"`. No env fallback. */
  service?: string;
}

/** Options of {@link createAssets}. */
export interface CreateAssetsOptions {
  /** The Workspace whose files are shared. */
  ws: AssetsWorkspaceLike;
  /** R2 binding that receives the uploads (the bucket named by `s3.bucket`). */
  bucket: R2PutBucket;
  /** URL signing configuration; resolved against `env` at construction. */
  s3: S3Config;
  /**
   * Environment variables for credential fallbacks — usually the Worker's
   * `env` as is (bindings and other non-string values are ignored). Default
   * `{}` (nothing is read from `process.env`).
   */
  env?: AssetsEnv | object;
  /** Clock in epoch milliseconds; drives the signing time and `expiresAt`. Default `Date.now`. */
  now?: () => number;
}

/** Options of {@link AssetsClient.share}. */
export interface ShareOptions {
  /**
   * Required. Link lifetime in **milliseconds**, a number `> 0`. Rounded up
   * to whole seconds and capped at 7 days (604800 s, the SigV4 maximum).
   */
  expiresAfter: number;
  /**
   * Bucket key prefix (not a Workspace path): split on `/`, empty segments
   * dropped. Default: none. A `.`/`..` segment, or a prefix that leaves the
   * key (`<prefix>/<id>/<name>`, at most 1,024 bytes of UTF-8) no room for a
   * one-character name, rejects `TypeError` before any I/O.
   */
  prefix?: string;
  /**
   * Content-Type stored with the object. Default: from the file extension, else `application/octet-stream`. At most
   * 1,024 characters of a header value (`MAX_CONTENT_TYPE_CHARS`), else `TypeError` before any I/O.
   */
  contentType?: string;
  /**
   * File name in Content-Disposition. Default: the source file's basename (as in the key: shortened to
   * `<start>…<extension>` when the key would pass 1,024 bytes). Either is shortened the same way when the header
   * value would pass 3,072 bytes (`MAX_DISPOSITION_BYTES`; R2 stores 8,192 bytes of metadata in all).
   */
  filename?: string;
  /** Content-Disposition type. Default `"inline"`. */
  disposition?: "inline" | "attachment";
}

/** Publishes Workspace files as presigned URLs (`workspace.assets`). */
export interface AssetsClient {
  /**
   * Uploads the file at `path` to a fresh key and resolves with a presigned
   * GET URL valid for `opts.expiresAfter` ms (capped at 7 days). A path
   * in directory form (`r.txt/`, `r.txt/.`) naming a non-directory rejects
   * `ENOTDIR` and uploads nothing.
   */
  share(path: string, opts: ShareOptions): Promise<string>;
}

/** Result of {@link resolveS3}: every value present, defaults applied. */
export interface ResolvedS3Config {
  /** `s3.bucket`: the bucket name written into the URL path. */
  bucket: string;
  /** `s3.endpoint` → `R2_ENDPOINT` → `https://<accountId>.r2.cloudflarestorage.com`; an http(s) URL whose origin is used. */
  endpoint: string;
  /** `s3.accessKeyId` → `R2_ACCESS_KEY_ID` → `AWS_ACCESS_KEY_ID`. */
  accessKeyId: string;
  /** `s3.secretAccessKey` → `R2_SECRET_ACCESS_KEY` → `AWS_SECRET_ACCESS_KEY`. Never printed. */
  secretAccessKey: string;
  /** SigV4 region: `s3.region`, else `"auto"`. */
  region: string;
  /** SigV4 service: `s3.service`, else `"s3"`. */
  service: string;
}
