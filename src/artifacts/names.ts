/**
 * Repository names and session ids (spec 04 §3.2). A session-scoped client
 * stores `<session>__<local>`; `__` is therefore reserved in session ids and
 * in scoped local names.
 *
 * @module
 */
import { InvalidRepoNameError, InvalidSessionIdError } from "./errors.js";

/** `R` of spec 04 §3.2: a letter or digit, then letters, digits, `.`, `_`, `-`. */
export const ARTIFACT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Separator between session id and local name in a stored name. */
export const SESSION_SEPARATOR = "__";

const PATTERN_REASON = "must start with a letter or digit and contain only letters, digits, '.', '_' and '-'";
const SEPARATOR_REASON = "must not contain '__' (it separates the session id from the name)";

/**
 * Checks a session id: `undefined`/`null` → `undefined` (unscoped); otherwise a
 * non-empty string matching {@link ARTIFACT_NAME_PATTERN} without `__`.
 *
 * @throws InvalidSessionIdError `EINVALIDSESSION` otherwise.
 */
export function checkSessionId(sessionId: unknown): string | undefined {
  if (sessionId === undefined || sessionId === null) return undefined;
  if (typeof sessionId !== "string") throw new InvalidSessionIdError(String(sessionId), `must be a string or null (got ${typeof sessionId})`);
  if (sessionId === "") throw new InvalidSessionIdError(sessionId, "must not be empty (pass null or leave it out for unscoped names)");
  if (!ARTIFACT_NAME_PATTERN.test(sessionId)) throw new InvalidSessionIdError(sessionId, PATTERN_REASON);
  if (sessionId.includes(SESSION_SEPARATOR)) throw new InvalidSessionIdError(sessionId, SEPARATOR_REASON);
  return sessionId;
}

/**
 * Checks a caller's repository name and returns the stored name:
 * `<session>__<name>` when scoped, `name` otherwise.
 *
 * @throws InvalidRepoNameError `EINVALIDNAME` — empty, not a string, failing
 *   {@link ARTIFACT_NAME_PATTERN}, or (scoped only) containing `__`.
 */
export function storedName(name: unknown, sessionId: string | undefined): string {
  if (typeof name !== "string") throw new InvalidRepoNameError(String(name), `must be a string (got ${typeof name})`);
  if (name === "") throw new InvalidRepoNameError(name, "must not be empty");
  if (!ARTIFACT_NAME_PATTERN.test(name)) throw new InvalidRepoNameError(name, PATTERN_REASON);
  if (sessionId === undefined) return name;
  if (name.includes(SESSION_SEPARATOR)) throw new InvalidRepoNameError(name, `${SEPARATOR_REASON} in a session-scoped client`);
  return `${sessionId}${SESSION_SEPARATOR}${name}`;
}

/**
 * The caller's name for a stored name, or `undefined` when it is not one of
 * this session's. Scoped: the `<session>__` prefix followed by a remainder
 * that is a valid scoped local name ({@link ARTIFACT_NAME_PATTERN}, no
 * `__`) — exactly the names {@link storedName} can produce for this session,
 * so session `chat_`'s `chat___notes` is not session `chat`'s `_notes`.
 * Unscoped: the stored name itself.
 */
export function localName(stored: string, sessionId: string | undefined): string | undefined {
  if (sessionId === undefined) return stored;
  const prefix = `${sessionId}${SESSION_SEPARATOR}`;
  if (!stored.startsWith(prefix)) return undefined;
  const rest = stored.slice(prefix.length);
  return ARTIFACT_NAME_PATTERN.test(rest) && !rest.includes(SESSION_SEPARATOR) ? rest : undefined;
}
