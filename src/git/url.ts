/**
 * git's transport_anonymize_url (transport.c): `url` without its userinfo — `http://user:token@host/r.git` →
 * `http://host/r.git`, `user@host:path` → `host:path` — for every line that prints or records a URL (push's
 * `To <url>`, fetch's `From <url>`, pull's merge message, errors); a local path, a URL with no `@` before its path,
 * or a scheme with other characters than letters, digits, `+`, `.`, `-` is returned as given. `remote -v` and
 * `remote get-url` print the stored URL whole, as git does.
 */
export function anonymizeUrl(url: string): string {
  const at = url.indexOf("@");
  if (at < 0) return url;
  const rest = url.slice(at + 1);
  const scheme = url.indexOf("://");
  if (scheme < 0) {
    // Not a URL: `me@there:/path` (scp-like) only; a local path with an `@` is kept.
    if (!rest.includes(":") || url.slice(0, url.indexOf(":")).includes("/")) return url;
    return rest;
  }
  if (!/^[A-Za-z0-9+.-]*$/.test(url.slice(0, scheme))) return url;
  const slash = url.indexOf("/", scheme + 3);
  if (slash >= 0 && slash < at) return url; // an `@` past the first slash does not count
  return url.slice(0, scheme + 3) + rest;
}

/**
 * The URL as git's fetch prints it in `From <url>` and records it in FETCH_HEAD (hence pull's `Merge branch 'b' of
 * <url>`): anonymized, without trailing slashes and a trailing `.git` (store_updated_refs).
 */
export function displayFetchUrl(url: string): string {
  const anon = anonymizeUrl(url).replace(/\/+$/, "");
  return anon.length > 5 && anon.endsWith(".git") ? anon.slice(0, -4) : anon;
}
