/**
 * What `WorkspaceFsAdapter` keeps of the contents listings bring along
 * (`listWithContents`): at most PREFETCH_KEPT_BYTES (4 MiB) and
 * PREFETCH_KEPT_FILES (1,024) at once, the oldest dropped first; none after
 * `forgetPrefetched()` (what the shell runtime calls around `git`,
 * `artifacts`, `assets` and custom commands), including what a listing still
 * in flight then brings. The listing callee is a stand-in returning fixed
 * bytes; reads it did not bring are answered by `readBytes`, and counted.
 * Date is frozen so the 250 ms window never lapses during a test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { PREFETCH_KEPT_BYTES, PREFETCH_KEPT_FILES, WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";
import type { WorkspaceDirentResult } from "../../../src/fs/types.js";

const open: ReturnType<typeof nodeSqliteStorage>[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  for (const storage of open.splice(0)) storage.close();
});

const KiB = 1024;

/** `dir` lists `count` files of `size` bytes each (byte value = the file's index). */
function listing(count: number, size: number): { entries: WorkspaceDirentResult[]; contents: Record<string, Uint8Array> } {
  const entries: WorkspaceDirentResult[] = [];
  const contents: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    entries.push({ name: `f${i}`, isFile: true, isDirectory: false, isSymbolicLink: false, size } as WorkspaceDirentResult);
    contents[`f${i}`] = new Uint8Array(size).fill(i % 256);
  }
  return { entries, contents };
}

function setup(list: (path: string) => Promise<{ entries: WorkspaceDirentResult[]; contents: Record<string, Uint8Array> }>) {
  const storage = nodeSqliteStorage(":memory:");
  open.push(storage);
  const ws = new Workspace({ storage });
  const reads: string[] = [];
  const adapter = new WorkspaceFsAdapter(ws.fs, {
    readBytes: async (path) => {
      reads.push(path);
      return new TextEncoder().encode(`read ${path}`);
    },
    listWithContents: list,
  });
  return { adapter, reads };
}

describe("WorkspaceFsAdapter: listed contents kept", () => {
  it("the limits are 4 MiB and 1,024 files", () => {
    expect(PREFETCH_KEPT_BYTES).toBe(4 * 1024 * 1024);
    expect(PREFETCH_KEPT_FILES).toBe(1024);
  });

  it("six listings of 1 MiB each: the last four are kept, the first two are read on demand", async () => {
    const { adapter, reads } = setup(async () => listing(16, 64 * KiB));
    for (let d = 0; d < 6; d++) await adapter.readdirWithFileTypes(`/workspace/d${d}`);
    const got: string[] = [];
    const want: string[] = [];
    for (let d = 0; d < 6; d++) {
      for (let i = 0; i < 16; i++) {
        const bytes = await adapter.readFileBuffer(`/workspace/d${d}/f${i}`);
        // A kept content: 64 KiB of byte i (summarised, to compare 96 files at once).
        const kept = bytes.byteLength === 64 * KiB && bytes.every((b) => b === i);
        got.push(kept ? `kept d${d}/f${i}` : new TextDecoder().decode(bytes));
        want.push(d < 2 ? `read /workspace/d${d}/f${i}` : `kept d${d}/f${i}`);
      }
    }
    expect(got).toEqual(want);
    expect(reads).toEqual([0, 1].flatMap((d) => Array.from({ length: 16 }, (_, i) => `/workspace/d${d}/f${i}`)));
  });

  it("two listings of 600 files: the newest 1,024 are kept, the first 176 are read on demand", async () => {
    const { adapter, reads } = setup(async () => listing(600, 1));
    await adapter.readdirWithFileTypes("/workspace/a");
    await adapter.readdirWithFileTypes("/workspace/b");
    for (const dir of ["a", "b"]) for (let i = 0; i < 600; i++) await adapter.readFileBuffer(`/workspace/${dir}/f${i}`);
    expect(reads).toEqual(Array.from({ length: 176 }, (_, i) => `/workspace/a/f${i}`));
  });

  it("forgetPrefetched drops what was listed: the next read goes to the Workspace", async () => {
    const { adapter, reads } = setup(async () => listing(2, 3));
    await adapter.readdirWithFileTypes("/workspace/d");
    adapter.forgetPrefetched();
    expect(new TextDecoder().decode(await adapter.readFileBuffer("/workspace/d/f0"))).toBe("read /workspace/d/f0");
    expect(reads).toEqual(["/workspace/d/f0"]);
  });

  it("a listing answered after forgetPrefetched keeps nothing (its contents may predate the change)", async () => {
    let answer!: () => void;
    const { adapter, reads } = setup(() => new Promise((resolve) => (answer = () => resolve(listing(2, 3)))));
    const listed = adapter.readdirWithFileTypes("/workspace/d");
    await Promise.resolve();
    adapter.forgetPrefetched();
    answer();
    expect((await listed).map((e) => e.name)).toEqual(["f0", "f1"]);
    expect(new TextDecoder().decode(await adapter.readFileBuffer("/workspace/d/f1"))).toBe("read /workspace/d/f1");
    expect(reads).toEqual(["/workspace/d/f1"]);
  });
});
