/**
 * Issue 20, scout after the nineteenth attack run: the JavaScript backend's paged `readdir`
 * (src/backends/worker-javascript/bridge.ts `#readdir`) starts the listing over when the store changed between pages
 * — but with the path it confined before the first page: the restart lists whatever is at that path now, following a
 * symbolic link the confinement refuses (`EACCES cannot traverse symbolic link`), out of the run's root.
 * Tried: a backend with the default root `/workspace`; `/workspace/d` holding 100 files and `/secret` (outside the
 * root) holding `token-1`; a run (Worker Loader stand-in, test/node/runtime/loader-standin.ts, calling the real bridge)
 * calling `readdir("/workspace/d")`, while — as a concurrent run, the host or another client may — `/workspace/d` is
 * replaced by a symbolic link to `/secret` right after the listing's first page is read (`fs.readdir` wrapped, delegating,
 * as in test/node/fix19a2/js-readdir-pages.test.ts). Held: without the swap the listing is right; a direct
 * `readdir("/workspace/d")` of the link answers `EACCES` (`cannot traverse symbolic link: /workspace/d`).
 * Found (medium — breaks the root confinement (docs/runtime.md `root`) for directory listings under a concurrent
 * writer; one page (64 entries) already read is all the window needs; 3 of 3 runs): the store version changed, so the
 * listing starts over at `/workspace/d`, which `fs.readdir` follows to `/secret`: the run receives
 * `[{ name: "token-1", isFile: true, … }]` — the names of a directory outside its root. Before the paging (e710bcb)
 * the listing was one `fs.readdir` right after the confinement check. A swap just before a later page's read (after
 * the version check) is not even noticed: that page is read through the link (entries 64… of `/secret` appended to
 * those of `/workspace/d`).
 * Suggested fix: confine the path again on every attempt (`this.#resolve(args[0])` inside the attempt loop), and read
 * the pages by the directory's inode or with `lstat` of the resolved path re-checked before each page (refusing when
 * it is no longer the same directory) — or fail `EIO`/`EAGAIN` rather than list a path whose confinement is stale.
 * Fixed: each attempt takes the store version, then confines the path (the resolver's check) again; a listing of more
 * than one page compares the version after every page (the last included) and starts over when it changed — so every
 * page read the directory confined, and the restart here meets the link and fails `EACCES`.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { standInLoader } from "../runtime/loader-standin.js";

type Answer = { ok: boolean; value?: { name: string }[]; error?: { code?: string; message: string } };

it("a directory swapped for a link out of the root between pages is not listed through the link", { timeout: 60_000 }, async () => {
  const answers: Answer[] = [];
  const loader = standInLoader(async (_input, bridge) => {
    answers.push((await bridge.call("fs", "", "readdir", ["/workspace/d"], { seq: 1, tape: [] })) as Answer);
    answers.push((await bridge.call("fs", "", "readdir", ["/workspace/d"], { seq: 2, tape: [] })) as Answer);
    return { code: 0, value: "null" };
  });
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new WorkerJavaScriptBackend({ loader: loader as never })] });
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  for (let i = 0; i < 100; i++) await ws.fs.writeFile(`/workspace/d/f${String(i).padStart(3, "0")}`, "");
  await ws.fs.mkdir("/secret", { recursive: true });
  await ws.fs.writeFile("/secret/token-1", "s");
  const fs = ws.fs as { readdir: (path: string, options?: object) => Promise<unknown[]> };
  const readdir = fs.readdir.bind(fs);
  let pages = 0;
  fs.readdir = async (path, options) => {
    const page = await readdir(path, options);
    if (++pages === 1) {
      // Right after the first page is read: the directory becomes a link out of the root.
      await ws.fs.rm("/workspace/d", { recursive: true });
      await ws.fs.symlink("/secret", "/workspace/d");
    }
    return page;
  };
  const result = await (await ws.runtime.exec("export default () => null;", { encoding: "utf8" })).result();
  fs.readdir = readdir;
  await ws.close();
  expect(result.exitCode).toBe(0);
  // The second call meets the link directly: refused. The first must not list /secret either.
  expect(answers[1]).toMatchObject({ ok: false, error: { code: "EACCES", message: expect.stringContaining("cannot traverse symbolic link: /workspace/d") } });
  expect(JSON.stringify(answers[0])).not.toContain("token-1");
});
