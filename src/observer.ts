/**
 * Observer spans (spec 01 §5.4, spec 04 §4): a hook around backend connects,
 * sync, command spawns, assets publishing and every RPC filesystem stub call.
 *
 * @module
 */
import { valueCut } from "./util/cut.js";

/** One span attribute value (OpenTelemetry's primitive attribute types). */
export type WorkspaceAttributeValue = boolean | number | string;
/** Span attributes by name, e.g. `workspace.fs.path`; `undefined` values are dropped before the span starts. */
export type WorkspaceAttributes = Readonly<Record<string, WorkspaceAttributeValue | undefined>>;

/** A span in progress: attributes may be added while it runs. */
export interface WorkspaceSpan {
  /**
   * Sets (or replaces) one attribute; an `undefined` value is ignored. The
   * library adds result attributes on success (`workspace.fs.entries`,
   * `workspace.sync.pushed`, `workspace.runtime.id`, …) and, on failure,
   * `error.name` (for `Error` instances) and `error.message` (each with
   * control characters blanked, secrets redacted, at most 512 characters) before
   * rethrowing (spec 04 §4).
   */
  setAttribute(key: string, value: WorkspaceAttributeValue | undefined): void;
}

/** Receives one span per observed operation; must call `run` at once and return its promise. */
export interface WorkspaceObserver {
  /**
   * Wraps one operation (spec 04 §4): `name` is `workspace.<area>.<op>`
   * (e.g. `workspace.fs.readFile`, `workspace.connect`), `attributes` its
   * start attributes (`workspace.fs.path`, …; an implementation drops
   * `undefined` values). Each is a boolean, a finite number or a string of at
   * most 4,096 characters: a caller's array, object, `NaN` or bigint where a
   * path or mode goes arrives as a short text (its JSON, at most 64
   * characters then `… (<n> characters)`). Must call `run` once, at once, and return its
   * promise's outcome unchanged: a value `run` resolves to, or an error it
   * rejects with, must reach the caller.
   */
  span<T>(name: string, attributes: WorkspaceAttributes, run: (span: WorkspaceSpan) => Promise<T>): Promise<T>;
}

const noopSpan: WorkspaceSpan = { setAttribute() {} };

/** The default observer: runs the callback with a span that records nothing, and returns its promise as-is. */
export const noopObserver: WorkspaceObserver = {
  span: (_name, _attributes, run) => run(noopSpan),
};

/** Longest `error.message` attribute, in UTF-16 code units (spec 04 §4). */
export const MAX_ERROR_MESSAGE_CHARS = 512;

/** How much of a message is looked at before redacting (bounds the work on a huge message). */
const SANITIZE_INPUT_CHARS = 65_536;

/**
 * Schemes of an HTTP `Authorization` header (IANA HTTP Authentication
 * Scheme registry plus common non-registered ones): after
 * `Authorization: <scheme>` the next word is the credential.
 */
const AUTH_SCHEMES = "basic|bearer|digest|dpop|gnap|hoba|mutual|negotiate|ntlm|oauth|privatetoken|scram-sha-1|scram-sha-256|token|vapid|aws4-hmac-sha256";

/**
 * `scheme://userinfo@` — a URL's credentials (RFC 3986 §3.2.1). Also with one
 * (or three) slashes, as a URL reads after path normalisation
 * (`/https:/x:tok@host`). The scheme is at most 32 characters (bounding the
 * work); userinfo runs to the last `@` before `/`, `?`, `#` or whitespace.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/{1,3})([^\s/?#]*)@/gi;
/**
 * `Authorization: [<scheme>] <credential>` / `Proxy-Authorization: …` as HTTP libraries print headers; also at
 * the end of a `_`/`-` joined name (`HTTP_AUTHORIZATION: Basic …`, the CGI name in an environment dump), never
 * inside a word (`preauthorization:`); the credential stops before a quote (`"Authorization: Basic x"]` keeps
 * its `"]`) unless it starts with one (issue 20, run 34, fixer SR).
 */
const AUTHORIZATION_HEADER = new RegExp(`(?<![a-z0-9])((?:proxy-)?authorization\\s*:\\s*)(?:(${AUTH_SCHEMES})\\s+)?(?:[^\\s"']+|\\S+)`, "gi");

