/**
 * Issue 20, twenty-first attack run (scout of fixes): publish shares a file named in directory form.
 * Tried: 341f8d0 made `f.txt/` (and `f.txt/.`) of a file ENOTDIR for read, write, edit and delete; the publish tool
 * (publishDefinition → assets.share) on the same paths, a Workspace over the Durable Object's storage with R2.
 * Held: the key and URL name `r.txt` (basename), the bytes are the file's.
 * Found (low — the last file tool that still reads through `f.txt/`; deterministic): `publish({ path:
 * "/workspace/r.txt/" })` and `"/workspace/r.txt/."` answer `ok: true` with a URL and store the file
 * (`agent-s1/<id>/r.txt`, twice); every other tool answers `ENOTDIR: not a directory` for these paths.
 * Suggested fix: in share() (src/assets/assets.ts), before reading, stat the path when `directoryForm(path)` is not
 * null and refuse a non-directory with `ENOTDIR` (as WorkspaceFileStore.#checkDirectoryForm does), instead of
 * basename() resolving `f.txt/.` to `f.txt`.
 * Fixed: share() (src/assets/assets.ts) checks the stat it already takes: a path in directory form (directoryForm)
 * whose stat is not a directory rejects `ENOTDIR: not a directory, stat: <path as given>` before anything is put,
 * the read stream cancelled. publish (and ws.assets.share, ws:assets, a client's share — all this one function)
 * answer it; the plain path still shares the file.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";
import { publishDefinition } from "../../../src/tools/core/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

it("publish of r.txt/ and r.txt/. is ENOTDIR and stores nothing", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, sessionId: "scout21-pub", assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) });
    const results: { path: string; ok: unknown; error?: unknown }[] = [];
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/r.txt", "hi");
      for (const path of ["/workspace/r.txt/", "/workspace/r.txt/."]) {
        const r = (await publishDefinition({ workspace: ws }).execute({ path })) as { ok: boolean; error?: string };
        results.push({ path, ok: r.ok, error: r.error });
      }
    } finally {
      await ws.close();
    }
    const stored = (await env.ASSETS_BUCKET.list({ prefix: "agent-scout21-pub/" })).objects.map((o) => o.key);
    return { results, stored };
  });
  // Found: both { ok: true } (a URL each); stored: two keys agent-scout21-pub/<id>/r.txt.
  expect(out).toEqual({
    results: [
      { path: "/workspace/r.txt/", ok: false, error: "ENOTDIR: not a directory, stat: /workspace/r.txt/" },
      { path: "/workspace/r.txt/.", ok: false, error: "ENOTDIR: not a directory, stat: /workspace/r.txt/." },
    ],
    stored: [],
  });
}, 60_000);

it("ws.assets.share of r.txt/ rejects ENOTDIR; r.txt itself is shared once", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, sessionId: "fix21-s1-pub", assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/r.txt", "hi");
      const slash = await ws.assets!.share("/workspace/r.txt/", { expiresAfter: 60_000 }).then(
        () => "shared",
        (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
      );
      const plain = await ws.assets!.share("/workspace/r.txt", { expiresAfter: 60_000 });
      // share() without a prefix stores `<id>/<name>`: only the plain path's object is there.
      const keys = (await env.ASSETS_BUCKET.list()).objects.map((o) => o.key.replace(/^[0-9a-z]{26}\//, "<id>/"));
      return { slash, plain: typeof plain === "string" && plain.includes("/r.txt?") ? true : plain, keys };
    } finally {
      await ws.close();
    }
  });
  expect(out).toEqual({ slash: "ENOTDIR ENOTDIR: not a directory, stat: /workspace/r.txt/", plain: true, keys: ["<id>/r.txt"] });
}, 60_000);
