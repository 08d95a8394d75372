/**
 * Issue 20, thirty-fourth attack run: a span's `error.message` keeps the credential of an
 * `authorization=<scheme> <credential>` pair whenever the scheme is not `Bearer`. Rule 5 of
 * docs/observability.md redacts the value after `authorization=` (also at the end of a longer name, such as
 * `HTTP_AUTHORIZATION=` — the CGI/WSGI name of the header in an environment dump — or
 * `PROXY_AUTHORIZATION=`), and the value runs to the next whitespace: with `Basic`, `Token`, `Digest`, … that
 * value is the scheme word, so the scheme becomes `[REDACTED]` and the credential after it — for `Basic`,
 * `user:password` in plain base64 — reaches the tracing backend in full, right beside a `[REDACTED]` that says it
 * was handled. The docs promise for the one scheme handled (`Bearer` is redacted first) that
 * "`authorization=Bearer abc` keeps no part of the credential", and rule 4 already knows the IANA schemes for the
 * `Authorization:` header form; the `=` form does not use them.
 * Tried: sanitizeErrorMessage directly and through a stub call's span (`ws.stub().fs.stat` of a missing path,
 * as test/node/observe-sanitize.test.ts does) with `HTTP_AUTHORIZATION=Basic …`, `authorization=Token …`,
 * `PROXY_AUTHORIZATION=Basic …`, and an .env-style quoted `AUTHORIZATION="Basic …"`.
 * Held: `authorization=Bearer x`, `Authorization: Basic x` (header form, any IANA scheme), URL userinfo, cookies,
 * `AWS_SECRET_ACCESS_KEY=`, `client_secret=`, `token=` in a query, 512-character cut, control characters.
 * Found (medium — a secret leaked to the tracing backend: a Basic credential is the password itself; 4 of 4 shapes,
 * deterministic): `upload failed: HTTP_AUTHORIZATION=Basic dXNlcjpodW50ZXIy rejected` is recorded as
 * `upload failed: HTTP_AUTHORIZATION=[REDACTED] dXNlcjpodW50ZXIy rejected`; `authorization=Token ghp_SECRET1` as
 * `authorization=[REDACTED] ghp_SECRET1`.
 * Suggested fix: src/observer.ts SECRET_PAIR — after the name and `=`, take an optional opening quote and an
 * optional `(AUTH_SCHEMES)\s+` before the value (as AUTHORIZATION_HEADER does), so the credential word is
 * redacted with it (`=[REDACTED]`, or `=Basic [REDACTED]`; either is accepted below).
 * Fixed: src/observer.ts SECRET_PAIR takes spaces around `=`, an optional opening quote (a quoted value runs to its
 * closing quote) and an optional known scheme, kept as rule 4 keeps it (`HTTP_AUTHORIZATION=Basic [REDACTED]`,
 * `AUTHORIZATION="Basic [REDACTED]"`); the header rule also matches after `_` (`HTTP_AUTHORIZATION: Basic …`), and
 * new rules cover `X-Api-Key:` / `access_token:`-style pairs and JSON members `"token":"…"` (issue 20, run 34,
 * fixer SR). Siblings: test/node/fix34/span-redaction-pairs.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type WorkspaceObserver } from "../../../src/index.js";
import { sanitizeErrorMessage } from "../../../src/observer.js";

/** Accepts what a fix may record in place of `<scheme> <credential>`: one `[REDACTED]`, two, or the scheme kept. */
function redactedPair(prefix: string, name: string, scheme: string, suffix: string): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${esc(prefix)}${esc(name)}=(\\[REDACTED\\]|\\[REDACTED\\] \\[REDACTED\\]|${esc(scheme)} \\[REDACTED\\])${esc(suffix)}$`);
}

describe("attack34b: authorization=<scheme> <credential> keeps the credential", () => {
  it.each([
    ["upload failed: ", "HTTP_AUTHORIZATION", "Basic", "dXNlcjpodW50ZXIy", " rejected"],
    ["GET /api failed: ", "authorization", "Token", "ghp_SECRET1", " (401)"],
    ["env: ", "PROXY_AUTHORIZATION", "Basic", "YWxpY2U6czNjcjN0", " HOME=/root"],
  ])("%s%s=%s <credential> → the credential is redacted", (prefix, name, scheme, credential, suffix) => {
    const recorded = sanitizeErrorMessage(`${prefix}${name}=${scheme} ${credential}${suffix}`);
    // Was: `${prefix}${name}=[REDACTED] ${credential}${suffix}` — the credential in full.
    expect(recorded).not.toContain(credential);
    expect(recorded).toMatch(redactedPair(prefix, name, scheme, suffix));
  });

  it("an .env-style quoted value: AUTHORIZATION=\"Basic <credential>\" keeps no part of the credential", () => {
    const recorded = sanitizeErrorMessage('config: AUTHORIZATION="Basic dXNlcjpodW50ZXIy" ignored');
    // Was: `config: AUTHORIZATION=[REDACTED] dXNlcjpodW50ZXIy" ignored`.
    expect(recorded).not.toContain("dXNlcjpodW50ZXIy");
  });

  it("through a stub call: the span's error.message keeps the Basic credential", async () => {
    const recorded: Record<string, unknown>[] = [];
    const observer: WorkspaceObserver = {
      async span(_name, attributes, run) {
        const fields: Record<string, unknown> = { ...attributes };
        try {
          return await run({ setAttribute: (k, v) => void (fields[k] = v) });
        } finally {
          recorded.push(fields);
        }
      },
    };
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), observer });
    const thrown = await ws.stub().fs.stat("/x HTTP_AUTHORIZATION=Basic dXNlcjpodW50ZXIy").then(
      () => "",
      (e: Error) => e.message,
    );
    await ws.close();
    expect(thrown).toBe("ENOENT: no such file or directory, stat: /x HTTP_AUTHORIZATION=Basic dXNlcjpodW50ZXIy");
    const message = String(recorded.at(-1)?.["error.message"]);
    // Was: "ENOENT: no such file or directory, stat: /x HTTP_AUTHORIZATION=[REDACTED] dXNlcjpodW50ZXIy".
    expect(message).not.toContain("dXNlcjpodW50ZXIy");
    expect(message).toMatch(redactedPair("ENOENT: no such file or directory, stat: /x ", "HTTP_AUTHORIZATION", "Basic", ""));
  });
});
