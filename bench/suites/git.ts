/**
 * Git suite (issue 15): `workspace.git` (isomorphic-git over the Workspace,
 * in workerd on Durable Object SQLite — the platform) beside the REAL git
 * (`/usr/bin/git`) on the local disk, both in the same run.
 *
 * Where each side runs: the Workspace side runs here, inside workerd, like
 * every suite. workerd has no child processes, so the native side runs in
 * Node: `bench/run.mjs` starts `bench/git-native.mjs`, a loopback HTTP server
 * (its URL is the `GIT_NATIVE` binding) that writes the same files into a
 * work tree on the local disk, runs the real git there and answers how long
 * it took (timed in Node around the spawn: process start included, HTTP round
 * trip excluded). The same server serves the clone source over smart HTTP
 * (`git http-backend`), so both clones fetch from the same server.
 *
 * Measures (ours and native alternate run by run; medians):
 *
 * 1. `status` of a 2,000-file repository with 20 modified files:
 *    `workspace.git.status({ dir })` vs `git status --porcelain`; the
 *    Workspace's entries printed as porcelain must equal real git's output.
 * 2. `diff` of the same: `workspace.git.diff({ dir })` vs `git diff`; the two
 *    texts must be identical (checked once before timing; the suite throws
 *    if not, so both sides are known to do the same work).
 * 3. `add -A` + `commit` of 1,000 new files (20 directories) in a fresh
 *    repository per run: `add({ all: true, paths: ["."] })` + `commit` vs
 *    `git add -A && git commit -q`; both commits must have the same tree oid.
 * 4. `checkout` back and forth between two branches that differ in all of
 *    1,000 files: `workspace.git.checkout({ ref })` vs `git checkout -q`; the
 *    last checkout must leave the right branch and a clean status.
 * 5. Shallow clone (depth 1) of a ~5 MB repository (three commits; the head
 *    tree: 40 × 96 KiB of noise + 400 text files) from the loopback server:
 *    `workspace.git.clone({ depth: 1 })` vs `git clone -q --depth 1`; the
 *    HEAD oid, file count and `.git/shallow` are checked. Storage: the growth of the Durable
 *    Object's SQLite database (`ctx.sql.databaseSize`) for the first clone,
 *    made first in the suite on the fresh (empty) store, beside native git's
 *    `.git` + work tree on disk (apparent bytes).
 *
 * Targets: status and diff within 10× of native git (`≤ 10× raw`); add+commit
 * and clone are informational. A MISS does not change the exit code (only
 * `--strict` does), as for every suite.
 */
import { createGitClient } from "../../src/git/index.js";
import type { Workspace } from "../../src/index.js";
import { defineSuite, medianOf, ratioAtMost, type BenchContext, type BenchRow } from "../harness.js";

const IDENTITY = { name: "Bench Workspace", email: "workspace@bench.test" };
const STATUS_FILES = 2_000;
const STATUS_DIRS = 20;
const MODIFIED = 20;
const ADD_FILES = 1_000;
const STATUS_RUNS = 11;
const ADD_RUNS = 3;
/** At least 2: the storage growth is read between the first and the second run. */
const CLONE_RUNS = 3;

interface NativeResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the commands in Node, ms. */
  ms: number;
  /** Their user + system CPU time, ms (10 ms ticks; NaN off Linux). */
  cpuMs: number;
}

