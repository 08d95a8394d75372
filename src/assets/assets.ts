/**
 * `createAssets` / `resolveS3`: publish Workspace files to R2 and hand out
 * presigned GET URLs (spec 04 §1.2–1.6).
 *
 * @module
 */
import { WorkspaceFsError } from "../fs/errors.js";
import { directoryForm } from "../util/path.js";
import { newAssetId } from "./id.js";
import { assetKey, basename, checkContentType, contentTypeFor, fitDisposition, fitMiddle, fitName, fitSourcePath, MAX_SESSION_ID_BYTES, wellFormed } from "./metadata.js";
import { MAX_PRESIGN_SECONDS, presignGetUrl, uriEncode } from "./sigv4.js";
import type {
  AssetsClient,
  AssetsEnv,
  CreateAssetsOptions,
  R2PutBucket,
  ResolvedS3Config,
  S3Config,
  ShareOptions,
  AssetsWorkspaceLike,
} from "./types.js";

/** First value that is a non-empty string (`undefined` and `""` count as absent). */
function firstPresent(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === "string" && value !== "") return value;
  return undefined;
}

/**
 * Resolves S3 signing settings from `s3` and environment variables (spec 04
 * §1.2). First present value wins (`undefined` and `""` are absent):
 *
 * - access key: `s3.accessKeyId` → `R2_ACCESS_KEY_ID` → `AWS_ACCESS_KEY_ID`
 * - secret: `s3.secretAccessKey` → `R2_SECRET_ACCESS_KEY` → `AWS_SECRET_ACCESS_KEY`
 * - endpoint: `s3.endpoint` → `R2_ENDPOINT` → `https://<accountId>.r2.cloudflarestorage.com`
 *   with accountId = `s3.accountId` → `CLOUDFLARE_ACCOUNT_ID`
 * - region `s3.region ?? "auto"`, service `s3.service ?? "s3"` (no env)
 *
 * `env` may be a Worker's whole `env`: only string values are read.
 *
 * @throws Error `createAssets: missing access key id. …`, `… missing secret
 *   access key. …`, `… missing endpoint. …` (checked in that order; each
 *   names the option fields and env vars to set, never a secret), then
 *   `createAssets: missing s3.bucket. …` and `createAssets: endpoint is not a
 *   valid http(s) URL. …`.
 * @throws TypeError when `s3` or `env` is not an object.
 */
