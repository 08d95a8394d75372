/**
 * Issue 20, run 39, fixer PT (siblings of attack39f/provider-truncate-big-file-reverts-write): `provider.truncate`
 * is one step on whatever the file holds when it lands, as truncate(2). Another writer — the same Workspace, or
 * another Workspace on the same database file (another process) — overwriting, appending to, renaming onto or
 * renaming away the file while a truncate runs never has its resolved write undone: the final state is the one a
 * serial order of the two operations gives on a real filesystem (Node 22's node:fs on Linux, run here as the
 * reference), and the truncate resolves (or fails as truncate(2) would: `ENOENT` for a file moved away first) —
 * never `ESTALE` unless other writers win 10 tries in a row, and then nothing was cut.
 *
 * Three forms, for a file over `maxOpenFileBytes` (1.25 MiB, limit 640 KiB: the streamed cut) and one within it (the
 * `r+` handle), cut and zero-extended:
 * - the other write is awaited in full right before each `workspace.fs` call the truncate makes (and each pull of
 *   the large cut's content stream): it lands before the truncate's store, so the state is exactly "other, then
 *   truncate";
 * - the other write is only started (not awaited, in a microtask) right after the first SQL statement of each
 *   synchronous stretch of a lone truncate: the two interleave at their awaits, and the state is one of the two
 *   serial orders;
 * - a writer landing before every try of the store: `ESTALE` after exactly 10 tries, the last write kept.
 * All loops are bounded by the calls and awaits of one lone truncate.
 */
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { truncate as nodeTruncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";
import { readStreamBytes } from "../../../src/util/bytes.js";

const KiB = 1024;
const MiB = 1024 * KiB;
/** The provider's limit here: files above it (two or more 512 KiB chunks) are cut by the streamed rewrite. */
const MAX_OPEN = 640 * KiB;
const fill = (char: string, count: number): Buffer => Buffer.alloc(count, char);
/** A patterned body (not one repeated byte), so a wrong offset shows. */
const patterned = (count: number): Buffer => {
  const out = Buffer.alloc(count);
  for (let i = 0; i < count; i++) out[i] = 97 + ((i * 7 + (i >> 9)) % 26);
  return out;
};

type Fs = Pick<WorkspaceFilesystem, "writeFile" | "appendFile" | "rename">;
/** Another writer's operation: on a Workspace, and the same on a real directory (the reference). */
interface Op {
  name: string;
  ws(fs: Fs): Promise<void>;
  real(dir: string): void;
}

interface Scenario {
  name: string;
  initial: Buffer;
  len: number;
  ops: Op[];
}

const overwrite = (name: string, data: Buffer): Op => ({
  name,
  ws: (fs) => fs.writeFile("/f", data),
  real: (dir) => writeFileSync(join(dir, "f"), data),
});
const append = (data: Buffer): Op => ({
  name: `append ${data.byteLength} B`,
  ws: (fs) => fs.appendFile("/f", data),
  real: (dir) => appendFileSync(join(dir, "f"), data),
});
const renameOnto: Op = {
  name: "rename /o onto /f",
  ws: (fs) => fs.rename("/o", "/f"),
  real: (dir) => renameSync(join(dir, "o"), join(dir, "f")),
};
const renameAway: Op = {
  name: "rename /f to /m",
  ws: (fs) => fs.rename("/f", "/m"),
  real: (dir) => renameSync(join(dir, "f"), join(dir, "m")),
};
const OTHER = fill("n", 50);

const scenarios: Scenario[] = [
  {
    name: "a 1.25 MiB file cut to 600 KiB (over maxOpenFileBytes)",
    initial: patterned(1.25 * MiB),
    len: 600 * KiB,
    ops: [overwrite("overwrite with 100 B", fill("b", 100)), overwrite("overwrite with 1.1 MiB", fill("c", 1.1 * MiB)), append(fill("Z", 10)), renameOnto, renameAway],
  },
  {
    // A new size over maxOpenFileBytes: a file then shorter than it is EFBIG (documented), so only writers leaving it longer.
    name: "a 1.25 MiB file cut to 1 MiB + 1 (over maxOpenFileBytes, and so is the new size)",
    initial: patterned(1.25 * MiB),
    len: MiB + 1,
    ops: [overwrite("overwrite with 1.1 MiB", fill("c", 1.1 * MiB)), append(fill("Z", 10)), renameAway],
  },
  {
    name: "a 1000 B file cut to 10 (a handle)",
    initial: patterned(1000),
    len: 10,
    ops: [overwrite("overwrite with 100 B", fill("b", 100)), overwrite("overwrite with 700 KiB (past maxOpenFileBytes)", fill("c", 700 * KiB)), append(fill("Z", 5)), renameOnto, renameAway],
  },
  {
    name: "a 1000 B file extended to 2000 (a handle)",
    initial: patterned(1000),
    len: 2000,
    ops: [overwrite("overwrite with 100 B", fill("b", 100)), append(fill("Z", 5)), renameOnto, renameAway],
  },
];

interface State {
  f: Buffer | null;
  m: Buffer | null;
  o: Buffer | null;
  /** The truncate's error code, if it failed. */
  code: string | undefined;
}

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "fix39-pt-"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The reference: both operations in `order` on a real directory with node:fs (truncate(2) through Node 22). */
async function reference(scenario: Scenario, op: Op, order: "other first" | "truncate first"): Promise<State> {
  const dir = mkdtempSync(join(base, "real-"));
  writeFileSync(join(dir, "f"), scenario.initial);
  writeFileSync(join(dir, "o"), OTHER);
  let code: string | undefined;
  const cut = async (): Promise<void> => {
    try {
      await nodeTruncate(join(dir, "f"), scenario.len);
    } catch (error) {
      code = (error as NodeJS.ErrnoException).code;
    }
  };
  if (order === "other first") op.real(dir);
  await cut();
  if (order === "truncate first") op.real(dir);
  const read = (name: string): Buffer | null => {
    try {
      return readFileSync(join(dir, name));
    } catch {
      return null;
    }
  };
  const state = { f: read("f"), m: read("m"), o: read("o"), code };
  rmSync(dir, { recursive: true, force: true });
  return state;
}

/**
 * A database with `/f` (the scenario's initial bytes) and `/o`; `ours` is what the provider uses, `theirs` another
 * Workspace on the same file. `reset()` puts `/f` and `/o` back and removes `/m`, for the next point of a sweep.
 */
async function fresh(scenario: Scenario) {
  const file = join(mkdtempSync(join(base, "ws-")), "w.db");
  const storage = nodeSqliteStorage(file);
  const ours = new Workspace({ storage });
  const theirStorage = nodeSqliteStorage(file);
  const theirs = new Workspace({ storage: theirStorage });
  const reset = async (): Promise<void> => {
    await ours.fs.rm("/m", { force: true });
    await ours.fs.writeFile("/f", scenario.initial);
    await ours.fs.writeFile("/o", OTHER);
  };
  await reset();
  return {
    storage,
    ours,
    theirs,
    reset,
    async state(code: string | undefined): Promise<State> {
      const read = async (path: string): Promise<Buffer | null> => {
        try {
          return Buffer.from(await readStreamBytes(await ours.fs.readFile(path)));
        } catch {
          return null;
        }
      };
      return { f: await read("/f"), m: await read("/m"), o: await read("/o"), code };
    },
    async close() {
      await theirs.close();
      theirStorage.close();
      await ours.close();
      storage.close();
    },
  };
}

/**
 * A Workspace-like object whose `fs` runs `before(n)` ahead of the n-th (from 1) `stat`/`lstat`/`readlink`/
 * `readFile`/`writeFile` call the provider makes and of each pull of a content stream it stores.
 */
function intercepted(fs: WorkspaceFilesystem, before: (n: number) => Promise<void>): { fs: WorkspaceFilesystem } {
  let n = 0;
  const step = () => before(++n);
  const wrapStream = (stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> => {
    const reader = stream.getReader();
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await step();
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  };
  const proxy = new Proxy(fs, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (!["stat", "lstat", "readlink", "readFile", "writeFile"].includes(String(prop))) return bound;
      return async (...args: unknown[]) => {
        await step();
        if (prop === "writeFile" && args[1] instanceof ReadableStream) args[1] = wrapStream(args[1] as ReadableStream<Uint8Array>);
        return bound(...args);
      };
    },
  });
  return { fs: proxy };
}