/** `Cookie: …` / `Set-Cookie: …` as HTTP libraries print headers: the value runs to the end of the line. */
const COOKIE_HEADER = /\b((?:set-)?cookie\s*:[ \t]*)[^\r\n]+/gi;
/** The credential names of the pair rules, matched in any case (a name is, or ends with, one of them). */
const SECRET_NAMES = "authorization|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|password|passwd|secret|cookie|credentials?";
/**
 * `<name>=<value>` where the name is, or ends with, a credential's name — `AWS_SECRET_ACCESS_KEY=`,
 * `GITHUB_TOKEN=`, `db_password=`, `client_secret=` — as environment dumps, query strings and .env files show
 * them; spaces may surround the `=` (`password = x`; not `==`, `=>`). The value is a `"…"` or `'…'` string to its
 * closing quote (to the end of the message when it has none), or runs to the next whitespace or `&`; in either
 * form a leading HTTP authentication scheme (`Basic`, `Token`, … as {@link AUTH_SCHEMES}) is kept and the
 * credential after it redacted — `HTTP_AUTHORIZATION=Basic dXNl…` → `HTTP_AUTHORIZATION=Basic [REDACTED]`
 * (issue 20, run 34, fixer SR). After a spaced `=`, a value starting with `)`, `}`, `]`, `;` or `,` is code
 * (`BEGIN{ password = }`) and is kept. Groups: 1 name and `=`, then per form quote / scheme / closing quote.
 */
const SECRET_PAIR = new RegExp(
  `((?:${SECRET_NAMES}) *=(?![=>]) *)(?:"(?:(${AUTH_SCHEMES}) +)?[^"]*("?)|'(?:(${AUTH_SCHEMES}) +)?[^']*('?)|(?:(${AUTH_SCHEMES}) +)?[^\\s&]+)`,
  "gi",
);
/**
 * `<name>: <value>` as headers and YAML show them, for names that say what they hold: `api_key` / `api-key` /
 * `apikey`, or a `-`/`_` joined name ending with a credential's name (`X-Api-Key:`, `X-Auth-Token:`,
 * `Private-Token:`, `access_token:`, `db_password:`). Bare `token:` / `password:` / `secret:` are left alone
 * (`Unexpected token: }`), as is a name inside a word or path (`/srv/db_password:`); the value runs to the next
 * whitespace or `&`, after an optional scheme (issue 20, run 34, fixer SR).
 */
const SECRET_COLON_PAIR = new RegExp(
  `(?<![\\w./-])((?:(?:[a-z0-9]+[-_])+(?:${SECRET_NAMES})|api[-_]?key) *:(?!:) *)(?:(${AUTH_SCHEMES}) +)?([^\\s&]+)`,
  "gi",
);
/**
 * A JSON member `"<name>": "<string>"` whose name is, or ends with, a credential's name (`"token"`,
 * `"password"`, `"accessToken"`, `"client_secret"`): the string's content, to its closing quote (escapes
 * skipped), becomes `[REDACTED]`, after an optional scheme (issue 20, run 34, fixer SR).
 */
const SECRET_JSON_MEMBER = new RegExp(
  `("[a-z0-9_.-]{0,64}(?:${SECRET_NAMES})"\\s*:\\s*")(?:(${AUTH_SCHEMES}) +)?(?:[^"\\\\]|\\\\.)*("?)`,
  "gi",
);

/** The `[REDACTED]` a pair rule writes: the kept scheme (and its space) first when there is one. */
function redactedValue(scheme: string | undefined): string {
  return scheme ? `${scheme} [REDACTED]` : "[REDACTED]";
}

