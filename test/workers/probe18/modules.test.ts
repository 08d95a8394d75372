/**
 * probe18 (fresh-user probe), in real workerd: the Workspace's `artifacts` (docs/artifacts.md
 * "Workspace, shell and ws:artifacts"), `ws:artifacts` and `ws:assets` (docs/modules-assets.md),
 * copied from the docs and then fed bad input from isolate code. The Artifacts binding is
 * `ArtifactsStandIn` (the documented in-memory stand-in); assets go to the local R2 bucket.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createArtifactsModule } from "../../../src/modules/artifacts.js";
import { createAssetsModule } from "../../../src/modules/assets.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

const ASSETS_ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

type Outcome = { ok: unknown } | { error: [string, string, string | null] };

/** Runs `calls` (`await attempt("module", "fn", ...args)` items) in a JavaScript run on a fresh Workspace. */
async function run(
  calls: string,
  o: { access?: "read" | "read-write"; binding?: ArtifactsStandIn; sessionId?: string; setup?: (ws: Workspace) => Promise<void> } = {},
): Promise<Outcome[]> {
  const source = `import * as artifacts from "ws:artifacts";
    import * as assets from "ws:assets";
    const mods = { artifacts, assets };
    const attempt = async (m, fn, ...args) => {
      try { return { ok: await mods[m][fn](...args) }; } catch (e) { return { error: [e.name, e.message, e.code ?? null] }; }
    };
    export default async () => [${calls}];`;
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: o.sessionId ?? "alice",
      artifacts: { binding: o.binding ?? new ArtifactsStandIn() },
      assets: (w: Workspace) =>
        createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" }, env: ASSETS_ENV }),
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          modules: { "ws:artifacts": createArtifactsModule(), "ws:assets": createAssetsModule({ defaultExpiresAfterMs: 3_600_000 }) },
          ...(o.access ? { access: o.access } : {}),
        }),
      ],
    });
    try {
      await ws.fs.mkdir("/workspace/report", { recursive: true });
      await ws.fs.writeFile("/workspace/report/summary.md", "# Summary\n");
      await o.setup?.(ws);
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
      if (r.exitCode !== 0) throw new Error(`the run failed: ${r.stderr}`);
      return r.value as Outcome[];
    } finally {
      await ws.close();
    }
  });
}
const err = (o: Outcome) => (o as { error: [string, string, string | null] }).error;
const ok = (o: Outcome) => (o as { ok: unknown }).ok;

describe("probe18 Workspace.artifacts", () => {
  it("the session-scope table: bob / null / absent+alice / absent+absent", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const binding = new ArtifactsStandIn();
      const mk = (artifacts: Record<string, unknown>, sessionId?: string) =>
        new Workspace({ storage: state.storage, artifacts: { binding, ...artifacts }, ...(sessionId ? { sessionId } : {}) });
      expect(mk({ sessionId: "bob" }, "alice").artifacts.sessionId).toBe("bob");
      expect(mk({ sessionId: null }, "alice").artifacts.sessionId).toBeUndefined();
      expect(mk({}, "alice").artifacts.sessionId).toBe("alice");
      expect(mk({}).artifacts.sessionId).toBeUndefined();
      for (const bad of ["", "a__b", "../x", "é"]) {
        expect(() => mk({ sessionId: bad }), bad).toThrow(expect.objectContaining({ code: "EINVALIDSESSION" }));
      }
    });
  });

  it("without a binding: every method throws ENOCONFIG synchronously; cli runs unconfigured", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage });
      expect(ws.artifacts.sessionId).toBeUndefined();
      let thrown: unknown;
      try {
        ws.artifacts.list();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toMatchObject({ code: "ENOCONFIG", message: "Workspace Artifacts binding is not configured" });
      const r = await ws.artifacts.cli({ argv: ["repo", "list"] });
      expect(r).toMatchObject({ exitCode: 1 });
      expect(r.stderr).toContain("Workspace Artifacts binding is not configured");
      await ws.close();
    });
  });

  it("stub().artifacts keeps error codes (EINVALIDNAME, binding NOT_FOUND)", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, sessionId: "alice", artifacts: { binding: new ArtifactsStandIn() } });
      const stub = ws.stub();
      await expect(stub.artifacts.create("a__b")).rejects.toMatchObject({ code: "EINVALIDNAME" });
      await expect(stub.artifacts.get("none")).rejects.toMatchObject({ code: "NOT_FOUND" });
      await ws.close();
    });
  });
});