export function resolveS3(s3: S3Config, env: AssetsEnv | object): ResolvedS3Config {
  if (!s3 || typeof s3 !== "object") {
    throw new TypeError('createAssets: s3 must be an object such as { bucket: "my-assets" }');
  }
  if (env === null || typeof env !== "object") {
    throw new TypeError("createAssets: env must be an object of environment variables (the Worker's env)");
  }
  const vars = env as AssetsEnv;
  const accessKeyId = firstPresent(s3.accessKeyId, vars.R2_ACCESS_KEY_ID, vars.AWS_ACCESS_KEY_ID);
  if (accessKeyId === undefined) {
    throw new Error(
      "createAssets: missing access key id. Pass s3.accessKeyId, or set R2_ACCESS_KEY_ID or AWS_ACCESS_KEY_ID " +
        "in the env option (the Access Key ID of an R2 API token).",
    );
  }
  const secretAccessKey = firstPresent(s3.secretAccessKey, vars.R2_SECRET_ACCESS_KEY, vars.AWS_SECRET_ACCESS_KEY);
  if (secretAccessKey === undefined) {
    throw new Error(
      "createAssets: missing secret access key. Pass s3.secretAccessKey, or set R2_SECRET_ACCESS_KEY or " +
        "AWS_SECRET_ACCESS_KEY in the env option (store it with `wrangler secret put R2_SECRET_ACCESS_KEY`).",
    );
  }
  let endpoint = firstPresent(s3.endpoint, vars.R2_ENDPOINT);
  if (endpoint === undefined) {
    const accountId = firstPresent(s3.accountId, vars.CLOUDFLARE_ACCOUNT_ID);
    if (accountId !== undefined) {
      if (!/^[A-Za-z0-9-]{1,63}$/.test(accountId)) {
        throw new Error(
          "createAssets: the account id is not a valid host name label. Check s3.accountId / CLOUDFLARE_ACCOUNT_ID " +
            "(the 32-character hex id on the Cloudflare dashboard), or pass s3.endpoint.",
        );
      }
      endpoint = `https://${accountId}.r2.cloudflarestorage.com`;
    }
  }
  if (endpoint === undefined) {
    throw new Error(
      "createAssets: missing endpoint. Pass s3.endpoint or s3.accountId, or set R2_ENDPOINT or " +
        "CLOUDFLARE_ACCOUNT_ID in the env option (R2's endpoint is https://<account id>.r2.cloudflarestorage.com).",
    );
  }
  if (typeof s3.bucket !== "string" || s3.bucket === "") {
    throw new Error(
      'createAssets: missing s3.bucket. Pass the name of the R2 bucket behind the binding, e.g. s3: { bucket: "my-assets" } ' +
        "(there is no environment variable for it).",
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new Error(
      "createAssets: endpoint is not a valid http(s) URL. Check s3.endpoint / R2_ENDPOINT, or s3.accountId / " +
        "CLOUDFLARE_ACCOUNT_ID (e.g. https://<account id>.r2.cloudflarestorage.com).",
    );
  }
  return {
    bucket: s3.bucket,
    endpoint,
    accessKeyId,
    secretAccessKey,
    region: firstPresent(s3.region) ?? "auto",
    service: firstPresent(s3.service) ?? "s3",
  };
}

/** Constructor of Workers' `FixedLengthStream`, looked up at call time. */
type FixedLengthStreamCtor = new (expectedLength: number) => {
  readonly writable: WritableStream<Uint8Array>;
  readonly readable: ReadableStream<Uint8Array>;
};

const FIXED_LENGTH_STREAM_MISSING =
  "share: FixedLengthStream is not available. Run share inside workerd (a Cloudflare Worker or Durable Object, " +
  "`wrangler dev`, Miniflare or @cloudflare/vitest-plugin): R2 needs an upload stream of known length.";

/**
 * Creates the assets client behind `workspace.assets` and the `publish` tool.
 * Credentials are resolved at once with {@link resolveS3}, so a bad config
 * throws here (or from `new Workspace` when `assets` is a factory).
 *
 * `share(path, opts)` (spec 04 §1.3):
 * 1. rejects `share: expiresAfter must be a positive number of milliseconds`
 *    unless `opts.expiresAfter` is a number `> 0` — before any I/O;
 * 2. lifetime = `min(ceil(expiresAfter / 1000), 604800)` seconds;
 * 3. key `<prefix>/<id>/<basename>` (fresh 26-char id per call, so shares
 *    never overwrite; a basename that would make the key pass R2's 1,024
 *    bytes is shortened to `<start of stem>…<extension>`, see `fitName`),
 *    Content-Type and Content-Disposition (of that basename);
 * 4. `ws.fs.stat(path)` and `ws.fs.readFile(path)` in parallel — their errors
 *    (e.g. `ENOENT`) reject and nothing is uploaded; a path in directory form
 *    (`f.txt/`, `f.txt/.`) that names a non-directory rejects `ENOTDIR`
 *    (`stat`, the path as given), as POSIX reads it;
 * 5. streams the file through `FixedLengthStream(size)` into
 *    `bucket.put(key, …)` with `httpMetadata` and `customMetadata`
 *    `{ sourcePath, sessionId, expiresAt }` (`sourcePath` and `sessionId` cut to
 *    1,024 bytes each, `<start>…<end>`, see `fitSourcePath`; the
 *    Content-Disposition's file name shortened until the value fits 3,072
 *    bytes, see `fitDisposition`; a Content-Type over 1,024 characters rejects
 *    `TypeError` before any I/O), so what R2 stores fits its 8,192 bytes of
 *    metadata — never buffered whole; a failed
 *    put aborts the stream and rethrows;
 * 6. resolves with the presigned GET URL.
 *
 * @example
 * ```ts
 * const assets = createAssets({ ws: workspace, bucket: env.ASSETS, s3: { bucket: "agent-assets" }, env });
 * const url = await assets.share("/out/chart.png", { expiresAfter: 3_600_000 });
 * ```
 * @throws Error from {@link resolveS3} for missing credentials, endpoint or bucket name.
 * @throws TypeError when `ws`, `bucket` or `now` has the wrong shape.
 */
export function createAssets(o: CreateAssetsOptions): AssetsClient {
  if (!o || typeof o !== "object") {
    throw new TypeError("createAssets: pass { ws, bucket, s3, env? } (ws = the Workspace, bucket = an R2 binding)");
  }
  const { ws, bucket } = o;
  if (!ws || typeof ws !== "object" || !ws.fs || typeof ws.fs.stat !== "function" || typeof ws.fs.readFile !== "function") {
    throw new TypeError("createAssets: ws must be a Workspace (an object with fs.stat and fs.readFile)");
  }
  if (!bucket || typeof bucket.put !== "function") {
    throw new TypeError("createAssets: bucket must be an R2 bucket binding (an object with put), e.g. env.ASSETS");
  }
  if (o.now !== undefined && typeof o.now !== "function") {
    throw new TypeError("createAssets: now must be a function returning epoch milliseconds");
  }
  const s3 = resolveS3(o.s3, o.env ?? {});
  const now = o.now ?? Date.now;
  return {
    share: (path, opts) => share({ ws, bucket, s3, now }, path, opts),
  };
}

interface ShareContext {
  ws: AssetsWorkspaceLike;
  bucket: R2PutBucket;
  s3: ResolvedS3Config;
  now: () => number;
}

async function share(c: ShareContext, path: string, opts: ShareOptions): Promise<string> {
  const expiresAfter: unknown = opts?.expiresAfter;
  if (typeof expiresAfter !== "number" || !(expiresAfter > 0)) {
    const ErrorClass = typeof expiresAfter === "number" ? RangeError : TypeError;
    throw new ErrorClass("share: expiresAfter must be a positive number of milliseconds");
  }
  if (typeof path !== "string" || path === "") throw new TypeError("share: path must be a non-empty string");
  const { prefix, contentType, filename, disposition = "inline" } = opts;
  if (prefix !== undefined && typeof prefix !== "string") throw new TypeError("share: prefix must be a string");
  if (contentType !== undefined && typeof contentType !== "string") throw new TypeError("share: contentType must be a string");
  if (contentType !== undefined) checkContentType(contentType, "share");
  if (filename !== undefined && typeof filename !== "string") throw new TypeError("share: filename must be a string");
  if (disposition !== "inline" && disposition !== "attachment") {
    throw new TypeError('share: disposition must be "inline" or "attachment"');
  }
  const expiresIn = Math.min(Math.ceil(expiresAfter / 1000), MAX_PRESIGN_SECONDS);
  // A lone surrogate (possible in a JS string, not in UTF-8) becomes U+FFFD, so the stored key and the signed URL agree.
  const id = newAssetId();
  // Shortened (stem…ext) when the key would pass R2's 1,024 bytes; the prefix is refused when it leaves no room.
  // The prefix too: a lone surrogate in it gave a URL naming one U+FFFD and a key R2 stored with three.
  const safePrefix = prefix === undefined ? undefined : wellFormed(prefix);
  const name = fitName(assetKey(safePrefix, id, ""), wellFormed(basename(path)));
  const key = assetKey(safePrefix, id, name);
  const httpMetadata = {
    contentType: contentType ?? contentTypeFor(name),
    contentDisposition: fitDisposition(disposition, filename ?? name),
  };
  const signedAt = c.now();
  const customMetadata = {
    sourcePath: fitSourcePath(path),
    sessionId: typeof c.ws.sessionId === "string" ? fitMiddle(wellFormed(c.ws.sessionId), MAX_SESSION_ID_BYTES) : "",
    expiresAt: new Date(signedAt + expiresIn * 1000).toISOString(),
  };

  const [stat, read] = await Promise.allSettled([c.ws.fs.stat(path), c.ws.fs.readFile(path)]);
  if (stat.status === "rejected" || read.status === "rejected") {
    if (read.status === "fulfilled") await read.value.cancel().catch(() => undefined);
    throw stat.status === "rejected" ? stat.reason : (read as PromiseRejectedResult).reason;
  }
  const source = read.value;
  // `f.txt/` or `f.txt/.` names a directory (POSIX): the filesystem drops the tail, so a file there would be
  // shared under its own name. ENOTDIR instead, as read, write, edit and delete answer; nothing is uploaded.
  if (directoryForm(path) !== null && (stat.value as { isDirectory?: unknown }).isDirectory !== true) {
    await source.cancel().catch(() => undefined);
    throw new WorkspaceFsError("ENOTDIR", "stat", path);
  }
  const Fixed = (globalThis as { FixedLengthStream?: FixedLengthStreamCtor }).FixedLengthStream;
  if (typeof Fixed !== "function") {
    await source.cancel().catch(() => undefined);
    throw new Error(FIXED_LENGTH_STREAM_MISSING);
  }
  let sized: InstanceType<FixedLengthStreamCtor>;
  try {
    sized = new Fixed(stat.value.size);
  } catch (error) {
    await source.cancel(error).catch(() => undefined);
    throw error;
  }
  const reader = source.getReader();
  const pumping = pump(reader, sized.writable.getWriter());
  pumping.catch(() => undefined);
  try {
    await c.bucket.put(key, sized.readable, { httpMetadata, customMetadata });
  } catch (error) {
    // Stop reading the file, and release a write stuck on backpressure when
    // the put never took the stream.
    reader.cancel(error).catch(() => undefined);
    if (!sized.readable.locked) sized.readable.cancel(error).catch(() => undefined);
    throw error;
  }
  await pumping;

  const url = new URL(c.s3.endpoint);
  return presignGetUrl({
    host: url.host,
    origin: url.origin,
    canonicalUri: `/${uriEncode(c.s3.bucket, true)}/${uriEncode(key, false)}`,
    accessKeyId: c.s3.accessKeyId,
    secretAccessKey: c.s3.secretAccessKey,
    region: c.s3.region,
    service: c.s3.service,
    date: signedAt,
    expiresIn,
  });
}

/**
 * Copies `reader` into `writer` one chunk at a time, waiting for each write
 * (backpressure), so memory stays bounded by the streams' queues. On a read or
 * write error both ends are torn down and the error rethrown.
 */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, writer: WritableStreamDefaultWriter<Uint8Array>): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await writer.write(value);
    }
    await writer.close();
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    writer.abort(error).catch(() => undefined);
    throw error;
  }
}
