/**
 * The JavaScript backend's `node:fs` `readdir` reads a listing page by page (bridge.ts `READDIR_PAGE_ENTRIES`, 64, fewer
 * so that a page of the longest names the directory can hold stays within the response budget left: 31 under
 * `/workspace/d` with the default 8 MiB; test/node/attack19a/js-readdir-long-names-read-before-budget.test.ts for its response budget): every entry once, in
 * name order; past `maxDirectoryEntries` `E2BIG`; a listing of more than one page starts over when the store changed
 * between its pages, and fails `EIO` after `READDIR_ATTEMPTS` (8) such attempts.
 * Node has no Worker Loader: a stand-in isolate (runtime/loader-standin.ts) calls the backend's real bridge; the
 * Workspace's `fs.readdir` is wrapped (delegating) to count the pages read and, in two tests, to write to the store
 * just before a page is read, as a concurrent call or the host could.
 */
import { expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { readdirWorkspace, type StandInAnswer } from "../runtime/loader-standin.js";

type Answer = StandInAnswer<{ name: string }[]>;

/** One run whose isolate calls `readdir("/workspace/d")` once, `d` holding `count` files; `before(n)` runs ahead of the n-th page read. */
async function listing(count: number, before?: (ws: Workspace, page: number) => Promise<void>): Promise<{ answer: Answer; pages: number }> {
  const { ws, run } = readdirWorkspace("/workspace/d");
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  for (const name of names(count)) await ws.fs.writeFile(`/workspace/d/${name}`, "");
  const fs = ws.fs as { readdir: (path: string, options?: object) => Promise<unknown[]> };
  const readdir = fs.readdir.bind(fs);
  let pages = 0;
  fs.readdir = async (path, options) => {
    pages++;
    await before?.(ws, pages);
    return readdir(path, options);
  };
  const { exitCode, answer } = await run();
  fs.readdir = readdir;
  expect(exitCode).toBe(0);
  await ws.close();
  return { answer, pages };
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `f${String(i).padStart(4, "0")}`);

it("lists 300 entries in 10 pages of at most 31, each once, in name order", async () => {
  const { answer, pages } = await listing(300);
  expect(answer.ok).toBe(true);
  expect(answer.value!.map((e) => e.name)).toEqual(names(300));
  expect(answer.value![0]).toEqual({ name: "f0000", isFile: true, isDirectory: false, isSymbolicLink: false });
  expect(pages).toBe(10);
});

it("a directory of 1025 entries fails E2BIG after reading 1025", async () => {
  const { answer, pages } = await listing(1025);
  expect(answer).toMatchObject({ ok: false, error: { code: "E2BIG", message: "readdir of /workspace/d has more than maxDirectoryEntries (1024) entries" } });
  expect(pages).toBe(34);
});

it("a directory of exactly maxDirectoryEntries (1024) entries is listed whole (5,121 values: not refused by the host-module value bound)", async () => {
  // Before: E2BIG "host call response holds more than 4096 values" from about 820 entries on.
  const { answer, pages } = await listing(1024);
  expect(answer.error).toBeUndefined();
  expect(answer.value!.map((e) => e.name)).toEqual(names(1024));
  expect(pages).toBe(34);
});

it("an entry removed between pages makes the listing start over: no entry skipped", async () => {
  // Without starting over, the second page (offset 31) would begin at f0032: f0031 would be missed.
  const { answer, pages } = await listing(300, async (ws, page) => {
    if (page === 2) await ws.fs.rm("/workspace/d/f0000");
  });
  expect(answer.ok).toBe(true);
  expect(answer.value!.map((e) => e.name)).toEqual(names(300).slice(1));
  expect(pages).toBe(2 + 10);
});

it("a store that changes before every page fails EIO after 8 attempts", async () => {
  const { answer, pages } = await listing(300, async (ws, page) => {
    await ws.fs.writeFile("/workspace/other", String(page));
  });
  expect(answer).toMatchObject({ ok: false, error: { code: "EIO", message: "readdir of /workspace/d: the store kept changing while the directory was listed (8 attempts)" } });
  expect(pages).toBe(8);
});
