/**
 * Hostile option objects to every `GitClient` method (issue 15 "Bad input":
 * "never a thrown TypeError from isomorphic-git internals"): wrong types,
 * `null`, arrays, objects where strings go, negative/fractional/huge
 * numbers, and no options at all. Each call answers or rejects with a
 * `GitError` whose code is `E[A-Z]+`, within a bound, writing nothing
 * outside the repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, newWorkspace, realGit, realGitResult, tempDir, workspaceCopy } from "./worktree-helpers.js";
import { failure, within, wsEverything } from "./attack-helpers.js";
import { cliMessage } from "../../../src/git/cli.js";

afterAll(cleanupScratch);

const junk: [string, unknown][] = [
  ["null", null],
  ["a number", 42],
  ["NaN", Number.NaN],
  ["-1", -1],
  ["1.5", 1.5],
  ["1e9", 1e9],
  ["an object", { toString: () => "main" }],
  ["an array", ["main"]],
  ["a function", () => "main"],
  ["a symbol-like string with NUL", "ma\u0000in"],
  ["../../outside", "../../outside"],
  ["an empty string", ""],
];

/** method → option keys that take a string/number/array/boolean. */
const surface: Record<string, string[]> = {
  init: ["dir", "defaultBranch", "bare"],
  status: ["dir", "paths"],
  diff: ["dir", "ref", "to", "paths"],
  diffSummary: ["dir", "ref", "to", "paths"],
  add: ["dir", "paths", "force", "all", "trackedOnly"],
  rm: ["dir", "paths"],
  commit: ["dir", "message", "author", "committer", "amend", "env"],
  log: ["dir", "ref", "depth"],
  show: ["dir", "ref"],
  revParse: ["dir", "ref"],
  repoRoot: ["dir"],
  currentBranch: ["dir", "fullname"],
  lsFiles: ["dir", "ref"],
  lsTree: ["dir", "ref", "path"],
  branch: ["dir", "name", "startPoint", "checkout", "force"],
  branchDelete: ["dir", "name", "force"],
  branchList: ["dir"],
  tag: ["dir", "name", "object", "force"],
  tagDelete: ["dir", "name"],
  tagList: ["dir"],
  checkout: ["dir", "ref", "paths", "force"],
  merge: ["dir", "theirs", "ours", "message", "fastForward", "fastForwardOnly"],
  remoteAdd: ["dir", "name", "url", "force"],
  remoteRemove: ["dir", "name"],
  remoteList: ["dir"],
  hashObject: ["dir", "content", "write"],
  catFile: ["dir", "oid", "filepath"],
  updateRef: ["dir", "ref", "value", "force", "symbolic"],
  configGet: ["dir", "path", "all"],
  configSet: ["dir", "path", "value", "append"],
  stashPush: ["dir", "message"],
  stashList: ["dir"],
  stashPop: ["dir", "index"],
  reset: ["dir", "paths", "hard", "ref"],
  clean: ["dir", "directories", "dryRun"],
  fetch: ["dir", "remote", "url", "ref", "depth", "timeoutMs"],
  push: ["dir", "remote", "url", "ref", "remoteRef", "force", "delete", "timeoutMs"],
  pull: ["dir", "remote", "ref", "fastForwardOnly", "timeoutMs"],
  clone: ["dir", "url", "ref", "depth", "timeoutMs"],
};

/** Sensible values, so one key at a time is the junk. */
const base: Record<string, Record<string, unknown>> = {
  add: { paths: ["a.txt"] },
  rm: { paths: ["a.txt"] },
  commit: { message: "m" },
  revParse: { ref: "HEAD" },
  lsTree: { ref: "HEAD" },
  branch: { name: "b" },
  branchDelete: { name: "side" },
  tag: { name: "t" },
  tagDelete: { name: "t0" },
  checkout: { ref: "side" },
  merge: { theirs: "side" },
  remoteAdd: { name: "up", url: "http://127.0.0.1:1/x.git" },
  remoteRemove: { name: "origin" },
  hashObject: { content: "x" },
  catFile: { oid: "HEAD" },
  updateRef: { ref: "refs/heads/u", value: "HEAD" },
  configGet: { path: "user.name" },
  configSet: { path: "user.name", value: "v" },
  fetch: { url: "http://127.0.0.1:1/x.git", timeoutMs: 2000 },
  push: { url: "http://127.0.0.1:1/x.git", timeoutMs: 2000 },
  pull: { remote: "origin", timeoutMs: 2000 },
  clone: { url: "http://127.0.0.1:1/x.git", dir: "/clone", timeoutMs: 2000 },
};

