/**
 * `ws:assets` (spec 04 §1.10) from a JavaScript run in real workerd: the
 * factory's option check and connect-time check, the access rule, every
 * argument message, duration strings, path confinement, and `publish`
 * uploading the file's bytes to a real local R2 binding (`ASSETS_BUCKET`)
 * under the URL it returns.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { ASSETS_WRITE_ACCESS_MESSAGE, createAssetsModule, type AssetsModuleOptions } from "../../../src/modules/assets.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const ASSETS_ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const NOW = Date.parse("2026-01-02T03:04:05Z");

interface RunOptions {
  module?: AssetsModuleOptions;
  access?: "read" | "read-write";
  /** `false`: the Workspace has no assets publisher. */
  assets?: boolean;
  setup?: (ws: Workspace) => Promise<void>;
}

/** Runs isolate `source` on a JavaScript backend importing `ws:assets`, in a fresh Durable Object; its result with text output. */
async function run(source: string, options: RunOptions = {}) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "s-1",
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          modules: { "ws:assets": createAssetsModule(options.module) },
          ...(options.access ? { access: options.access } : {}),
        }),
      ],
      ...(options.assets === false
        ? {}
        : { assets: (w: Workspace) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: { bucket: "agent-assets", accountId: ACCOUNT }, env: ASSETS_ENV, now: () => NOW }) }),
    });
    try {
      await ws.fs.mkdir("/workspace/out", { recursive: true });
      await options.setup?.(ws);
      return await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
    } finally {
      await ws.close();
    }
  });
}

/** Isolate code returning, for each `publish(...)` argument list in `calls`, `{ ok }` or `{ error: [name, message, code] }`. */
function attempts(calls: readonly string[]): string {
  return `import { publish } from "ws:assets";
    const attempt = async (...args) => {
      try { return { ok: await publish(...args) }; } catch (e) { return { error: [e.name, e.message, e.code ?? null] }; }
    };
    export default async () => {
      const out = [];
      ${calls.map((c) => `out.push(await attempt(${c}));`).join("\n      ")}
      return out;
    };`;
}

function valueOf(r: { exitCode: number; stderr: string; value?: unknown }): unknown {
  if (r.exitCode !== 0) throw new Error(`the JavaScript run failed (${r.exitCode}): ${r.stderr}`);
  return r.value;
}

/** The R2 object a presigned URL names. */
async function objectOf(url: string) {
  const { pathname } = new URL(url);
  expect(pathname.startsWith("/agent-assets/")).toBe(true);
  const object = await env.ASSETS_BUCKET.get(decodeURIComponent(pathname.slice("/agent-assets/".length)));
  expect(object).not.toBeNull();
  return object!;
}

const expiresOf = (url: string) => new URL(url).searchParams.get("X-Amz-Expires");

