/**
 * Issue 20 third attack run, category 2 through the file tools: a directory
 * of 20,000 entries (every file matching the search) and a 2,000-deep
 * directory chain. ls, find and grep answer one bounded page (JSON under
 * 256 KiB plus a little) in bounded time with a way to continue; read of a
 * 2,000-deep path works; delete of the deep chain removes it whole.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/workspace.js";
import { drivers } from "../tools/adapter-drivers.js";
import { makeWorkspace } from "../tools/helpers.js";

const deep = "/workspace/deep/" + Array.from({ length: 2000 }, () => "d").join("/");

describe("attack3: file tools over a wide and a deep tree", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await makeWorkspace();
    await ws.fs.mkdir("/workspace/wide");
    await Promise.all(Array.from({ length: 20_000 }, (_, i) => ws.fs.writeFile(`/workspace/wide/file-${String(i).padStart(5, "0")}.txt`, `needle ${i}\n`)));
    await ws.fs.mkdir(deep, { recursive: true });
    await ws.fs.writeFile(`${deep}/leaf.txt`, "bottom\n");
  }, 30_000);
  const all = drivers();
  for (const driver of all) {
    it(`${driver.name}: ls/find/grep over 20,000 entries are bounded pages; a 2,000-deep path reads${driver === all.at(-1) ? " and deletes" : ""}`, async () => {
      const tools = driver.build({ workspace: ws });
      const timed = async (name: string, input: Record<string, unknown>) => {
        const t = Date.now();
        const seen = await driver.call(tools, name, input);
        return { ...seen, ms: Date.now() - t };
      };
      const ls = await timed("ls", { path: "/workspace/wide" });
      const find = await timed("find", { path: "/workspace", pattern: "**/*.txt" });
      const grep = await timed("grep", { path: "/workspace", query: "needle" });
      const read = await timed("read", { path: `${deep}/leaf.txt` });
      for (const [what, r] of Object.entries({ ls, find, grep, read })) {
        expect(r.isError, `${what}: ${r.text.slice(0, 200)}`).toBe(false);
        expect(r.text.length, what).toBeLessThan(300 * 1024);
        expect(r.ms, what).toBeLessThan(5000);
      }
      expect(ls.text).toMatch(/nextOffset|offset/);
      expect(grep.text).toMatch(/nextOffset|offset/);
      expect(read.text).toContain("bottom");
      if (driver !== all.at(-1)) return;
      const del = await timed("delete", { path: "/workspace/deep", recursive: true });
      expect(del.isError).toBe(false);
      expect(await ws.fs.ls("/workspace/deep").catch((e: { code: string }) => e.code)).toEqual([]);
      expect(await ws.fs.stat("/workspace/deep").catch((e: { code: string }) => e.code)).toBe("ENOENT");
    }, 60_000);
  }
});