/** Talks to bench/git-native.mjs. */
function nativeClient(base: string) {
  if (!base.startsWith("http")) throw new Error(`the native git side did not start: ${base}`);
  const post = async <T>(route: string, body: unknown): Promise<T> => {
    const res = await fetch(`${base}/native/${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const value = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`native ${route}: ${value.error ?? res.status}`);
    return value;
  };
  return {
    write: (repo: string, files: [string, string][]) => post<{ files: number }>("write", { repo, files }),
    /** Runs the commands; throws on a non-zero exit. */
    async git(repo: string, ...commands: string[][]): Promise<NativeResult> {
      const r = await post<NativeResult>("git", { repo, commands });
      if (r.code !== 0) throw new Error(`native git ${commands.map((c) => c.join(" ")).join(" && ")}: exit ${r.code}: ${r.stderr}`);
      return r;
    },
    rm: (repo: string) => post<object>("rm", { repo }),
    du: (repo: string) =>
      post<{ gitBytes: number; worktreeBytes: number; gitDiskBytes: number; worktreeDiskBytes: number; files: number }>("du", { repo }),
    cloneSource: () => post<{ url: string; head: string; files: number; treeBytes: number; packBytes: number }>("clone-source", {}),
  };
}
type Native = ReturnType<typeof nativeClient>;

/** Distinct source-like text, ~45 lines (≈ 1.6 KB). */
function sourceFile(seed: number, edit = 0): string {
  const lines: string[] = [];
  for (let l = 0; l < 45; l++) lines.push(`  const v${l} = compute(${seed}, ${l}, ${(seed * 7919 + l * 104729) % 1000003});`);
  if (edit) {
    lines[10] = `  const v10 = compute(${seed}, 10, ${edit}); // edited`;
    lines.push(`  return v0 + v44 + ${edit};`);
  }
  return `export function f${seed}() {\n${lines.join("\n")}\n}\n`;
}

/** `[path, text]` of the `count` files of a tree under `prefix` (relative paths). */
function tree(count: number, dirs: number, salt: number): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < count; i++) out.push([`src/d${i % dirs}/file${i}.ts`, sourceFile(salt * 1_000_000 + i)]);
  return out;
}

