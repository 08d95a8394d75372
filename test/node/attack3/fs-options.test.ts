/**
 * Issue 20 third attack run, category 3: odd numbers and types in the
 * options of workspace.fs (readdir/find/grep paging and context, grep's
 * maxLineLength, mkdir/writeFile modes) — negative, fractional, NaN,
 * infinite, past 2^53, strings, null, objects, booleans. Each is refused as
 * the documented class (TypeError for paging/context, EINVAL for modes)
 * before anything is read or created.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";

const ODD: unknown[] = [-1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, 1e308, "3", null, {}, true, [1]];

describe("attack3: odd values in fs options", () => {
  it("paging, context and line-length options refuse odd values with TypeError; modes with EINVAL; nothing is created", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/d");
    for (let i = 0; i < 5; i++) await ws.fs.writeFile(`/d/f${i}`, "needle\n");
    const outcome = (p: Promise<unknown>) => p.then(() => "ok", (e: { name?: string; code?: string }) => (e.code ? `${e.name}:${e.code}` : String(e.name)));
    const calls: Record<string, (v: unknown) => Promise<unknown>> = {
      "readdir.limit": (v) => ws.fs.readdir("/d", { limit: v } as never),
      "readdir.offset": (v) => ws.fs.readdir("/d", { offset: v } as never),
      "find.limit": (v) => ws.fs.find("/d", "*", { limit: v } as never),
      "find.offset": (v) => ws.fs.find("/d", "*", { offset: v } as never),
      "grep.limit": (v) => ws.fs.grep("needle", "/d", { limit: v } as never),
      "grep.offset": (v) => ws.fs.grep("needle", "/d", { offset: v } as never),
      "grep.context": (v) => ws.fs.grep("needle", "/d", { context: v } as never),
      "grep.maxLineLength": (v) => ws.fs.grep("needle", "/d", { maxLineLength: v } as never),
      "mkdir.mode": (v) => ws.fs.mkdir("/made", { mode: v } as never),
      "writeFile.mode": (v) => ws.fs.writeFile("/written", "x", { mode: v } as never),
    };
    const wrong: string[] = [];
    for (const [name, call] of Object.entries(calls)) {
      const want = name.endsWith(".mode") ? "WorkspaceFsError:EINVAL" : "TypeError";
      for (const v of ODD) {
        const got = await outcome(call(v));
        if (got !== want) wrong.push(`${name} ${String(JSON.stringify(v) ?? v)}: ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    expect((await ws.fs.readdir("/")).map((e) => e.name)).toEqual(["d"]);
    // the boundaries still work
    expect(await ws.fs.readdir("/d", { limit: 0 } as never)).toEqual([]);
    expect((await ws.fs.grep("needle", "/d", { context: 0, limit: 2 } as never)).length).toBe(2);
  });
});
