/**
 * git's path quoting and boolean config reading, pure (no repository access): shared by the typed API
 * (src/git/ops/diff.ts) and the command line (src/git/cli/), which may import only pure modules.
 *
 * @module
 */
import { GitError } from "./errors.js";

const encoder = new TextEncoder();

/**
 * git's `quote_c_style`: the name as is, or in `"…"` with C escapes and octal bytes. With `core.quotePath` on
 * (`fully`, the default) every byte from 0x80 up is quoted too; off (`core.quotePath false`), such bytes stay as they
 * are and only control characters, DEL, `"` and `\` make a name quoted (as git 2.39.5's `cq_must_quote`). With
 * `quoteSpace` (git's `QUOTE_PATH_QUOTE_SP`: `status -s` / `--porcelain=v1`) a name holding a space is quoted as well
 * (the space stays as is).
 */
export function quotePath(name: string, options: { quoteSpace?: boolean; fully?: boolean } = {}): string {
  const fully = options.fully !== false;
  const must = fully ? /[\u0000-\u001f"\\\u007f-\uffff]/ : /[\u0000-\u001f"\\\u007f]/;
  if (!must.test(name)) return options.quoteSpace && name.includes(" ") ? `"${name}"` : name;
  const escapes: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 0x22: '\\"', 0x5c: "\\\\" };
  let out = '"';
  for (const ch of name) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x80 && !fully) {
      out += ch;
      continue;
    }
    for (const b of encoder.encode(ch)) {
      if (escapes[b] !== undefined) out += escapes[b];
      else if (b < 0x20 || b >= 0x7f) out += "\\" + b.toString(8).padStart(3, "0");
      else out += String.fromCharCode(b);
    }
  }
  return out + '"';
}

/** git's `git_config_bool` of a value as isomorphic-git gives it (`undefined`: unset, `def`). */
export function gitConfigBool(value: unknown, key: string, def: boolean): boolean {
  if (value === undefined || value === null) return def;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  const text = String(value);
  const lower = text.toLowerCase();
  if (lower === "" || lower === "false" || lower === "no" || lower === "off") return false;
  if (lower === "true" || lower === "yes" || lower === "on") return true;
  if (/^[-+]?\d+[kmg]?$/i.test(text)) return !/^[-+]?0+[kmg]?$/i.test(text);
  throw new GitError("ECONFIG", `bad boolean config value '${text}' for '${key}'`);
}