const codeOf = (error: unknown): string | undefined => (error as { code?: string }).code;
const show = (state: State) => ({
  f: state.f === null ? null : { length: state.f.byteLength, head: state.f.subarray(0, 12).toString("latin1") },
  m: state.m?.byteLength ?? null,
  o: state.o?.byteLength ?? null,
  code: state.code,
});
const same = (a: State, b: State): boolean =>
  a.code === b.code && [a.f, a.m, a.o].every((x, i) => {
    const y = [b.f, b.m, b.o][i];
    return x === null ? y === null : y !== null && x.equals(y!);
  });

describe.each(scenarios)("provider.truncate of $name", (scenario) => {
  const options = { maxOpenFileBytes: MAX_OPEN };

  it("alone: as truncate(2) on a real file", async () => {
    const ws = await fresh(scenario);
    try {
      await new SQLiteWorkspaceProvider(ws.ours, options).truncate("/f", scenario.len);
      const want = await reference(scenario, { name: "none", ws: async () => {}, real: () => {} }, "truncate first");
      expect(same(await ws.state(undefined), want)).toBe(true);
    } finally {
      await ws.close();
    }
  });

  it.each(scenario.ops)("another Workspace's $name awaited before any of its calls: exactly 'other, then truncate'", async (op) => {
    const want = await reference(scenario, op, "other first");
    // How many calls a lone truncate makes: every one of them is a point the other write lands before.
    const ws = await fresh(scenario);
    try {
      let calls = 0;
      await new SQLiteWorkspaceProvider(intercepted(ws.ours.fs, async (n) => void (calls = n)) as never, options).truncate("/f", scenario.len);
      expect(calls).toBeGreaterThan(0);
      for (let at = 1; at <= calls; at++) {
        await ws.reset();
        let landed = false;
        const provider = new SQLiteWorkspaceProvider(
          intercepted(ws.ours.fs, async (n) => {
            if (n !== at) return;
            await op.ws(ws.theirs.fs);
            landed = true;
          }) as never,
          options,
        );
        let code: string | undefined;
        await provider.truncate("/f", scenario.len).catch((error: unknown) => void (code = codeOf(error)));
        expect(landed).toBe(true);
        const got = await ws.state(code);
        expect(same(got, want), `call ${at}: ${JSON.stringify(show(got))} vs ${JSON.stringify(show(want))}`).toBe(true);
      }
    } finally {
      await ws.close();
    }
  });

  it.each(scenario.ops)("the same Workspace's $name started at any of its awaits: a serial order", async (op) => {
    const wants = [await reference(scenario, op, "other first"), await reference(scenario, op, "truncate first")];
    const ws = await fresh(scenario);
    const exec = ws.storage.sql.exec.bind(ws.storage.sql);
    try {
      // The first statement of each synchronous stretch of a lone truncate (between two of its awaits): a start
      // deferred to a microtask after a later statement of the same stretch meets the truncate at the same await.
      const points: number[] = [];
      let statements = 0;
      let inStretch = false;
      (ws.storage.sql as { exec: unknown }).exec = (query: string, ...bindings: unknown[]) => {
        statements++;
        if (!inStretch) {
          inStretch = true;
          points.push(statements);
          queueMicrotask(() => (inStretch = false));
        }
        return exec(query, ...(bindings as never[]));
      };
      await new SQLiteWorkspaceProvider(ws.ours, options).truncate("/f", scenario.len);
      (ws.storage.sql as { exec: unknown }).exec = exec;
      expect(points.length).toBeGreaterThan(1);
      for (const at of points) {
        await ws.reset();
        let other: Promise<void> | undefined;
        let count = 0;
        (ws.storage.sql as { exec: unknown }).exec = (query: string, ...bindings: unknown[]) => {
          const cursor = exec(query, ...(bindings as never[]));
          // Started once this statement (maybe inside a transaction) is done, as any other caller of the Durable Object.
          if (++count === at) queueMicrotask(() => (other = op.ws(ws.ours.fs)));
          return cursor;
        };
        const provider = new SQLiteWorkspaceProvider(ws.ours, options);
        let code: string | undefined;
        await provider.truncate("/f", scenario.len).catch((error: unknown) => void (code = codeOf(error)));
        (ws.storage.sql as { exec: unknown }).exec = exec;
        expect(other).toBeDefined();
        await other;
        const got = await ws.state(code);
        expect(wants.some((want) => same(got, want)), `statement ${at}: ${JSON.stringify(show(got))}`).toBe(true);
      }
    } finally {
      (ws.storage.sql as { exec: unknown }).exec = exec;
      await ws.close();
    }
  });

  it("a writer landing before every store: ESTALE after 10 tries, nothing cut, the last write kept", async () => {
    const ws = await fresh(scenario);
    try {
      let writes = 0;
      const provider = new SQLiteWorkspaceProvider(
        {
          fs: new Proxy(ws.ours.fs, {
            get(target, prop) {
              const value = Reflect.get(target, prop, target) as (...args: unknown[]) => Promise<unknown>;
              if (prop !== "writeFile") return typeof value === "function" ? value.bind(target) : value;
              return async (...args: unknown[]) => {
                // Same size as the file (so a handle's store, too, meets new content), another letter each time.
                writes++;
                await ws.theirs.fs.writeFile("/f", fill(String.fromCharCode(65 + writes), scenario.initial.byteLength));
                return value.apply(target, args);
              };
            },
          }),
        } as never,
        options,
      );
      const error = await provider.truncate("/f", scenario.len).then(
        () => undefined,
        (caught: unknown) => caught as NodeJS.ErrnoException,
      );
      expect(error?.code).toBe("ESTALE");
      expect(error?.syscall).toBe("ftruncate");
      expect(error?.path).toBe("/f");
      expect(error?.message).toMatch(/during each of 10 tries; nothing was cut/);
      expect(writes).toBe(10);
      // The 10th write (letter K) is the file's content: nothing was cut after it.
      const bytes = Buffer.from(await readStreamBytes(await ws.ours.fs.readFile("/f")));
      expect(bytes.equals(fill("K", scenario.initial.byteLength))).toBe(true);
    } finally {
      await ws.close();
    }
  });
});

it("the reference itself: truncate(2) of a missing file is ENOENT from open, as the provider's", async () => {
  const dir = mkdtempSync(join(base, "missing-"));
  const real = await nodeTruncate(join(dir, "nope"), 3).catch((error: NodeJS.ErrnoException) => error);
  const file = join(dir, "w.db");
  const storage = nodeSqliteStorage(file);
  const workspace = new Workspace({ storage });
  try {
    const ours = await new SQLiteWorkspaceProvider(workspace).truncate("/nope", 3).catch((error: NodeJS.ErrnoException) => error);
    expect({ code: (ours as NodeJS.ErrnoException).code, syscall: (ours as NodeJS.ErrnoException).syscall }).toEqual({
      code: (real as NodeJS.ErrnoException).code,
      syscall: (real as NodeJS.ErrnoException).syscall,
    });
  } finally {
    await workspace.close();
    storage.close();
  }
});