/**
 * A message safe to put on a span (spec 04 §4, extended for credentials):
 * control characters (U+0000–U+001F, U+007F) become spaces; the userinfo of
 * a URL is redacted (`https://x:tok@host` becomes
 * `https://x:[REDACTED]@host`, a user-only `https://tok@host` becomes
 * `https://[REDACTED]@host`); `Bearer <t>` becomes `Bearer [REDACTED]`;
 * an HTTP header `Authorization: <scheme> <credentials>` (or
 * `Proxy-Authorization:`, also after a `_`-joined name as `HTTP_AUTHORIZATION:`;
 * any scheme such as `Basic`, `Digest`, `Token`, or
 * no scheme) keeps the scheme and redacts the credential; a JSON member
 * `"<name>": "<string>"` ({@link SECRET_JSON_MEMBER}) and a colon pair with a
 * self-describing name such as `X-Api-Key:`, `api_key:` or `access_token:`
 * ({@link SECRET_COLON_PAIR}) get their value redacted; the value after
 * `authorization=`, `token=`, `api_key=` / `api-key=` / `apikey=`,
 * `access_key=` / `secret_key=` / `private_key=` (also `-` or nothing between),
 * `password=`, `passwd=`, `secret=`, `cookie=` or `credential(s)=` (any case, also
 * as the end of a longer name such as `access_token=` or `AWS_SECRET_ACCESS_KEY=`;
 * spaces may surround the `=`) becomes `[REDACTED]` — a quoted value to its
 * closing quote, an unquoted one to the next whitespace or `&`, and a leading
 * known scheme is kept (`HTTP_AUTHORIZATION=Basic [REDACTED]`, {@link SECRET_PAIR});
 * a `Cookie:` or `Set-Cookie:` header's value, to the end of
 * its line, becomes `[REDACTED]`; the result is
 * cut to {@link MAX_ERROR_MESSAGE_CHARS} characters (one fewer when the cut
 * would split a surrogate pair, as {@link clipAttribute}).
 *
 * `Bearer` is redacted first, so `authorization=Bearer abc` leaves no part
 * of the credential (`authorization=Bearer [REDACTED]`). Only the first 65,536 characters are examined, and
 * every rule is linear in them, so the work is bounded for any input (issue 20, run 34, fixer SR: pairs).
 *
 * @example
 * ```ts
 * sanitizeErrorMessage("GET /x?token=abc&page=2 failed\nAuthorization: Bearer eyJhbGciOi");
 * // "GET /x?token=[REDACTED]&page=2 failed Authorization: Bearer [REDACTED]"
 * sanitizeErrorMessage("push to https://x:art_v2_abc@artifacts.example/git/r.git failed");
 * // "push to https://x:[REDACTED]@artifacts.example/git/r.git failed"
 * ```
 */
export function sanitizeErrorMessage(message: string): string {
  const redacted = clipAttribute(String(message), SANITIZE_INPUT_CHARS)
    // A cookie header's whole value (several `name=value;` pairs) to the end of its line.
    .replace(COOKIE_HEADER, "$1[REDACTED]")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(URL_USERINFO, (_m, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(":");
      return `${scheme}${colon < 0 ? "[REDACTED]" : `${userinfo.slice(0, colon)}:[REDACTED]`}@`;
    })
    // A token stops before a quote (RFC 6750 §2.1 b64token has none), so `"Bearer x"}` keeps its `"}`; a value
    // that starts with a quote is redacted whole (issue 20, run 34, fixer SR).
    .replace(/\bBearer\s+(?:[^\s"']+|\S+)/gi, "Bearer [REDACTED]")
    .replace(AUTHORIZATION_HEADER, (_m, prefix: string, scheme: string | undefined) => `${prefix}${scheme ? `${scheme} ` : ""}[REDACTED]`)
    .replace(SECRET_JSON_MEMBER, (_m, prefix: string, scheme: string | undefined, close: string) => `${prefix}${redactedValue(scheme)}${close}`)
    .replace(SECRET_COLON_PAIR, (m: string, prefix: string, scheme: string | undefined, value: string, at: number, text: string) =>
      // `cat: db_password: No such file or directory` — an error phrase, not a value (issue 20, run 34, fixer SR)
      !scheme && /^[A-Z][a-z]+$/.test(value) && /^ [a-z]/.test(text.slice(at + m.length, at + m.length + 2))
        ? m
        : `${prefix}${redactedValue(scheme)}`)
    .replace(
      SECRET_PAIR,
      (m: string, prefix: string, dqScheme?: string, dqClose?: string, sqScheme?: string, sqClose?: string, scheme?: string) => {
        const quote = m.charAt(prefix.length);
        if (quote === '"') return `${prefix}"${redactedValue(dqScheme)}${dqClose ?? ""}`;
        if (quote === "'") return `${prefix}'${redactedValue(sqScheme)}${sqClose ?? ""}`;
        // `awk: cmd. line:1: BEGIN{ password = }` — code, not a value: a spaced `=` before a closing bracket or
        // separator keeps the text (issue 20, run 34, fixer SR)
        if (!scheme && prefix.endsWith(" ") && /^[)}\];,]/.test(m.slice(prefix.length))) return m;
        return `${prefix}${redactedValue(scheme)}`;
      },
    );
  return clipAttribute(redacted, MAX_ERROR_MESSAGE_CHARS);
}

