/**
 * Issue 20 seventh attack run, category 2 (huge listings) through a remote
 * client: `getWorkspace(stub)` over real Workers RPC, a directory of 400
 * files each named with 100,004 characters (names have no length limit; the
 * whole listing is ~40 MB), and a 40 MiB file.
 *
 * DEFECT (low), FIXED — the fs stub estimates each result's size before answering and, past 30 MiB, rejects with WorkspaceFsError E2BIG saying to page or stream — reproduction:
 *   using ws = await getWorkspace(env.CLIENT_AGENT.get(id));
 *   for (let i = 0; i < 400; i++) await ws.fs.writeFile(`/d/${String(i).padStart(4, "0")}${"n".repeat(100_000)}`, "x");
 *   await ws.fs.readdir("/d");     // also find("/d", "**"), ls("/d"), grep("x", "/d"),
 *                                  // and readFile("/big", "utf8") of a 40 MiB file
 *   → rejects with workerd's bare `Error: Serialized RPC arguments or return
 *     values are limited to 32MiB, but the size of this value was: 40138902 bytes.`
 *     — no `code`, not a WorkspaceFsError, and nothing says that paging
 *     (`limit`/`offset`) or a stream would work. The fifth run found the same
 *     for git over RPC and fixed it there (src/do/git-stub.ts
 *     `clipGitResultForRpc`); the fs stub has no such step. In the object
 *     itself these calls succeed.
 * Impact: low — a client (or code written against 0.8.0's local behaviour)
 * gets an error it cannot classify; nothing is lost, the object goes on.
 * Fix proposal: in the fs stub, measure a listing / utf8 read before
 * answering and, past ~24 MiB, reject with WorkspaceFsError `E2BIG`
 * (`readdir of /d is <n> bytes, over what crosses RPC (32 MiB): page with
 * { limit, offset }` / `readFile … use the stream form`); document it in
 * docs/durable-objects.md.
 *
 * DEFECT (medium), FIXED — ls and find hold a result under 256 KiB (nextOffset at the first entry left out, a note) and clip a name past 4096 characters — reproduction: the same directory (400 files, names of
 * 100,004 characters) through the pi tools over the client:
 *   execute({ name: "ls", arguments: { path: "/d" } })            → 20,020,854 characters
 *   execute({ name: "find", arguments: { path: "/d", pattern: "*" } }) → 20,006,668 characters
 * ls and find page by entry count only (200 by default, `limit` up to 1,000;
 * src/tools/core/paging.ts); grep and read have a byte cap (256 KiB), these
 * two do not, and names have no length limit (attack3 made a 900,000-
 * character one). One default page of 900 KB names is ~180 MB — past a
 * Durable Object's 128 MB — and `limit: 1000` five times that; the model
 * receives all of it.
 * Impact: medium — a directory an agent is asked to look at (a cloned repo,
 * an unpacked archive, files the model's own code made) can make one ls or
 * find call exhaust memory or flood the model's context.
 * Fix proposal: the same `maxBytes` (262,144) on the ls and find results as
 * grep's — the page ends early with `nextOffset` at the first entry left
 * out and a note, at least one entry — and clip a single name past a bound
 * (for example 4 KiB, with its length) so even one entry is bounded; or give
 * the Workspace a NAME_MAX (Linux: 255 bytes).
 *
 * Withstood here: the grep tool over the client answers one page under its
 * 256 KiB cap with the note to continue; `readdir` with `limit: 100`
 * crosses; the stream form of readFile reads all 40 MiB; the object answers.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const LONG = "n".repeat(100_000);
const stub = env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
const MiB = 1024 * 1024;

beforeAll(async () => {
  using ws = await getWorkspace(stub);
  await ws.fs.mkdir("/d", { recursive: true });
  for (let i = 0; i < 400; i++) await ws.fs.writeFile(`/d/${String(i).padStart(4, "0")}${LONG}`, "x");
  await ws.fs.writeFile("/big", new Blob([new Uint8Array(40 * MiB).fill(97)]).stream());
}, 120_000);

const failure = (p: Promise<unknown>) => p.then(() => "resolved", (e: Error & { code?: string }) => ({ name: e.name, code: e.code, message: e.message }));

describe("attack7: results past what crosses RPC", () => {
  it("DEFECT (low): readdir/find/ls/grep of a 40 MB listing and readFile utf8 of 40 MiB reject without a code", { timeout: 60_000 }, async () => {
    using ws = await getWorkspace(stub);
    const got = [
      await failure(ws.fs.readdir("/d")),
      await failure(ws.fs.find("/d", "**")),
      await failure(ws.fs.ls("/d")),
      await failure(ws.fs.grep("x", "/d")),
      await failure(ws.fs.readFile("/big", "utf8")),
    ];
    // Before the fix each was { name: "Error", code: undefined, message: "Serialized RPC arguments or return values are limited to 32MiB, …" }.
    const over = "E2BIG: the result is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); ";
    expect(got).toEqual([
      { name: "WorkspaceFsError", code: "E2BIG", message: `${over}page it with { limit, offset }, readdir: /d` },
      { name: "WorkspaceFsError", code: "E2BIG", message: `${over}page it with { limit, offset }, find: /d` },
      { name: "WorkspaceFsError", code: "E2BIG", message: `${over}list it a page at a time with find(prefix, "**", { limit, offset }) instead, ls: /d` },
      { name: "WorkspaceFsError", code: "E2BIG", message: `${over}page it with { limit, offset }, or bound it with { maxLineLength, maxTotalLength }, grep: /d` },
      { name: "WorkspaceFsError", code: "E2BIG", message: `${over}read it as a stream (readFile without an encoding), or a range at a time with { byteOffset, byteLength }, readFile: /big` },
    ]);
  });

  it("DEFECT (medium): the ls and find tools page by entry count only — one default page of long names is ~20 MB of text", { timeout: 60_000 }, async () => {
    using ws = await getWorkspace(stub);
    const { execute } = createPiTools({ workspace: ws });
    const sizes: Record<string, number> = {};
    for (const [name, args] of [["ls", { path: "/d" }], ["find", { path: "/d", pattern: "*" }]] as const) {
      const r = await execute({ id: name, name, arguments: args });
      sizes[name] = r.content.map((c) => ("text" in c ? c.text : "")).join("").length;
    }
    // Before the fix: { ls: 20020854, find: 20006668 } — 200 entries of 100,004-character names; grep's cap is 262,144 bytes.
    expect(sizes.ls).toBeLessThanOrEqual(262_144);
    expect(sizes.find).toBeLessThanOrEqual(262_144);
  });

  it("the grep tool over the client answers one page under its 256 KiB cap; paging and the stream form work; the object answers", { timeout: 60_000 }, async () => {
    using ws = await getWorkspace(stub);
    const { execute } = createPiTools({ workspace: ws });
    const r = await execute({ id: "g", name: "grep", arguments: { path: "/d", query: "x" } });
    const text = r.content.map((c) => ("text" in c ? c.text : "")).join("");
    expect(r.isError).toBe(false);
    expect(text.length).toBeLessThan(300_000);
    // Issue 20 run 25: a match's path past 4,096 characters is shown cut (pathClipped), as find shows one.
    const full = `/d/0000${LONG}`;
    expect(text).toContain(`"path":"${full.slice(0, 4096)}[… ${full.length - 4096} characters cut …]","line":1,"text":"x","pathClipped":true`);
    expect(text).toContain("Result cut at 262144 bytes after 62 matches; call again with offset = 62 for the rest.");
    const page = await ws.fs.readdir("/d", { limit: 100 });
    expect(page.map((e) => e.name.slice(0, 4))).toEqual(Array.from({ length: 100 }, (_, i) => String(i).padStart(4, "0")));
    const bytes = new Uint8Array(await new Response(await ws.fs.readFile("/big")).arrayBuffer());
    expect(bytes.byteLength).toBe(40 * MiB);
    expect(bytes.every((b) => b === 97)).toBe(true);
    expect((await ws.fs.stat("/d")).isDirectory).toBe(true);
  });
});
