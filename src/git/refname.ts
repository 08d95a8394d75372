/**
 * git's `check-ref-format` rule for a branch or tag name, pure: shared by the
 * typed API (ops/refs.ts, ops/repo.ts) and the CLI, which refuses such a name
 * before calling the client, as real git (exit 128).
 *
 * @module
 */

/**
 * Whether `name` is a valid branch or tag name (git's `check-ref-format`
 * rules for `refs/heads/<name>`): no `..`, `@{`, `//`, control characters,
 * space, `~^:?*[\`; no component starting with `.` or ending with `.lock`;
 * not starting with `-` or `/`, not ending with `/` or `.`; not `@` or `HEAD`.
 */
export function isValidRefName(name: string): boolean {
  if (name === "@" || name === "HEAD" || name.startsWith("-") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name) || name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  return name.split("/").every((part) => part !== "" && !part.startsWith(".") && !part.endsWith(".lock"));
}
