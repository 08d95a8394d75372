/**
 * ls and find hold a result under a byte cap (default 256 KiB, like grep and
 * read) and clip a name or path past 4096 characters (issue 20, seventh
 * attack run: 200 entries of 100,004-character names were 20 MB of text).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createFindTool, createListTool } from "../../../src/tools/index.js";

const options = { toolCallId: "1", messages: [], context: {} };
const LONG = "n".repeat(10_000);
const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });

beforeAll(async () => {
  await workspace.fs.mkdir("/long", { recursive: true });
  for (let i = 0; i < 100; i++) await workspace.fs.writeFile(`/long/${String(i).padStart(3, "0")}${LONG}`, "x");
  await workspace.fs.mkdir("/short", { recursive: true });
  for (let i = 0; i < 100; i++) await workspace.fs.writeFile(`/short/f${String(i).padStart(3, "0")}.txt`, "x");
});

type Listing = { count: number; entries: Record<string, unknown>[]; note?: string; nextOffset?: number; error?: string };
const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;
const CLIPPED = (noun: string) =>
  `${noun} longer than 4096 characters were cut to their first 4096, "[… N characters cut …]" marking what was left out (clipped: true); such a path cannot be passed back as shown — match it with a find glob or use exec.`;

async function allPages(run: (offset: number) => Promise<Listing>) {
  const pages: Listing[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page: Listing = await run(offset);
    pages.push(page);
    if (page.nextOffset !== undefined) expect(page.nextOffset).toBe(offset + page.count);
    offset = page.nextOffset;
  }
  return pages;
}

describe("ls and find: byte cap and clipped names", () => {
  it("ls of 100 names of 10,003 characters: pages of at most 256 KiB, every name clipped to 4096 with its length, every entry once", async () => {
    const ls = createListTool({ workspace });
    const pages = await allPages((offset) => ls.execute!({ path: "/long", offset }, options) as Promise<Listing>);
    expect(pages.length).toBe(2);
    const names = pages.flatMap((p) => p.entries.map((e) => e.name as string));
    expect(names).toEqual(Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, "0")}${"n".repeat(4093)}[… 5907 characters cut …]`));
    for (const page of pages) {
      expect(bytes(page)).toBeLessThanOrEqual(262_144);
      expect(page.entries.every((e) => e.clipped === true && e.isFile === true && e.size === 1)).toBe(true);
    }
    expect(pages[0]!.note).toBe(`Result cut at 262144 bytes after ${pages[0]!.count} entries; call again with offset = ${pages[0]!.count} for the rest. ${CLIPPED("Names")}`);
    expect(pages[1]!.note).toBe(CLIPPED("Names"));
    expect(pages[1]!.nextOffset).toBeUndefined();
  });

  it("find of the same: paths clipped, pages under the cap, every path once", async () => {
    const find = createFindTool({ workspace });
    const pages = await allPages((offset) => find.execute!({ path: "/long", pattern: "*", offset }, options) as Promise<Listing>);
    expect(pages.length).toBe(2);
    const paths = pages.flatMap((p) => p.entries.map((e) => e.path as string));
    expect(paths).toEqual(Array.from({ length: 100 }, (_, i) => `/long/${String(i).padStart(3, "0")}${"n".repeat(4087)}[… 5913 characters cut …]`));
    for (const page of pages) expect(bytes(page)).toBeLessThanOrEqual(262_144);
    expect(pages[0]!.note).toBe(`Result cut at 262144 bytes after ${pages[0]!.count} entries; call again with offset = ${pages[0]!.count} for the rest. ${CLIPPED("Paths")}`);
  });

  it("maxBytes: short names page by bytes, `limit` still applies, nothing clipped, no note on an uncut page", async () => {
    const ls = createListTool({ workspace, maxBytes: 3000 });
    const pages = await allPages((offset) => ls.execute!({ path: "/short", offset }, options) as Promise<Listing>);
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.flatMap((p) => p.entries.map((e) => e.name))).toEqual(Array.from({ length: 100 }, (_, i) => `f${String(i).padStart(3, "0")}.txt`));
    for (const page of pages) {
      expect(bytes(page)).toBeLessThanOrEqual(3000);
      expect(page.entries.some((e) => "clipped" in e)).toBe(false);
    }
    expect(pages[0]!.note).toBe(`Result cut at 3000 bytes after ${pages[0]!.count} entries; call again with offset = ${pages[0]!.count} for the rest.`);
    expect(pages.at(-1)!.note).toBeUndefined();
    const limited = (await ls.execute!({ path: "/short", limit: 5, offset: 10 }, options)) as Listing;
    expect(limited).toMatchObject({ count: 5, nextOffset: 15 });
    expect(limited.note).toBeUndefined();
    expect(await createFindTool({ workspace }).execute!({ path: "/short", pattern: "*.txt", limit: 1000 }, options)).toMatchObject({ count: 100 });
  });

  it("one entry over the cap still comes back alone, with nextOffset", async () => {
    const ls = createListTool({ workspace, maxBytes: 100 });
    const page = (await ls.execute!({ path: "/long" }, options)) as Listing;
    expect(page).toMatchObject({ count: 1, nextOffset: 1 });
    expect(page.note).toBe(`Result cut at 100 bytes after 1 entry; call again with offset = 1 for the rest. ${CLIPPED("Names")}`);
  });

  it("fetches a page in batches sized to the longest name seen, so the filesystem never answers 1000 long names at once", async () => {
    const asked: number[] = [];
    const fs = new Proxy(workspace.fs, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== "readdir") return typeof value === "function" ? value.bind(target) : value;
        return (path: string, o: { limit: number; offset: number }) => {
          asked.push(o.limit);
          return target.readdir(path, o);
        };
      },
    });
    const page = (await createListTool({ workspace: { fs } }).execute!({ path: "/long", limit: 1000 }, options)) as Listing;
    expect(page.count).toBeGreaterThan(50);
    expect(asked[0]).toBe(32);
    expect(Math.max(...asked)).toBeLessThanOrEqual(105); // 4 × 262144 / (10,003 + 128)
    asked.length = 0;
    await createListTool({ workspace: { fs } }).execute!({ path: "/short" }, options);
    expect(asked).toEqual([32, 169]); // then the rest of the page, plus one
  });

  it("limits and description name the cap; a bad maxBytes throws", () => {
    expect(createListTool({ workspace }).description).toContain("at most 256KB");
    expect(() => createListTool({ workspace, maxBytes: 0 })).toThrow(TypeError);
    expect(() => createFindTool({ workspace, maxBytes: -1 })).toThrow(TypeError);
  });
});
