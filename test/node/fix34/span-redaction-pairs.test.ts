/**
 * Issue 20, run 34, fixer SR — the neighbourhood of attack34b's span-authorization-pair-scheme-leaks-credential:
 * the `name=value` rule of sanitizeErrorMessage (docs/observability.md, "Errors", rule 5) redacted only to the next
 * whitespace, so `HTTP_AUTHORIZATION=Basic <credential>` redacted the scheme word and recorded the credential, a
 * quoted `.env` value kept everything after its first word, and the same secrets in other common shapes — the
 * CGI header name `HTTP_AUTHORIZATION: Basic …` (no word boundary after `_`), `X-Api-Key: …` / `api_key: …` /
 * `access_token: …`, JSON members `"token":"…"`, `password = …` with spaces — reached the tracing backend whole.
 * Each form below is redacted with the credential gone; the messages of the second table — written by real tools
 * on this machine (GNU coreutils 9.1, bash 5.2.15, gawk 5.2.1, git 2.39.5, Node 22) or the library itself — name
 * credential-like words and are recorded byte for byte as they are (only redaction, no cut: all are < 512).
 * The third part shows the work stays bounded on the pathological shapes of the new rules (65,536-character
 * inputs, each once: unclosed quotes, `_`-joined names with no colon, JSON names with no string value).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type WorkspaceObserver } from "../../../src/index.js";
import { sanitizeErrorMessage } from "../../../src/observer.js";

describe("fix34 SR: credential pairs are redacted in every common shape", () => {
  it.each([
    // name=<scheme> <credential>: the scheme is kept, as the header rule keeps it
    ["upload: HTTP_AUTHORIZATION=Basic dXNlcjpodW50ZXIy rejected", "upload: HTTP_AUTHORIZATION=Basic [REDACTED] rejected"],
    ["authorization=Token ghp_SECRET1 (401)", "authorization=Token [REDACTED] (401)"],
    ["PROXY_AUTHORIZATION=digest c2VjcmV0 HOME=/root", "PROXY_AUTHORIZATION=digest [REDACTED] HOME=/root"],
    ["GIT_TOKEN=AWS4-HMAC-SHA256 Credential=AKIA/x", "GIT_TOKEN=AWS4-HMAC-SHA256 [REDACTED]"],
    ["authorization=Bearer sk-1 x", "authorization=Bearer [REDACTED] x"],
    ["authorization=Basic", "authorization=[REDACTED]"],
    // quoted values (.env files, shell assignments): to the closing quote, the quotes kept
    ['config: AUTHORIZATION="Basic dXNlcjpodW50ZXIy" ignored', 'config: AUTHORIZATION="Basic [REDACTED]" ignored'],
    ["DB_PASSWORD='correct horse battery' x=1", "DB_PASSWORD='[REDACTED]' x=1"],
    ['API_KEY="sk live 1"&page=2', 'API_KEY="[REDACTED]"&page=2'],
    ['password="unterminated secret words', 'password="[REDACTED]'],
    ['token=""', 'token="[REDACTED]"'],
    // spaces around =
    ["password = hunter2 then", "password = [REDACTED] then"],
    ["client_secret =s3 x", "client_secret =[REDACTED] x"],
    ['secret = "two words" end', 'secret = "[REDACTED]" end'],
    // Authorization: after a _-joined name (CGI / WSGI environment dumps)
    ["environ: HTTP_AUTHORIZATION: Basic dXNlcjpodW50ZXIy x", "environ: HTTP_AUTHORIZATION: Basic [REDACTED] x"],
    ["HTTP_PROXY_AUTHORIZATION: c2VjcmV0", "HTTP_PROXY_AUTHORIZATION: [REDACTED]"],
    // header / YAML colon pairs with a name that says what it holds
    ["GET /x\nX-Api-Key: sk_live_1\nHost: h", "GET /x X-Api-Key: [REDACTED] Host: h"],
    ["api_key: abc123 next", "api_key: [REDACTED] next"],
    ["apikey:abc123", "apikey:[REDACTED]"],
    ["x-goog-api-key: AIzaSyX", "x-goog-api-key: [REDACTED]"],
    ["PRIVATE-TOKEN: glpat-xyz (401)", "PRIVATE-TOKEN: [REDACTED] (401)"],
    ["X-Auth-Token: Token abc", "X-Auth-Token: Token [REDACTED]"],
    ["config: access_token: ya29.a0 db_password: hunter2", "config: access_token: [REDACTED] db_password: [REDACTED]"],
    // JSON members: the string's content, escapes included
    ['401 {"token":"tok1","name":"bob"}', '401 {"token":"[REDACTED]","name":"bob"}'],
    ['{"password": "p\\"w\\\\", "user": "u"}', '{"password": "[REDACTED]", "user": "u"}'],
    ['{"accessToken":"ya29","client_secret" : "cs1","Authorization":"Basic dXNl"}', '{"accessToken":"[REDACTED]","client_secret" : "[REDACTED]","Authorization":"Basic [REDACTED]"}'],
    ['{"api_key":"unterminated', '{"api_key":"[REDACTED]'],
    // Bearer and Authorization: credentials stop before a closing quote, so the JSON around them survives
    ['{"authorization":"Bearer eyJ0.x","ok":false}', '{"authorization":"Bearer [REDACTED]","ok":false}'],
    ['headers: ["Authorization: Basic dXNl", "Host: h"]', 'headers: ["Authorization: Basic [REDACTED]", "Host: h"]'],
    ['Bearer "tok1" x', 'Bearer [REDACTED] x'],
    ["Authorization: 'sk-1' x", "Authorization: [REDACTED] x"],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeErrorMessage(input)).toBe(expected);
  });

  it.each([
    // GNU coreutils 9.1 / bash 5.2.15 / gawk 5.2.1 / git 2.39.5 / Node 22 messages naming credential-like words
    "cat: db_password: No such file or directory",
    "cat: /srv/x-api-key: No such file or directory",
    "bash: line 1: cd: x_token: Not a directory",
    "mkdir: cannot create directory ‘api_key’: File exists",
    "ls: cannot access 'secret_key:': No such file or directory",
    'bash: line 1: token == : syntax error: operand expected (error token is "== ")',
    "bash: -c: line 1: syntax error near unexpected token `='",
    "awk: cmd. line:1: BEGIN{ password = }",
    "error: token expected",
    "authorization failed",
    "Authorization failed for user bob",
    "preauthorization: pending",
    "Unexpected token: punc (})",
    "SyntaxError: Unexpected token '=' at lexer::token::Kind",
    "ENOENT: no such file or directory, open '/home/u/.secret/token'",
    "ENOENT: no such file or directory, stat: /srv/tokens/api_key.txt",
    "fatal: could not read Password for 'https://github.com': terminal prompts disabled",
    "git credential-cache exited; token != null; x => token => y",
    '{"tokens":3,"token_type":"bearer","name":"password"}',
  ])("%j is recorded unchanged", (message) => {
    expect(sanitizeErrorMessage(message)).toBe(message);
  });

  it("a stub call's span records the redacted pair; the caller's error is unchanged", async () => {
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
    const path = '/e/AUTHORIZATION="Token t0k en" X-Api-Key: k3y {"password":"pw"}';
    const thrown = await ws.stub().fs.stat(path).then(
      () => "",
      (e: Error) => e.message,
    );
    await ws.close();
    expect(thrown).toBe(`ENOENT: no such file or directory, stat: ${path}`);
    expect(recorded.at(-1)?.["error.message"]).toBe(
      'ENOENT: no such file or directory, stat: /e/AUTHORIZATION="Token [REDACTED]" X-Api-Key: [REDACTED] {"password":"[REDACTED]"}',
    );
  });

  it("pathological shapes of the new rules are bounded: 65,536 characters examined, at most 512 recorded", () => {
    const inputs = [
      'token=" '.repeat(9_000), // unclosed quotes: each runs to the end of the message once, no retry
      'password = "'.repeat(6_000),
      "a_".repeat(33_000), // a _-joined name that never reaches a colon
      `${"a-".repeat(33_000)}: x`,
      "x_token: ".repeat(8_000),
      '"a_token":"'.repeat(6_000),
      `{"password":"${"\\\\".repeat(30_000)}`,
      `"${"a".repeat(70_000)}token":"x"`,
    ];
    for (const input of inputs) {
      const out = sanitizeErrorMessage(input);
      expect(out.length).toBeLessThanOrEqual(512);
    }
    // an unclosed quote: the rest of the message is the value
    expect(sanitizeErrorMessage(`x password="${"w ".repeat(30_000)}`)).toBe('x password="[REDACTED]');
    expect(sanitizeErrorMessage("x_token: ".repeat(3))).toBe("x_token: [REDACTED] x_token: ");
  });
});
