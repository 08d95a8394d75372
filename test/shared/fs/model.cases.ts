/**
 * Seeded model-based test: random sequences of mkdir / writeFile / readFile /
 * rm / rename / symlink / stat / lstat / readdir / readlink over a small name
 * alphabet, run against `workspace.fs` and against {@link FsModel}; every
 * step must give the same result or error code. A mismatch prints the seed,
 * the step and the op sequence so it can be replayed.
 */
import { describe, expect } from "vitest";
import { fsIt, prng, type FsHarness, type FsTestContext } from "./harness.js";
import { FsModel, modelOutcome, type ModelOutcome, type ModelStat } from "./model.js";

/** Base seed of the model test; run `r` uses `MODEL_SEED + r`. */
export const MODEL_SEED = 20_261_117;

const NAMES = ["a", "b", "é"];
const CONTENTS = ["", "x", "hello\n", "é😀", "\uFEFFbom", "l1\r\nl2\n"];

export type Op =
  | { op: "writeFile"; path: string; content: string; as: "string" | "bytes" | "stream"; options: { mode?: number; exclusive?: boolean } }
  | { op: "mkdir"; path: string; options: { recursive?: boolean; mode?: number } }
  | { op: "readFile"; path: string }
  | { op: "rm"; path: string; options: { recursive?: boolean; force?: boolean } }
  | { op: "rename"; from: string; to: string }
  | { op: "symlink"; target: string; path: string }
  | { op: "stat"; path: string }
  | { op: "lstat"; path: string }
  | { op: "readdir"; path: string }
  | { op: "readlink"; path: string }
  | { op: "chmod"; path: string; mode: number }
  | { op: "readRange"; path: string; byteOffset: number; byteLength?: number }
  | { op: "ls"; path: string }
  | { op: "find"; path: string }
  | { op: "grep"; pattern: string; path: string }
  | { op: "reopen" };

/** Deterministic op generator. */
export function makeOpGenerator(seed: number): (step: number) => Op {
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const chance = (p: number) => rand() < p;
  const plainPath = (): string => {
    const depth = 1 + (chance(0.45) ? 0 : chance(0.6) ? 1 : 2);
    return "/" + Array.from({ length: depth }, () => pick(NAMES)).join("/");
  };
  const path = (): string => {
    if (chance(0.015)) return pick(["", "a", "/..", "/a/../.."]);
    const p = plainPath();
    if (!chance(0.1)) return p;
    switch (int(4)) {
      case 0:
        return p.replace("/", "//");
      case 1:
        return `${p}/`;
      case 2:
        return p.replace(/^\/([^/]+)/, "/$1/.");
      default:
        return `/${pick(NAMES)}/..${p}`;
    }
  };
  const target = (): string => {
    const r = rand();
    if (r < 0.45) return plainPath();
    if (r < 0.9) {
      const n = 1 + int(2);
      return Array.from({ length: n }, () => (chance(0.2) ? ".." : pick(NAMES))).join("/");
    }
    return pick(["/", "..", ".", "../.."]);
  };
  return (step) => {
    const r = int(100);
    if (r >= 86) {
      const r2 = int(70);
      if (r2 < 10) return { op: "chmod", path: path(), mode: pick([0o600, 0o700, 0o104755]) };
      if (r2 < 20) {
        const byteOffset = int(6);
        return chance(0.5) ? { op: "readRange", path: path(), byteOffset } : { op: "readRange", path: path(), byteOffset, byteLength: int(5) };
      }
      if (r2 < 32) return { op: "ls", path: path() };
      if (r2 < 44) return { op: "find", path: path() };
      if (r2 < 58) return { op: "grep", pattern: pick(["l", "x", "é"]), path: path() };
      if (r2 < 61) return { op: "reopen" };
    }
    if (r < 20) {
      const options: { mode?: number; exclusive?: boolean } = {};
      if (chance(0.2)) options.mode = pick([0o600, 0o755, 0o100644]);
      if (chance(0.15)) options.exclusive = true;
      const content = chance(0.5) ? `${pick(CONTENTS)}${step}` : pick(CONTENTS);
      const as = pick(["string", "string", "bytes", "stream"] as const);
      return { op: "writeFile", path: path(), content, as, options };
    }
    if (r < 35) {
      const options: { recursive?: boolean; mode?: number } = {};
      if (chance(0.5)) options.recursive = true;
      if (chance(0.2)) options.mode = pick([0o700, 0o750]);
      return { op: "mkdir", path: path(), options };
    }
    if (r < 45) return { op: "readFile", path: path() };
    if (r < 54) {
      const options: { recursive?: boolean; force?: boolean } = {};
      if (chance(0.4)) options.recursive = true;
      if (chance(0.3)) options.force = true;
      return { op: "rm", path: path(), options };
    }
    if (r < 64) return { op: "rename", from: path(), to: path() };
    if (r < 72) return { op: "symlink", target: target(), path: path() };
    if (r < 80) return { op: "stat", path: path() };
    if (r < 86) return { op: "lstat", path: path() };
    if (r < 94) return { op: "readdir", path: path() };
    return { op: "readlink", path: path() };
  };
}