describe("probe18 ws:artifacts from isolate code", () => {
  it("the docs' example: create then share({ ttl: '1h' }) → a credentialed read URL", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(`await attempt("artifacts", "create", "report", { description: "weekly numbers" }),
      await attempt("artifacts", "share", "report", { ttl: "1h" })`, { binding });
    expect(ok(out[1]!)).toMatch(/^https:\/\/x:art_v2_x_[0-9a-f]+@artifacts\.standin\.invalid\/.*alice__report\.git$/);
    const tokenCall = binding.calls.find((c) => c.method === "repo.createToken");
    expect(tokenCall?.args).toEqual(["alice__report", "read", 3600]);
  });

  it("bad ttl / scope / names → TypeError starting with the function name, or EINVALIDNAME; nothing reaches the binding", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      [
        `await attempt("artifacts", "share", "r", { ttl: "1.5h" })`,
        `await attempt("artifacts", "share", "r", { ttl: 0 })`,
        `await attempt("artifacts", "share", "r", { ttl: -1 })`,
        `await attempt("artifacts", "share", "r", { ttl: 1.5 })`,
        `await attempt("artifacts", "share", "r", { ttl: "1e3" })`,
        `await attempt("artifacts", "share", "r", { scope: "admin" })`,
        `await attempt("artifacts", "createToken", "r", "root")`,
        `await attempt("artifacts", "create", "../x")`,
        `await attempt("artifacts", "create", "a__b")`,
      ].join(","),
      { binding },
    );
    for (const [i, o] of out.slice(0, 7).entries()) {
      const [name, message] = err(o);
      expect({ i, name }).toEqual({ i, name: "TypeError" });
      expect(message).toMatch(/^(share|createToken): /);
    }
    expect(err(out[5]!)[1]).toBe('share: scope must be "read" or "write", got "admin"');
    for (const o of out.slice(7)) expect(err(o)[2]).toBe("EINVALIDNAME");
    expect(binding.calls).toEqual([]);
  });

  /*
   * Finding (medium). ws:artifacts coerces non-string names to strings instead of refusing them:
   * `create(null)`, `create(42)` and `create()` each CREATE a repository (`alice__null`,
   * `alice__42`, `alice__undefined`) with a write token; `get(undefined)` then finds `alice__null`
   * and `deleteArtifact(7)` asks the binding for `alice__7`. docs/artifacts.md (ws:artifacts): "Bad
   * arguments reject a TypeError that starts with the function's name" — as `createToken(null)`
   * and `share(null)` do (`createToken: name must be a non-empty string …`). The direct client
   * (`createArtifact(b, s).get(null)`) correctly rejects EINVALIDNAME.
   * Fixed (ws:artifacts checks names): now a regression check.
   */
  it("non-string names (null, 42, missing) → TypeError naming the function; nothing created", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("artifacts", "create", null), await attempt("artifacts", "create", 42), await attempt("artifacts", "create"),
       await attempt("artifacts", "get", null), await attempt("artifacts", "deleteArtifact", 7)`,
      { binding },
    );
    expect(binding.names()).toEqual([]);
    expect(binding.calls).toEqual([]);
    for (const o of out) expect(err(o)[0]).toBe("TypeError");
  });

  it("read-only backend: create / delete / write token refused with the documented messages; read token allowed", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("artifacts", "create", "r"), await attempt("artifacts", "deleteArtifact", "r"),
       await attempt("artifacts", "createToken", "r", "write"), await attempt("artifacts", "importArtifact", "r", { url: "https://e/x.git" })`,
      { binding, access: "read" },
    );
    expect(err(out[0]!)[1]).toBe("Artifacts create requires Workspace write access.");
    expect(err(out[1]!)[1]).toMatch(/^Artifacts delete requires Workspace write access\./);
    expect(err(out[2]!)[1]).toMatch(/^A write token requires Workspace write access\./);
    expect(err(out[3]!)[1]).toMatch(/^Artifacts import requires Workspace write access\./);
  });

  it("share ttl beyond the binding's range (\"999999d\", \"30s\") → the binding's error, no token minted", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("artifacts", "create", "r"), await attempt("artifacts", "share", "r", { ttl: "999999d" }), await attempt("artifacts", "share", "r", { ttl: "30s" })`,
      { binding },
    );
    expect(err(out[1]!)).toBeDefined();
    expect(err(out[2]!)).toBeDefined();
    expect((await (await binding.get("alice__r")).listTokens()).total).toBe(1);
  });

  it("importArtifact without allowNetwork → the documented message", async () => {
    const out = await run(`await attempt("artifacts", "importArtifact", "r", { url: "https://e/x.git" })`);
    expect(err(out[0]!)[1]).toBe("Artifacts import requires createArtifactsModule({ allowNetwork: true }).");
  });
});

describe("probe18 ws:assets from isolate code", () => {
  it("the docs' example: publish a file (view and download) → presigned URLs", async () => {
    const out = await run(`await attempt("assets", "publish", "report/summary.md"),
      await attempt("assets", "publish", "report/summary.md", { expiresAfter: "1d", filename: "summary-2026.md", disposition: "attachment" }),
      await attempt("assets", "publish", "/workspace/report/summary.md", null)`);
    for (const o of out) expect(ok(o)).toMatch(/^https:\/\//);
    expect(ok(out[1]!)).toContain("X-Amz-Expires=86400");
  });

  it("bad input → the documented TypeErrors / codes", async () => {
    const calls: Array<[string, RegExp | string]> = [
      [`"report/summary.md", { expiresAfter: "1.5h" }`, `publish: expiresAfter: invalid duration '1.5h' (a duration is seconds, or <digits><s|m|h|d> segments such as "90", "30m", "2h30m", "1d")`],
      [`"report/summary.md", { expiresAfter: "0" }`, /^publish: expiresAfter: duration must be positive \(got '0'\)/],
      [`"report/summary.md", { expiresAfter: 0 }`, /^publish: expiresAfter must be a positive number of milliseconds/],
      [`"report/summary.md", { expiresAfter: -1 }`, /^publish: expiresAfter must be a positive number/],
      // Infinity is stopped by the isolate→host transport, not by publish's own check (docs list the latter):
      [`"report/summary.md", { expiresAfter: Infinity }`, "arguments of ws:assets publish must be JSON-compatible: it holds a non-finite number"],
      [`"report/summary.md", { expiresAfter: "5w" }`, /^publish: expiresAfter: unknown duration unit 'w' in '5w'/],
      [`"report/summary.md", { expiresAfter: "" }`, /^publish: expiresAfter: empty duration/],
      [`"report/summary.md", { expiresAfter: "1e3" }`, /^publish: expiresAfter: /],
      [`"report/summary.md", { bogus: 1 }`, `publish: unknown option "bogus" (options are expiresAfter, filename, disposition, contentType)`],
      [`"report/summary.md", { disposition: "evil" }`, /^publish: disposition must be "inline" or "attachment", got /],
      [`"report/summary.md", { filename: "x".repeat(1025) }`, /^publish: filename /],
      [`"report/summary.md", { filename: 7 }`, /^publish: filename must be a string, got /],
      [`"report/summary.md", "1h"`, /^publish: options must be an object/],
      [`""`, /^publish: path must be a non-empty string, got /],
      [`null`, /^publish: path must be a non-empty string, got /],
      [``, /^publish: takes a path and an optional options object, got 0 arguments/],
      [`"a", {}, 3`, /^publish: takes a path and an optional options object, got 3 arguments/],
    ];
    const out = await run(calls.map(([a]) => `await attempt("assets", "publish", ${a})`).join(","));
    for (const [i, [args, msg]] of calls.entries()) {
      const [name, message] = err(out[i]!);
      expect({ args, name }).toEqual({ args, name: "TypeError" });
      if (typeof msg === "string") expect(message).toBe(msg);
      else expect(message, args).toMatch(msg);
    }
  });

  it("hostile paths: ../x and /etc/passwd → EACCES; missing → ENOENT; a directory → EISDIR; a symlink on the way refused", async () => {
    const out = await run(
      `await attempt("assets", "publish", "../x"), await attempt("assets", "publish", "/etc/passwd"),
       await attempt("assets", "publish", "nope.md"), await attempt("assets", "publish", "report"),
       await attempt("assets", "publish", "link/summary.md"), await attempt("assets", "publish", "ünï/ç.md")`,
      {
        setup: async (ws) => {
          await ws.fs.symlink("/workspace/report", "/workspace/link");
          await ws.fs.mkdir("/workspace/ünï");
          await ws.fs.writeFile("/workspace/ünï/ç.md", "x");
        },
      },
    );
    expect(err(out[0]!)[2]).toBe("EACCES");
    expect(err(out[0]!)[1]).toContain("paths must stay under /workspace");
    expect(err(out[1]!)[2]).toBe("EACCES");
    expect(err(out[2]!)[2]).toBe("ENOENT");
    expect(err(out[3]!)[2]).toBe("EISDIR");
    expect(err(out[4]!)).toBeDefined();
    expect(ok(out[5]!)).toMatch(/^https:\/\//);
  });

  it("lifetimes over 7 days are capped (X-Amz-Expires=604800); 1 ms rounds up to 1 s", async () => {
    const out = await run(
      `await attempt("assets", "publish", "report/summary.md", { expiresAfter: "99999d" }),
       await attempt("assets", "publish", "report/summary.md", { expiresAfter: 1 })`,
    );
    expect(ok(out[0]!)).toContain("X-Amz-Expires=604800");
    expect(ok(out[1]!)).toContain("X-Amz-Expires=1&");
  });

  /*
   * Finding (medium), fixed. A deep path of about 4 KB or more ("a/" × 2000 + "x": 4,012 characters) failed
   * every filesystem call on workerd with SQLite's raw `string or blob too big: SQLITE_TOOBIG` and no
   * `code` (`publish` from ws:assets, `node:fs` in the isolate, `workspace.fs.stat` / `writeFile` /
   * `mkdir -p`): the chain lookup passed every prefix key of the path as one JSON array, which grows
   * with depth × length. Now it passes the longest key once with the prefix lengths, so such a path is
   * looked up like any other (ENOENT here). A path of more than 256 KiB of UTF-8 (MAX_PATH_BYTES), or
   * whose ancestors' paths hold more than 32 MiB together (MAX_PATH_PREFIX_BYTES: depth × length, what
   * `mkdir -p` stores), fails with ENAMETOOLONG at path normalisation, before any SQL.
   */
  it("a 10,000-character path to publish → a coded error (ENAMETOOLONG / ENOENT), not SQLITE_TOOBIG", async () => {
    const out = await run(`await attempt("assets", "publish", "a/".repeat(5000) + "x")`);
    const [, message, code] = err(out[0]!);
    expect(message).not.toContain("SQLITE");
    expect(code).toBe("ENOENT");
  });

  it("workspace.fs.stat of a 4,012-character path → a coded error, not SQLITE_TOOBIG", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage });
      const e = (await ws.fs.stat(`/workspace/${"a/".repeat(2000)}x`).catch((x: unknown) => x)) as { code?: string; message: string };
      await ws.close();
      expect(e.message).not.toContain("SQLITE");
      expect(e.code).toBe("ENOENT");
    });
  });

  it("a 2,000-deep tree with multi-byte names, a 16 KiB path and a 200,000-byte name work; past the limits → ENAMETOOLONG before SQL", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage });
      // "é😀/" is 7 bytes of UTF-8, 4 UTF-16 units and 3 code points (SQLite's substr counts code points).
      const deep = `/w/${"é😀/".repeat(1000)}${"a/".repeat(1000)}f`;
      await ws.fs.mkdir(deep.slice(0, deep.lastIndexOf("/")), { recursive: true });
      await ws.fs.writeFile(deep, "deep");
      const read = await ws.fs.readFile(deep, "utf8");
      const stat = await ws.fs.stat(deep);
      const missing = (await ws.fs.stat(`${deep}x`).catch((x: unknown) => x)) as { code?: string };
      const wide = `/w/${"é😀/".repeat(2340)}f`; // 3 + 16,380 + 1 = 16,384 bytes, 2,341 directories deep
      await ws.fs.mkdir(wide.slice(0, wide.lastIndexOf("/")), { recursive: true });
      await ws.fs.writeFile(wide, "wide");
      const long = `/w/${"é".repeat(100_000)}`; // one name of 200,000 bytes
      await ws.fs.writeFile(long, "long");
      const [wideText, longText] = [await ws.fs.readFile(wide, "utf8"), await ws.fs.readFile(long, "utf8")];
      await ws.fs.rm(long);
      // 3,200 directories of 7 bytes: 22,404 bytes, but the ancestors' paths hold about 35.8 MB together.
      const tooDeep = (await ws.fs.mkdir(`/w/${"é😀/".repeat(3200)}g`, { recursive: true }).catch((x: unknown) => x)) as { code?: string; message: string };
      const tooLong = (await ws.fs.stat(`/${"b".repeat(262_144)}`).catch((x: unknown) => x)) as { code?: string; message: string };
      const atLimit = (await ws.fs.stat(`/${"b".repeat(262_143)}`).catch((x: unknown) => x)) as { code?: string };
      await ws.close();
      expect([read, stat.size, missing.code, wideText, longText, atLimit.code]).toEqual(["deep", 4, "ENOENT", "wide", "long", "ENOENT"]);
      expect(tooDeep.code).toBe("ENAMETOOLONG");
      expect(tooDeep.message).toMatch(/^ENAMETOOLONG: path too deep for its length: its ancestors' paths hold \d+ bytes of UTF-8 together, at most 33554432; use a shorter or shallower path: \/w\/é😀/);
      expect(tooLong.code).toBe("ENAMETOOLONG");
      expect(tooLong.message).toMatch(/^ENAMETOOLONG: path too long: 262145 bytes of UTF-8, at most 262144; use a shorter or shallower path: \/bbb/);
    });
  });

  it("read-only backend → EROFS before argument checks", async () => {
    const out = await run(`await attempt("assets", "publish", "report/summary.md"), await attempt("assets", "publish", null)`, { access: "read" });
    for (const o of out) expect(err(o).slice(1)).toEqual(["ws:assets publish requires Workspace write access.", "EROFS"]);
  });

  it("createAssetsModule({ defaultExpiresAfterMs }) bad values → the documented TypeError", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "1h"]) {
      expect(() => createAssetsModule({ defaultExpiresAfterMs: bad as never })).toThrow("createAssetsModule: defaultExpiresAfterMs must be a positive number.");
    }
  });
});
