/**
 * Spec 04 §4 in real workerd: the `workspace.assets.publish` span of the
 * assets stub (real R2 binding), and the error sanitising rules every span
 * applies, rule by rule.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAssets } from "../../../src/assets/index.js";
import { MAX_ERROR_MESSAGE_CHARS, sanitizeErrorMessage, withSpan } from "../../../src/observer.js";
import { noopObserver } from "../../../src/index.js";
import { inObservedWorkspace, named, recordingObserver, rejection } from "./helpers.js";

const ASSETS_ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

describe("workspace.assets.publish", () => {
  it("records workspace.fs.path and workspace.assets.expires_after_ms; a failure records the error", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(
      observer,
      async (ws) => {
        await ws.fs.writeFile("/report.txt", "quarterly numbers\n");
        const assets = ws.stub().assets!;
        const url = await assets.publish("/report.txt", { expiresAfter: 1500 });
        expect(url).toMatch(/X-Amz-Expires=2&/);
        const key = decodeURIComponent(new URL(url).pathname.slice("/agent-assets/".length));
        expect(await (await env.ASSETS_BUCKET.get(key))!.text()).toBe("quarterly numbers\n");
        const error = await rejection(assets.publish("/missing.txt", { expiresAfter: 60_000 }));
        expect(error.code).toBe("ENOENT");
        // Direct use of the client (not through the stub) emits nothing.
        await ws.assets!.share("/report.txt", { expiresAfter: 1000 });
      },
      { assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" }, env: ASSETS_ENV }) },
    );
    expect(named(spans)).toEqual([
      ["workspace.assets.publish", { "workspace.fs.path": "/report.txt", "workspace.assets.expires_after_ms": 1500 }],
      [
        "workspace.assets.publish",
        {
          "workspace.fs.path": "/missing.txt",
          "workspace.assets.expires_after_ms": 60_000,
          "error.name": "WorkspaceFsError",
          "error.message": expect.stringMatching(/^ENOENT: .*\/missing\.txt$/),
        },
      ],
    ]);
  });
});

describe("error sanitising (spec 04 §4)", () => {
  it("blanks control characters", () => {
    expect(sanitizeErrorMessage("a\nb\tc\u0000d\u001fe\u007ff")).toBe("a b c d e f");
  });

  it("redacts authorization, token, api_key/api-key/apikey, password, secret and cookie values, any case", () => {
    expect(
      sanitizeErrorMessage(
        "authorization=abc token=t1 API_KEY=k1 api-key=k2 apikey=k3 Password=p1 secret=s1 COOKIE=c1 access_token=t2 x=keep",
      ),
    ).toBe(
      "authorization=[REDACTED] token=[REDACTED] API_KEY=[REDACTED] api-key=[REDACTED] apikey=[REDACTED] Password=[REDACTED] secret=[REDACTED] COOKIE=[REDACTED] access_token=[REDACTED] x=keep",
    );
  });

  it("a value runs to whitespace or &: the rest of a query string is kept", () => {
    expect(sanitizeErrorMessage("GET https://api.example.com/v1?token=abc123&page=2 failed")).toBe(
      "GET https://api.example.com/v1?token=[REDACTED]&page=2 failed",
    );
  });

  it("redacts Bearer tokens, including after authorization= and across a newline", () => {
    expect(sanitizeErrorMessage("401 from upstream: Bearer eyJhbGciOi.x.y rejected")).toBe("401 from upstream: Bearer [REDACTED] rejected");
    // The pair rule keeps a known scheme as the header rule does (issue 20, run 34, fixer SR); was "authorization=[REDACTED] [REDACTED]".
    expect(sanitizeErrorMessage("authorization=Bearer sk-123")).toBe("authorization=Bearer [REDACTED]");
    expect(sanitizeErrorMessage("bearer\nsk-456")).toBe("Bearer [REDACTED]");
  });

  it(`cuts the result to ${MAX_ERROR_MESSAGE_CHARS} characters`, () => {
    expect(MAX_ERROR_MESSAGE_CHARS).toBe(512);
    expect(sanitizeErrorMessage("x".repeat(100_000))).toBe("x".repeat(512));
    expect(sanitizeErrorMessage(`${"y".repeat(505)} token=abcdefgh`)).toBe(`${"y".repeat(505)} token=`);
  });

  it("withSpan: error.name only for Error instances; non-Error values give error.message only; result-attribute failures are swallowed", async () => {
    const { observer, spans } = recordingObserver();
    await expect(withSpan(observer, "t.string", {}, () => Promise.reject("password=pw1 failed"))).rejects.toBe("password=pw1 failed");
    class QuotaError extends Error {
      override name = "QuotaError";
    }
    const quota = new QuotaError("over quota for token=q9");
    await expect(withSpan(observer, "t.error", { "a.b": undefined, "c.d": 1 }, () => Promise.reject(quota))).rejects.toBe(quota);
    const value = await withSpan(observer, "t.ok", {}, async () => 7, () => {
      throw new Error("result attributes failed");
    });
    expect(value).toBe(7);
    expect(spans.map((s) => [s.name, s.outcome, s.attributes])).toEqual([
      ["t.string", "error", { "error.message": "password=[REDACTED] failed" }],
      ["t.error", "error", { "c.d": 1, "error.name": "QuotaError", "error.message": "over quota for token=[REDACTED]" }],
      ["t.ok", "ok", {}],
    ]);
  });

  it("noopObserver returns run's promise as-is", async () => {
    const promise = Promise.resolve("same");
    expect(noopObserver.span("x", {}, () => promise)).toBe(promise);
  });
});