/** ls only rejects with EINVAL (bad path); everything else is a list. */
function modelLs(model: FsModel, path: string): string[] {
  return model.ls(path);
}

type Outcome = { ok: unknown } | { err: string } | { threw: string };

async function vfsOutcome(promise: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: await promise };
  } catch (error) {
    const e = error as { name?: string; code?: string; message?: string };
    if (e?.name === "WorkspaceFsError" && typeof e.code === "string") return { err: e.code };
    return { threw: `${e?.name}: ${e?.message}` };
  }
}

function runOnVfs(t: FsTestContext, op: Op): Promise<unknown> {
  const fs = t.fs;
  switch (op.op) {
    case "writeFile": {
      const bytes = new TextEncoder().encode(op.content);
      const content =
        op.as === "string"
          ? op.content
          : op.as === "bytes"
            ? bytes
            : new ReadableStream<Uint8Array>({
                start(controller) {
                  controller.enqueue(bytes.slice(0, 2));
                  controller.enqueue(bytes.slice(2));
                  controller.close();
                },
              });
      return fs.writeFile(op.path, content, op.options);
    }
    case "chmod":
      return fs.chmod(op.path, op.mode);
    case "readRange":
      return fs.readFile(op.path, { encoding: "utf8", byteOffset: op.byteOffset, ...(op.byteLength === undefined ? {} : { byteLength: op.byteLength }) });
    case "ls":
      return fs.ls(op.path);
    case "find":
      return fs.find(op.path);
    case "grep":
      return fs.grep(op.pattern, op.path);
    case "reopen":
      t.reopen();
      return Promise.resolve(undefined);
    case "mkdir":
      return fs.mkdir(op.path, op.options);
    case "readFile":
      return fs.readFile(op.path, "utf8");
    case "rm":
      return fs.rm(op.path, op.options);
    case "rename":
      return fs.rename(op.from, op.to);
    case "symlink":
      return fs.symlink(op.target, op.path);
    case "stat":
      return fs.stat(op.path);
    case "lstat":
      return fs.lstat(op.path);
    case "readdir":
      return fs.readdir(op.path);
    case "readlink":
      return fs.readlink(op.path);
  }
}

function runOnModel(model: FsModel, op: Op): ModelOutcome<unknown> {
  return modelOutcome((): unknown => {
    switch (op.op) {
      case "writeFile":
        return model.writeFile(op.path, op.content, op.options);
      case "chmod":
        return model.chmod(op.path, op.mode);
      case "readRange":
        return model.readRange(op.path, op.byteOffset, op.byteLength);
      case "ls":
        return modelLs(model, op.path);
      case "find":
        return model.find(op.path);
      case "grep":
        return model.grep(op.pattern, op.path);
      case "reopen":
        return undefined;
      case "mkdir":
        return model.mkdir(op.path, op.options);
      case "readFile":
        return model.readFile(op.path);
      case "rm":
        return model.rm(op.path, op.options);
      case "rename":
        return model.rename(op.from, op.to);
      case "symlink":
        return model.symlink(op.target, op.path);
      case "stat":
        return model.stat(op.path);
      case "lstat":
        return model.lstat(op.path);
      case "readdir":
        return model.readdir(op.path);
      case "readlink":
        return model.readlink(op.path);
    }
  });
}

/** Model node id ↔ VFS inode, both ways: inodes are stable and never shared. */
class InodeMap {
  readonly #byNode = new Map<number, number>();
  readonly #byInode = new Map<number, number>();
  check(nodeId: number, inode: unknown): string | undefined {
    if (typeof inode !== "number" || !Number.isSafeInteger(inode) || inode < 1) return `inode ${String(inode)} is not a positive integer`;
    if (nodeId === 1 && inode !== 1) return `root inode is ${inode}, expected 1`;
    const known = this.#byNode.get(nodeId);
    if (known !== undefined && known !== inode) return `inode changed from ${known} to ${inode} for the same node`;
    const owner = this.#byInode.get(inode);
    if (owner !== undefined && owner !== nodeId) return `inode ${inode} is shared by two different nodes`;
    this.#byNode.set(nodeId, inode);
    this.#byInode.set(inode, nodeId);
    return undefined;
  }
}