/**
 * The `error.name` of a thrown value: for an `Error`, its `name` sanitised as
 * a message is ({@link sanitizeErrorMessage}: control characters blanked,
 * secrets redacted, at most {@link MAX_ERROR_MESSAGE_CHARS} characters — a
 * name is any string code chose); `undefined` for anything else or a name
 * that cannot be read (never throws).
 */
export function errorNameOf(error: unknown): string | undefined {
  try {
    return error instanceof Error ? sanitizeErrorMessage(String(error.name)) : undefined;
  } catch {
    return undefined;
  }
}

/** The text of a thrown value: an Error's message, else `String(value)` (never throws). */
function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "(an error that cannot be printed)";
  }
}

/**
 * Records a failure on `span` (spec 04 §4): `error.name` for an `Error`
 * instance ({@link errorNameOf}), and `error.message` sanitised with {@link sanitizeErrorMessage}.
 * The span's own failures are swallowed.
 */
export function recordSpanError(span: WorkspaceSpan, error: unknown): void {
  try {
    const name = errorNameOf(error);
    if (name !== undefined) span.setAttribute("error.name", name);
    span.setAttribute("error.message", sanitizeErrorMessage(messageOf(error)));
  } catch {
    /* an observer's failure never replaces the operation's error */
  }
}

/**
 * Runs `run` inside `observer.span(name, attributes)` (spec 04 §4).
 * `undefined` attributes are dropped before the observer sees them. On
 * success `onResult` may add result attributes (its errors are swallowed);
 * on failure `error.name` and a sanitised `error.message` are set and the
 * error is rethrown unchanged.
 *
 * @param observer - The Workspace's observer.
 * @param name - The span name, e.g. `workspace.sync.push`.
 * @param attributes - Start attributes.
 * @param run - The operation.
 * @param onResult - Adds result attributes from the operation's result.
 * @returns What `run` resolves to.
 */
export function withSpan<T>(
  observer: WorkspaceObserver,
  name: string,
  attributes: WorkspaceAttributes,
  run: () => Promise<T>,
  onResult?: (result: T, span: WorkspaceSpan) => void,
): Promise<T> {
  return observer.span(name, definedAttributes(attributes), async (span) => {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      recordSpanError(span, error);
      throw error;
    }
    if (onResult) {
      try {
        onResult(result, span);
      } catch {
        /* result attributes are best effort (spec 04 §4) */
      }
    }
    return result;
  });
}

/**
 * Longest string attribute value a span gets, in UTF-16 code units: a path
 * or pattern longer than this (they are recorded before they are checked) is
 * cut, without splitting a surrogate pair.
 */
export const MAX_ATTRIBUTE_CHARS = 4096;

/** `value` cut to `max` UTF-16 code units, one fewer when the cut would split a surrogate pair. */
export function clipAttribute(value: string, max: number = MAX_ATTRIBUTE_CHARS): string {
  if (value.length <= max) return value;
  const high = value.charCodeAt(max - 1);
  return value.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}

/**
 * `attributes` without its `undefined` values (a new object), each value a {@link WorkspaceAttributeValue}: a
 * boolean or finite number as given, a string cut to {@link MAX_ATTRIBUTE_CHARS} ({@link clipAttribute}), anything
 * else — a caller's array or object where a path or mode goes, `NaN`, a bigint — as a short text
 * (`valueCut` from `util/cut.ts`: `NaN`, an array as JSON, at most 64 characters and `… (<n> characters)`). No array reaches an observer, whatever a caller passed.
 */
export function definedAttributes(attributes: WorkspaceAttributes): Record<string, WorkspaceAttributeValue> {
  const out: Record<string, WorkspaceAttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    out[key] = typeof value === "string" ? clipAttribute(value) : typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) ? value : valueCut(value);
  }
  return out;
}
