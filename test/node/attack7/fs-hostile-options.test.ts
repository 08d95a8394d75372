/**
 * Issue 20 seventh attack run, category 4 on workspace.fs itself (the
 * methods every adapter and backend reach): option objects whose getters
 * throw (rm, mkdir, writeFile, readdir, find, grep), a Proxy whose traps
 * throw, options inherited through the prototype (`Object.create({
 * recursive: true })`, read as Node's fs reads them), and content objects
 * that look like strings or buffers (a throwing `length` getter, a
 * `toString`). Withstood: every call REJECTS (never throws synchronously)
 * with the getter's error or the documented TypeError, and changes nothing;
 * inherited options are honoured.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const boom = () => ({
  get recursive(): boolean { throw new Error("getter boom"); },
  get force(): boolean { throw new Error("getter boom"); },
  get mode(): number { throw new Error("getter boom"); },
  get limit(): number { throw new Error("getter boom"); },
  get exclusive(): boolean { throw new Error("getter boom"); },
});

async function outcome(f: () => unknown): Promise<string> {
  let p: Promise<unknown>;
  try {
    p = f() as Promise<unknown>;
  } catch (e) {
    return `threw synchronously: ${(e as Error).message}`;
  }
  return p.then(() => "resolved", (e: Error) => `${e.name}: ${e.message}`);
}

describe("attack7: hostile option and content objects", () => {
  it("throwing getters and Proxy traps reject with their error and change nothing; look-alike content is a TypeError", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/d/e", { recursive: true });
    await ws.fs.writeFile("/d/e/f", "x");
    const got = [
      await outcome(() => ws.fs.rm("/d", boom() as never)),
      await outcome(() => ws.fs.mkdir("/x/y", boom() as never)),
      await outcome(() => ws.fs.writeFile("/d/g", "y", boom() as never)),
      await outcome(() => ws.fs.readdir("/d", boom() as never)),
      await outcome(() => ws.fs.find("/d", "**", boom() as never)),
      await outcome(() => ws.fs.grep("x", "/d", boom() as never)),
      await outcome(() => ws.fs.mkdir("/p/q", new Proxy({}, { get() { throw new Error("proxy boom"); }, has() { throw new Error("proxy boom"); } }) as never)),
      await outcome(() => ws.fs.writeFile("/d/h", { get length(): number { throw new Error("len boom"); } } as never)),
      await outcome(() => ws.fs.writeFile("/d/h", { toString: () => "pwn" } as never)),
    ];
    const TYPE = "TypeError: writeFile: content must be a string, a Uint8Array or a ReadableStream<Uint8Array>";
    expect(got).toEqual([...Array(6).fill("Error: getter boom"), "Error: proxy boom", TYPE, TYPE]);
    expect((await ws.fs.find("/", "**")).map((e) => e.path)).toEqual(["/d", "/d/e", "/d/e/f"]);
  });

  it("options inherited through the prototype are honoured (rm recursive + force)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/d/e", { recursive: true });
    await ws.fs.writeFile("/d/e/f", "x");
    expect(await outcome(() => ws.fs.rm("/d", Object.create({ recursive: true, force: true })))).toBe("resolved");
    expect(await ws.fs.find("/", "**")).toEqual([]);
  });
});