function compareStat(expected: ModelStat, actual: Record<string, unknown>, inodes: InodeMap): string | undefined {
  const { nodeId, ...rest } = expected;
  const { inode, ...got } = actual;
  if (JSON.stringify(sortKeys(got)) !== JSON.stringify(sortKeys(rest))) return `stat ${JSON.stringify(got)} ≠ expected ${JSON.stringify(rest)}`;
  return inodes.check(nodeId, inode);
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function compare(op: Op, expected: ModelOutcome<unknown>, actual: Outcome, inodes: InodeMap): string | undefined {
  if ("threw" in actual) return `threw a non-WorkspaceFsError: ${actual.threw}`;
  if ("anyOf" in expected) {
    if ("err" in actual && expected.anyOf.includes(actual.err as never)) return undefined;
    return `expected one of ${expected.anyOf.join("/")}, got ${JSON.stringify(actual)}`;
  }
  if ("err" in expected) {
    if ("err" in actual && actual.err === expected.err) return undefined;
    return `expected ${expected.err}, got ${"err" in actual ? actual.err : `success ${JSON.stringify(actual.ok)}`}`;
  }
  if ("err" in actual) return `expected success ${JSON.stringify(expected.ok)}, got ${actual.err}`;
  if (op.op === "stat" || op.op === "lstat") return compareStat(expected.ok as ModelStat, actual.ok as Record<string, unknown>, inodes);
  if (op.op === "readdir") {
    const got = (actual.ok as Record<string, unknown>[]).map(sortKeys);
    const want = (expected.ok as Record<string, unknown>[]).map(sortKeys);
    return JSON.stringify(got) === JSON.stringify(want) ? undefined : `readdir ${JSON.stringify(got)} ≠ expected ${JSON.stringify(want)}`;
  }
  if (op.op === "ls" || op.op === "find" || op.op === "grep") {
    return JSON.stringify(actual.ok) === JSON.stringify(expected.ok) ? undefined : `${JSON.stringify(actual.ok)} ≠ expected ${JSON.stringify(expected.ok)}`;
  }
  if (op.op === "readFile" || op.op === "readlink" || op.op === "readRange") {
    return actual.ok === expected.ok ? undefined : `${JSON.stringify(actual.ok)} ≠ expected ${JSON.stringify(expected.ok)}`;
  }
  return actual.ok === undefined ? undefined : `resolved with ${JSON.stringify(actual.ok)}, expected undefined`;
}

/** Runs one seeded sequence; returns a failure report or undefined. */
export async function runModelSequence(t: FsTestContext, seed: number, steps: number): Promise<string | undefined> {
  const base = 1_800_000_000_000;
  const model = new FsModel(t.clock.value); // the root was created when the Workspace was
  t.clock.set(base);
  const next = makeOpGenerator(seed);
  const inodes = new InodeMap();
  const log: Op[] = [];
  const report = (step: number, what: string) =>
    `model mismatch — seed ${seed}, step ${step}: ${what}\n` +
    `replay: makeOpGenerator(${seed}) for ${step + 1} steps; clock = ${base} + 1000 × step; ops:\n` +
    log.map((o, i) => `  ${i}: ${JSON.stringify(o)}`).join("\n");
  // a fresh store's root is mapped first
  const root = await vfsOutcome(t.fs.stat("/"));
  if (!("ok" in root)) return report(-1, `stat("/") failed: ${JSON.stringify(root)}`);
  const rootCheck = compareStat(model.stat("/"), root.ok as Record<string, unknown>, inodes);
  if (rootCheck) return report(-1, rootCheck);
  for (let step = 0; step < steps; step++) {
    const now = t.clock.set(base + 1000 * (step + 1));
    model.now = now;
    const op = next(step);
    log.push(op);
    const actual = await vfsOutcome(runOnVfs(t, op));
    const expected = runOnModel(model, op);
    const problem = compare(op, expected, actual, inodes);
    if (problem) return report(step, `${op.op}: ${problem}`);
    if (step % 25 === 24 || step === steps - 1) {
      const found = await vfsOutcome(t.fs.find("/"));
      const want = model.findAll();
      if (!("ok" in found) || JSON.stringify(found.ok) !== JSON.stringify(want)) {
        return report(step, `after the step, find("/") = ${JSON.stringify(found)} ≠ model ${JSON.stringify(want)}`);
      }
      const listed = await vfsOutcome(t.fs.ls("/"));
      if (!("ok" in listed) || JSON.stringify(listed.ok) !== JSON.stringify(model.lsAll())) {
        return report(step, `after the step, ls("/") = ${JSON.stringify(listed)} ≠ model ${JSON.stringify(model.lsAll())}`);
      }
      for (const { path } of want) {
        const got = await vfsOutcome(t.fs.lstat(path));
        const exp = modelOutcome(() => model.lstat(path));
        const diff = compare({ op: "lstat", path }, exp, got, inodes);
        if (diff) return report(step, `after the step, lstat(${JSON.stringify(path)}): ${diff}`);
      }
    }
  }
  return undefined;
}

export function defineModelCases(h: FsHarness): void {
  describe(`model-based (${h.model.runs} × ${h.model.steps} ops, seed ${MODEL_SEED})`, () => {
    for (let r = 0; r < h.model.runs; r++) {
      const seed = MODEL_SEED + r;
      fsIt(
        h,
        `seed ${seed}: ${h.model.steps} random ops agree with the model`,
        async (t) => {
          const failure = await runModelSequence(t, seed, h.model.steps);
          expect(failure, failure).toBeUndefined();
        },
        300_000,
      );
    }
  });
}