async function writeAll(ws: Workspace, dir: string, files: [string, string][]): Promise<void> {
  const made = new Set<string>();
  for (const [path, text] of files) {
    const parent = `${dir}/${path.slice(0, path.lastIndexOf("/"))}`;
    if (!made.has(parent)) {
      await ws.fs.mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await ws.fs.writeFile(`${dir}/${path}`, text);
  }
}

/** Ours and native alternately, `runs` times; medians. `ours` is timed here, `native` reports its own time. */
async function alternate(
  ctx: BenchContext,
  runs: number,
  ours: (i: number) => Promise<unknown>,
  native: (i: number) => Promise<NativeResult>,
  setup?: (i: number) => Promise<unknown>,
): Promise<{ ours: number; native: number; oursAll: number[]; nativeAll: number[]; nativeCpu: number }> {
  const a: number[] = [];
  const b: number[] = [];
  let cpu = 0;
  for (let i = 0; i < runs; i++) {
    await setup?.(i);
    a.push(await ctx.time(() => ours(i)));
    const r = await native(i);
    b.push(r.ms);
    cpu += r.cpuMs;
  }
  return { ours: medianOf(a), native: medianOf(b), oursAll: a, nativeAll: b, nativeCpu: cpu / runs };
}

/** The native side's mean CPU time, for the notes (wall times on a loaded machine include waiting for a CPU). */
const cpuNote = (r: { nativeCpu: number }) => (Number.isFinite(r.nativeCpu) ? `; native CPU (user + sys) ${r.nativeCpu.toFixed(0)} ms per run (mean)` : "");

const fmt = (ms: number[]) => ms.map((m) => m.toFixed(0)).join("/");

async function cloneRows(ctx: BenchContext, ws: Workspace, native: Native): Promise<BenchRow[]> {
  const source = await native.cloneSource();
  ctx.log(`clone source: ${source.files} files, ${(source.treeBytes / 1e6).toFixed(2)} MB tree, ${(source.packBytes / 1e6).toFixed(2)} MB pack`);
  const check = async (i: number) => {
    const dir = `/clone${i}`;
    const head = await ws.git.revParse({ dir, ref: "HEAD" });
    const files = await ws.git.lsFiles({ dir });
    if (head !== source.head || files.length !== source.files) throw new Error(`clone ${i}: HEAD ${head}, ${files.length} files; want ${source.head}, ${source.files}`);
    const shallow = await ws.fs.readFile(`${dir}/.git/shallow`, "utf8");
    if (shallow.trim() !== source.head) throw new Error(`clone ${i}: .git/shallow holds ${JSON.stringify(shallow)}, want the HEAD oid alone`);
  };
  await ws.fs.writeFile("/.bench-git", "schema made before measuring\n");
  await ctx.storage.sync();
  const before = ctx.sql.databaseSize;
  let growth = 0;
  let nativeDisk = { gitBytes: 0, worktreeBytes: 0, gitDiskBytes: 0, worktreeDiskBytes: 0, files: 0 };
  const clone = await alternate(
    ctx,
    CLONE_RUNS,
    async (i) => {
      await ws.git.clone({ url: source.url, dir: `/clone${i}`, depth: 1 });
      await ctx.storage.sync();
    },
    async (i) => {
      const r = await native.git(`clone${i}`, ["clone", "-q", "--depth", "1", source.url, "."]);
      return r;
    },
    async (i) => {
      if (i === 0) return;
      // Leave the store as the first run found it, apart from the measured growth: drop the previous clone.
      if (i === 1) {
        growth = ctx.sql.databaseSize - before;
        nativeDisk = await native.du("clone0");
      }
      await ws.fs.rm(`/clone${i - 1}`, { recursive: true });
      await native.rm(`clone${i - 1}`);
    },
  );
  await check(CLONE_RUNS - 1);
  const nativeRepo = (await native.git(`clone${CLONE_RUNS - 1}`, ["rev-parse", "HEAD"])).stdout.trim();
  if (nativeRepo !== source.head) throw new Error(`native clone HEAD ${nativeRepo}, want ${source.head}`);
  await ws.fs.rm(`/clone${CLONE_RUNS - 1}`, { recursive: true });
  const nativeTotal = nativeDisk.gitBytes + nativeDisk.worktreeBytes;
  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
  ctx.log(`clone: ours ${fmt(clone.oursAll)} ms, native ${fmt(clone.nativeAll)} ms; storage +${mb(growth)} vs native ${mb(nativeTotal)}`);
  return [
    {
      label: "shallow clone (depth 1), ~5 MB",
      unit: "ms",
      ours: clone.ours,
      baseline: clone.native,
      note:
        `git.clone({ url, depth: 1 }) vs git clone -q --depth 1, both from the same loopback git http-backend (Node); ` +
        `head tree ${source.files} files, ${mb(source.treeBytes)} (40 × 96 KiB noise + 400 text files), server pack ${mb(source.packBytes)} (3 commits); ` +
        `HEAD oid, file count and .git/shallow (HEAD alone) checked; ours ends with storage.sync(); median of ${CLONE_RUNS} (ours ${fmt(clone.oursAll)} ms, native ${fmt(clone.nativeAll)} ms; the previous clone is removed between runs)${cpuNote(clone)}`,
    },
    {
      label: "shallow clone: storage growth",
      unit: "MB",
      ours: growth / 1e6,
      baseline: nativeTotal / 1e6,
      note:
        `ours: growth of the Durable Object's SQLite database (sql.databaseSize) for the first clone into the empty store; ` +
        `native: apparent bytes of .git (${mb(nativeDisk.gitBytes)}) + work tree (${mb(nativeDisk.worktreeBytes)}, ${nativeDisk.files} files); ` +
        `on-disk blocks ${mb(nativeDisk.gitDiskBytes + nativeDisk.worktreeDiskBytes)}`,
    },
  ];
}

async function statusDiffRows(ctx: BenchContext, ws: Workspace, native: Native): Promise<BenchRow[]> {
  const dir = "/status";
  const files = tree(STATUS_FILES, STATUS_DIRS, 1);
  await ws.git.init({ dir });
  await writeAll(ws, dir, files);
  await native.git("status", ["init", "-q", "-b", "main"]);
  await native.write("status", files);
  const t0 = performance.now();
  await ws.git.add({ dir, all: true, paths: ["."] });
  const { oid } = await ws.git.commit({ dir, message: "2,000 files" });
  ctx.log(`status repo: ${STATUS_FILES} files added and committed in the Workspace in ${(performance.now() - t0).toFixed(0)} ms`);
  await native.git("status", ["add", "-A"], ["commit", "-q", "-m", "2,000 files"]);
  const oursTree = (await ws.git.show({ dir, ref: oid })).tree;
  const nativeTree = (await native.git("status", ["rev-parse", "HEAD^{tree}"])).stdout.trim();
  if (oursTree !== nativeTree) throw new Error(`status repo: tree ${oursTree} in the Workspace, ${nativeTree} natively`);

  // 20 modified files, spread over the directories.
  const edits: [string, string][] = [];
  for (let k = 0; k < MODIFIED; k++) {
    const i = k * (STATUS_FILES / MODIFIED) + (k % STATUS_DIRS);
    edits.push([`src/d${i % STATUS_DIRS}/file${i}.ts`, sourceFile(1_000_000 + i, 7000 + k)]);
  }
  await writeAll(ws, dir, edits);
  await native.write("status", edits);

  // Outputs first (also the warm-up of both sides): the same work on both sides.
  const entries = await ws.git.status({ dir });
  const oursPorcelain = entries.map((e) => `${e.index}${e.worktree} ${e.path}\n`).join("");
  const nativePorcelain = (await native.git("status", ["status", "--porcelain"])).stdout;
  if (entries.length !== MODIFIED || oursPorcelain !== nativePorcelain) {
    throw new Error(`status differs:\nours:\n${oursPorcelain.slice(0, 800)}\nnative:\n${nativePorcelain.slice(0, 800)}`);
  }
  const oursDiff = await ws.git.diff({ dir });
  const nativeDiff = (await native.git("status", ["diff"])).stdout;
  if (oursDiff !== nativeDiff) {
    const a = oursDiff.split("\n");
    const b = nativeDiff.split("\n");
    let line = 0;
    while (line < a.length && a[line] === b[line]) line++;
    throw new Error(`diff differs at line ${line + 1}: ours ${JSON.stringify(a[line])}, native ${JSON.stringify(b[line])} (${a.length} vs ${b.length} lines)`);
  }

  const status = await alternate(
    ctx,
    STATUS_RUNS,
    async () => {
      if ((await ws.git.status({ dir })).length !== MODIFIED) throw new Error("status: wrong count");
    },
    () => native.git("status", ["status", "--porcelain"]),
  );
  const diff = await alternate(
    ctx,
    STATUS_RUNS,
    async () => {
      if ((await ws.git.diff({ dir })).length !== oursDiff.length) throw new Error("diff: wrong length");
    },
    () => native.git("status", ["diff"]),
  );
  ctx.log(`status: ours ${fmt(status.oursAll)} ms, native ${fmt(status.nativeAll)} ms`);
  ctx.log(`diff: ours ${fmt(diff.oursAll)} ms, native ${fmt(diff.nativeAll)} ms`);
  const repo = `${STATUS_FILES.toLocaleString("en-US")} tracked files (${STATUS_DIRS} dirs, ≈ 1.6 KB each), ${MODIFIED} modified, nothing staged`;
  return [
    {
      label: "status, 2,000 files / 20 modified",
      unit: "ms",
      ours: status.ours,
      baseline: status.native,
      target: ratioAtMost(10),
      note:
        `workspace.git.status({ dir }) vs git status --porcelain (native: spawn included); ${repo}; ` +
        `ours printed as porcelain equals real git's output (checked before timing); median of ${STATUS_RUNS} (ours ${fmt(status.oursAll)} ms, native ${fmt(status.nativeAll)} ms)${cpuNote(status)}`,
    },
    {
      label: "diff, 2,000 files / 20 modified",
      unit: "ms",
      ours: diff.ours,
      baseline: diff.native,
      target: ratioAtMost(10),
      note:
        `workspace.git.diff({ dir }) vs git diff; same repository; the two patches are byte-identical (${oursDiff.length.toLocaleString("en-US")} chars, checked before timing); ` +
        `median of ${STATUS_RUNS} (ours ${fmt(diff.oursAll)} ms, native ${fmt(diff.nativeAll)} ms)${cpuNote(diff)}`,
    },
  ];
}

async function addCommitRows(ctx: BenchContext, ws: Workspace, native: Native): Promise<BenchRow[]> {
  const trees: string[][] = [];
  const add = await alternate(
    ctx,
    ADD_RUNS,
    async (i) => {
      const dir = `/add${i}`;
      await ws.git.add({ dir, all: true, paths: ["."] });
      const { oid } = await ws.git.commit({ dir, message: "1,000 files" });
      trees.push([(await ws.git.show({ dir, ref: oid })).tree]);
    },
    async (i) => {
      const r = await native.git(`add${i}`, ["add", "-A"], ["commit", "-q", "-m", "1,000 files"]);
      trees[i].push((await native.git(`add${i}`, ["rev-parse", "HEAD^{tree}"])).stdout.trim());
      return r;
    },
    async (i) => {
      const files = tree(ADD_FILES, STATUS_DIRS, 10 + i);
      await ws.git.init({ dir: `/add${i}` });
      await writeAll(ws, `/add${i}`, files);
      await native.git(`add${i}`, ["init", "-q", "-b", "main"]);
      await native.write(`add${i}`, files);
    },
  );
  for (const [i, [ours, theirs]] of trees.entries()) {
    if (ours !== theirs) throw new Error(`add+commit run ${i}: tree ${ours} in the Workspace, ${theirs} natively`);
  }
  ctx.log(`add+commit: ours ${fmt(add.oursAll)} ms, native ${fmt(add.nativeAll)} ms`);
  return [
    {
      label: "add -A + commit, 1,000 new files",
      unit: "ms",
      ours: add.ours,
      baseline: add.native,
      note:
        `git.add({ all: true, paths: ["."] }) + git.commit vs git add -A && git commit -q (two spawns); a fresh repository per run with ${ADD_FILES.toLocaleString("en-US")} distinct ≈ 1.6 KB files in ${STATUS_DIRS} dirs (written outside the timing); ` +
        `both commits have the same tree oid; median of ${ADD_RUNS} (ours ${fmt(add.oursAll)} ms, native ${fmt(add.nativeAll)} ms)${cpuNote(add)}`,
    },
  ];
}

/**
 * `checkout` between two branches that differ in every one of 1,000 files,
 * back and forth: the working tree is rewritten and the index written once
 * per checkout (src/git/ops/tree-state.ts `applyChanges`).
 */
async function checkoutRows(ctx: BenchContext, ws: Workspace, native: Native): Promise<BenchRow[]> {
  const dir = "/co";
  const one = tree(ADD_FILES, STATUS_DIRS, 7);
  const two = one.map(([path], i): [string, string] => [path, sourceFile(7_000_000 + i, i + 1)]);
  await ws.git.init({ dir, defaultBranch: "main" });
  await native.git("co", ["init", "-q", "-b", "main"]);
  for (const [files, message, branch] of [
    [one, "one", undefined],
    [two, "two", "two"],
  ] as const) {
    if (branch) {
      await ws.git.branch({ dir, name: branch, checkout: true });
      await native.git("co", ["checkout", "-q", "-b", branch]);
    }
    await writeAll(ws, dir, [...files]);
    await ws.git.add({ dir, all: true, paths: ["."] });
    await ws.git.commit({ dir, message });
    await native.write("co", [...files]);
    await native.git("co", ["add", "-A"], ["commit", "-q", "-m", message]);
  }
  const target = (i: number) => (i % 2 === 0 ? "main" : "two");
  const co = await alternate(
    ctx,
    ADD_RUNS * 2,
    (i) => ws.git.checkout({ dir, ref: target(i) }),
    (i) => native.git("co", ["checkout", "-q", target(i)]),
  );
  const status = await ws.git.status({ dir });
  const branch = await ws.git.currentBranch({ dir });
  if (status.some((e) => e.index !== "unmodified" || e.worktree !== "unmodified") || branch !== target(ADD_RUNS * 2 - 1)) {
    throw new Error(`checkout: on ${branch}, status ${JSON.stringify(status.slice(0, 3))}; want ${target(ADD_RUNS * 2 - 1)}, clean`);
  }
  await ws.fs.rm(dir, { recursive: true });
  await native.rm("co");
  ctx.log(`checkout: ours ${fmt(co.oursAll)} ms, native ${fmt(co.nativeAll)} ms`);
  return [
    {
      label: "checkout, 1,000 files changed",
      unit: "ms",
      ours: co.ours,
      baseline: co.native,
      note:
        `git.checkout({ ref }) vs git checkout -q, alternating between two branches that differ in all ${ADD_FILES.toLocaleString("en-US")} files (≈ 1.6 KB each, ${STATUS_DIRS} dirs); ` +
        `ends on the right branch with a clean status (checked); median of ${ADD_RUNS * 2} (ours ${fmt(co.oursAll)} ms, native ${fmt(co.nativeAll)} ms)${cpuNote(co)}`,
    },
  ];
}

export default defineSuite({
  name: "git",
  async run(ctx) {
    const native = nativeClient(ctx.env.GIT_NATIVE);
    const ws = ctx.newWorkspace({ git: createGitClient(), defaultGitIdentity: IDENTITY });
    try {
      // The clone first: its storage growth is measured on the fresh store.
      const clone = await cloneRows(ctx, ws, native);
      const statusDiff = await statusDiffRows(ctx, ws, native);
      const addCommit = await addCommitRows(ctx, ws, native);
      const checkout = await checkoutRows(ctx, ws, native);
      return [...statusDiff, ...addCommit, ...checkout, ...clone];
    } finally {
      await ws.close();
    }
  },
});