function disk() {
  return committedRepo({ "a.txt": "a\n" }, "base", (d) => {
    realGit(d, "branch", "side");
    realGit(d, "tag", "t0");
    realGit(d, "remote", "add", "origin", "http://127.0.0.1:1/o.git");
  });
}

describe("junk in every option of every method", () => {
  for (const [method, keys] of Object.entries(surface)) {
    it(`${method}: a GitError with a code or an answer, never another error; nothing outside the repo`, { timeout: 240_000 }, async () => {
      const d = disk();
      const { ws, git } = await workspaceCopy(d);
      await ws.fs.mkdir("/outside");
      const before = await wsEverything(ws);
      const bad: string[] = [];
      const call = (options: unknown) => (git as unknown as Record<string, (o: unknown) => Promise<unknown>>)[method]!(options);
      const attempts: [string, unknown][] = [
        ["options = null", null],
        ["options = a string", "main"],
        ["options = an array", []],
        ...keys.flatMap((key) => junk.map(([label, value]): [string, unknown] => [`${key} = ${label}`, { dir: "/repo", ...base[method], [key]: value }])),
      ];
      for (const [label, options] of attempts) {
        const error = await failure(within<unknown>(20_000, call(options)));
        if (error && (!error.isGitError || typeof error.code !== "string" || !/^E[A-Z]+$/.test(error.code))) bad.push(`${label}: ${error.name} ${String(error.code)}: ${error.message.slice(0, 120)}`);
      }
      const after = await wsEverything(ws);
      // (init with no options makes /.git, and with dir "../../outside" (normalised from "/") makes /outside/.git: where it was asked to)
      const asked = (k: string) => method === "init" && (k.startsWith("/.git") || k.startsWith("/outside/.git"));
      const outside = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k] && !k.startsWith("/repo") && !k.startsWith("/clone") && !asked(k));
      expect({ bad, outside }).toEqual({ bad: [], outside: [] });
    });
  }
});

describe("init with an invalid branch name", () => {
  it("init -b a..b: one `git init: ` prefix (real git: `fatal: invalid initial branch name: 'a..b'`, 128; ours exits 1); nothing created", { timeout: 30_000 }, async () => {
    const { ws, git } = newWorkspace();
    const real = tempDir("init-");
    for (const name of ["a..b", "a b", "a.lock", "a~1"]) {
      const r = await within(10_000, git.cli({ argv: ["init", "-b", name, "/r"] }));
      expect({ name, ...r }).toEqual({ name, stdout: "", stderr: `git init: invalid initial branch name: '${name}'\n`, exitCode: 1 });
      expect({ name, ...realGitResult(real, "init", "-q", "-b", name, "r") }).toMatchObject({ name, status: 128, stderr: `fatal: invalid initial branch name: '${name}'\n` });
      expect(await failure(git.init({ dir: "/r", defaultBranch: name }))).toEqual({ name: "GitError", code: "EUSAGE", isGitError: true, message: `invalid initial branch name: '${name}'` });
    }
    expect(await ws.fs.lstat("/r").catch(() => "absent")).toBe("absent");
  });

  it("cliMessage drops the client's `git <op>: ` (EUSAGE) and `git <op> failed: ` prefixes, so the cli prints one", () => {
    expect(cliMessage("git init: bare must be a boolean, got number")).toBe("bare must be a boolean, got number");
    expect(cliMessage("git rev-parse failed: unknown revision 'x'")).toBe("unknown revision 'x'");
    expect(cliMessage("invalid key: a")).toBe("invalid key: a");
  });
});
