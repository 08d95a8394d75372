/**
 * AWS Signature Version 4 query-string signing ("presigned URLs") for GET,
 * on Web Crypto (`crypto.subtle`), so it runs unchanged in workerd and
 * Node ≥ 20 (spec 04 §1.6).
 *
 * @module
 */

import { toHex } from "../util/bytes.js";

const encoder = new TextEncoder();
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Longest lifetime SigV4 allows for a presigned URL: 7 days, in seconds. */
export const MAX_PRESIGN_SECONDS = 604800;

/**
 * AWS `UriEncode`: keeps `A-Za-z0-9-._~`, keeps `/` unless `encodeSlash`,
 * and writes every other UTF-8 byte as `%XX` (uppercase hex).
 *
 * @example
 * uriEncode("a b/é", false) // "a%20b/%C3%A9"
 * uriEncode("a/b", true)    // "a%2Fb"
 */
export function uriEncode(value: string, encodeSlash: boolean): string {
  let out = "";
  for (const ch of value) {
    if (UNRESERVED.test(ch) || (ch === "/" && !encodeSlash)) {
      out += ch;
      continue;
    }
    for (const byte of encoder.encode(ch)) out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** Input of {@link presignGetUrl}. */
export interface PresignGetUrlInput {
  /** Host header value that is signed, with a port when not the default (e.g. `"examplebucket.s3.amazonaws.com"`). */
  host: string;
  /**
   * Scheme + host (+ port) the URL starts with, without a trailing slash.
   * Default `https://<host>`.
   */
  origin?: string;
  /**
   * Canonical URI: the path exactly as it appears in the URL, already
   * encoded with {@link uriEncode} (e.g. `"/test.txt"`, `"/bucket/a%20b.png"`).
   */
  canonicalUri: string;
  /** Access key id (appears in the URL). */
  accessKeyId: string;
  /** Secret access key (used only to derive the signing key). */
  secretAccessKey: string;
  /** SigV4 region, e.g. `"us-east-1"` or `"auto"` for R2. */
  region: string;
  /** SigV4 service, usually `"s3"`. */
  service: string;
  /** Signing time: a `Date` or epoch **milliseconds**. */
  date: Date | number;
  /** URL lifetime in **seconds**: an integer from 1 to 604800 (7 days). */
  expiresIn: number;
}

/**
 * Builds a SigV4 presigned GET URL: `host` is the only signed header and the
 * payload is `UNSIGNED-PAYLOAD`. The query holds `X-Amz-Algorithm`,
 * `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders`
 * (sorted), then `X-Amz-Signature` (lowercase hex).
 *
 * @returns `origin + canonicalUri + "?" + query + "&X-Amz-Signature=" + signature`.
 * @throws RangeError when `expiresIn` is not an integer in 1..604800, or `date` is invalid.
 * @throws TypeError when `canonicalUri` does not start with `/`.
 */
export async function presignGetUrl(input: PresignGetUrlInput): Promise<string> {
  const { host, canonicalUri, accessKeyId, secretAccessKey, region, service, expiresIn } = input;
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_PRESIGN_SECONDS) {
    throw new RangeError(`presignGetUrl: expiresIn must be a whole number of seconds from 1 to ${MAX_PRESIGN_SECONDS} (got ${String(expiresIn)})`);
  }
  if (typeof canonicalUri !== "string" || !canonicalUri.startsWith("/")) {
    throw new TypeError("presignGetUrl: canonicalUri must be an encoded path starting with \"/\"");
  }
  const when = input.date instanceof Date ? input.date : new Date(input.date);
  if (Number.isNaN(when.getTime())) throw new RangeError("presignGetUrl: date must be a valid Date or epoch milliseconds");
  const amzDate = when.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${region}/${service}/aws4_request`;
  const params: [string, string][] = [
    ["X-Amz-Algorithm", "AWS4-HMAC-SHA256"],
    ["X-Amz-Credential", `${accessKeyId}/${scope}`],
    ["X-Amz-Date", amzDate],
    ["X-Amz-Expires", String(expiresIn)],
    ["X-Amz-SignedHeaders", "host"],
  ];
  const query = params
    .map(([k, v]) => [uriEncode(k, true), uriEncode(v, true)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalRequest = `GET\n${canonicalUri}\n${query}\nhost:${host}\n\nhost\nUNSIGNED-PAYLOAD`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${toHex(await sha256(canonicalRequest))}`;
  let key = await hmac(encoder.encode("AWS4" + secretAccessKey), day);
  for (const part of [region, service, "aws4_request"]) key = await hmac(key, part);
  const signature = toHex(await hmac(key, stringToSign));
  const origin = input.origin ?? `https://${host}`;
  return `${origin}${canonicalUri}?${query}&X-Amz-Signature=${signature}`;
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

async function hmac(key: ArrayBuffer | Uint8Array, text: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(text));
}