describe("createAssetsModule options", () => {
  it("defaultExpiresAfterMs must be a finite number > 0", () => {
    const thrown = (options: unknown) => {
      try {
        createAssetsModule(options as AssetsModuleOptions);
        return "no throw";
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    };
    const message = "TypeError: createAssetsModule: defaultExpiresAfterMs must be a positive number.";
    expect([0, -5, Number.NaN, Number.POSITIVE_INFINITY, "3600000", null].map((v) => thrown({ defaultExpiresAfterMs: v }))).toEqual([
      message,
      message,
      message,
      message,
      message,
      message,
    ]);
    expect([thrown(undefined), thrown({}), thrown({ defaultExpiresAfterMs: 1 }), thrown({ defaultExpiresAfterMs: 0.5 })]).toEqual(["no throw", "no throw", "no throw", "no throw"]);
    expect(thrown(null)).toBe("TypeError: createAssetsModule(options): options must be an object, got null");
  });

  it("the description names the options, the default lifetime and the 7-day maximum", () => {
    const description = createAssetsModule().description!;
    expect(description).toContain("`publish(path, options?)`");
    for (const option of ["`expiresAfter`", "`filename`", "`disposition`", "`contentType`"]) expect(description).toContain(option);
    expect(description).toContain("default 1 h, at most 7 days");
    expect(createAssetsModule({ defaultExpiresAfterMs: 900_000 }).description).toContain("default 15 min, at most 7 days");
  });
});

describe("ws:assets publish", () => {
  it("uploads the file's bytes and returns a presigned URL to them (relative and absolute paths, metadata)", async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    const r = await run(
      `import { publish } from "ws:assets";
       export default async () => [await publish("out/data.bin"), await publish("/workspace/out/page.html", { filename: "Rapport é.html", disposition: "attachment" }), await publish("out/data.bin", { contentType: "application/x-custom" })];`,
      {
        setup: async (ws) => {
          await ws.fs.writeFile("/workspace/out/data.bin", bytes);
          await ws.fs.writeFile("/workspace/out/page.html", "<h1>hi</h1>");
        },
      },
    );
    const [binUrl, pageUrl, customUrl] = valueOf(r) as string[];
    expect(binUrl).toMatch(new RegExp(`^https://${ACCOUNT}\\.r2\\.cloudflarestorage\\.com/agent-assets/[0-9a-z]{26}/data\\.bin\\?X-Amz-Algorithm=AWS4-HMAC-SHA256&`));
    expect(expiresOf(binUrl)).toBe("3600");
    const bin = await objectOf(binUrl);
    expect(new Uint8Array(await bin.arrayBuffer())).toEqual(bytes);
    expect(bin.httpMetadata).toEqual({ contentType: "application/octet-stream", contentDisposition: 'inline; filename="data.bin"' });
    // No key prefix (unlike the publish tool), the path as resolved, the Workspace's session id.
    expect(bin.customMetadata).toEqual({ sourcePath: "/workspace/out/data.bin", sessionId: "s-1", expiresAt: "2026-01-02T04:04:05.000Z" });
    const page = await objectOf(pageUrl);
    expect(await page.text()).toBe("<h1>hi</h1>");
    expect(page.httpMetadata).toEqual({
      contentType: "text/html",
      contentDisposition: "attachment; filename=\"Rapport é.html\"; filename*=UTF-8''Rapport%20%C3%A9.html",
    });
    expect((await objectOf(customUrl)).httpMetadata?.contentType).toBe("application/x-custom");
    expect(new Set([binUrl, pageUrl, customUrl]).size).toBe(3);
  });

  it("expiresAfter: milliseconds or a duration string; the module default; capped at 7 days", async () => {
    const r = await run(
      attempts([`"f.txt", { expiresAfter: 1500 }`, `"f.txt", { expiresAfter: "2h30m" }`, `"f.txt", { expiresAfter: "90" }`, `"f.txt", { expiresAfter: "1D" }`, `"f.txt", { expiresAfter: 30 * 86400000 }`, `"f.txt", null`, `"f.txt", {}`]),
      { module: { defaultExpiresAfterMs: 60_000 }, setup: (ws) => ws.fs.writeFile("/workspace/f.txt", "f") },
    );
    const urls = (valueOf(r) as { ok: string }[]).map((x) => x.ok);
    expect(urls.map(expiresOf)).toEqual(["2", "9000", "90", "86400", "604800", "60", "60"]);
  });

  it("every argument error is a TypeError prefixed publish:", async () => {
    const r = await run(
      attempts([
        ``,
        `"f.txt", {}, 3`,
        `""`,
        `5`,
        `"f.txt", []`,
        `"f.txt", "1h"`,
        `"f.txt", { prefix: "x" }`,
        `"f.txt", { expiresAfter: 0 }`,
        `"f.txt", { expiresAfter: -1 }`,
        `"f.txt", { expiresAfter: true }`,
        `"f.txt", { expiresAfter: "1.5h" }`,
        `"f.txt", { expiresAfter: "0" }`,
        `"f.txt", { expiresAfter: "5w" }`,
        `"f.txt", { expiresAfter: "" }`,
        `"f.txt", { disposition: "download" }`,
        `"f.txt", { filename: 5 }`,
        `"f.txt", { contentType: ["text/plain"] }`,
      ]),
      { setup: (ws) => ws.fs.writeFile("/workspace/f.txt", "f") },
    );
    const durations = `(a duration is seconds, or <digits><s|m|h|d> segments such as "90", "30m", "2h30m", "1d")`;
    const positive = `publish: expiresAfter must be a positive number of milliseconds or a duration string such as "30m", "2h" or "1d", got`;
    expect((valueOf(r) as { error: unknown[] }[]).map((x) => x.error)).toEqual([
      ["TypeError", "publish: takes a path and an optional options object, got 0 arguments", null],
      ["TypeError", "publish: takes a path and an optional options object, got 3 arguments", null],
      ["TypeError", "publish: path must be a non-empty string, got an empty string", null],
      ["TypeError", "publish: path must be a non-empty string, got number", null],
      ["TypeError", "publish: options must be an object { expiresAfter, filename, disposition, contentType }, got an array", null],
      ["TypeError", "publish: options must be an object { expiresAfter, filename, disposition, contentType }, got string", null],
      ["TypeError", 'publish: unknown option "prefix" (options are expiresAfter, filename, disposition, contentType)', null],
      ["TypeError", `${positive} 0`, null],
      ["TypeError", `${positive} -1`, null],
      ["TypeError", `${positive} boolean`, null],
      ["TypeError", `publish: expiresAfter: invalid duration '1.5h' ${durations}`, null],
      ["TypeError", `publish: expiresAfter: duration must be positive (got '0') ${durations}`, null],
      ["TypeError", `publish: expiresAfter: unknown duration unit 'w' in '5w' ${durations}`, null],
      ["TypeError", `publish: expiresAfter: empty duration ${durations}`, null],
      ["TypeError", 'publish: disposition must be "inline" or "attachment", got "download"', null],
      ["TypeError", "publish: filename must be a string, got number", null],
      ["TypeError", "publish: contentType must be a string, got an array", null],
    ]);
  });

  it("the path is confined to the backend's root and must exist", async () => {
    const r = await run(attempts([`"missing.txt"`, `"/etc/passwd"`, `"../outside.txt"`, `"out"`]), {
      setup: (ws) => ws.fs.writeFile("/outside.txt", "secret"),
    });
    const errors = (valueOf(r) as { error: unknown[] }[]).map((x) => [x.error[2], x.error[1]]);
    expect(errors[0]).toEqual(["ENOENT", expect.stringContaining("/workspace/missing.txt")]);
    expect(errors[1]).toEqual(["EACCES", expect.stringContaining("paths must stay under /workspace")]);
    expect(errors[2]).toEqual(["EACCES", expect.stringContaining("paths must stay under /workspace")]);
    // A directory is not a file to publish: the assets client's EISDIR.
    expect(errors[3][0]).toBe("EISDIR");
  });

  it(`a read-only backend: "${ASSETS_WRITE_ACCESS_MESSAGE}" (before any argument check)`, async () => {
    const r = await run(attempts([`"f.txt"`, ``]), { access: "read", setup: (ws) => ws.fs.writeFile("/workspace/f.txt", "f") });
    expect((valueOf(r) as { error: unknown[] }[]).map((x) => x.error)).toEqual([
      ["Error", ASSETS_WRITE_ACCESS_MESSAGE, "EROFS"],
      ["Error", ASSETS_WRITE_ACCESS_MESSAGE, "EROFS"],
    ]);
  });

  it("a Workspace without assets: the backend's connect fails, saying to pass assets", async () => {
    const error = await run(`export default () => 1;`, { assets: false }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toContain("ws:assets needs the Workspace's assets publisher: pass assets to new Workspace({ assets: (ws) => createAssets({ ws, bucket, s3 }) })");
  });
});
