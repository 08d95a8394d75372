/**
 * Hostile input to the git client and CLI (issue 15 "Bad input", issue 20):
 * paths leaving the repository (through `..`, absolute paths and symlinks
 * in the working tree), hostile ref names and config values, huge messages,
 * many branches, and junk argv. Each call answers or rejects with a
 * `GitError` that has a code (the CLI: an exit code and a `git …` message),
 * within a bound, writing nothing outside the repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, exportDir, realGit, realGitResult, workspaceCopy } from "./worktree-helpers.js";
import { failure, within, wsEverything } from "./attack-helpers.js";

afterAll(cleanupScratch);

function disk() {
  return committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" });
}

async function setup() {
  const t = await workspaceCopy(disk());
  await t.ws.fs.mkdir("/outside");
  await t.ws.fs.writeFile("/outside/secret.txt", "secret\n");
  return t;
}

describe("paths that leave the repository", () => {
  it("add, rm, diff, diffSummary, checkout and reset of ../ and absolute paths: EPATHOUTSIDE; nothing staged", { timeout: 30_000 }, async () => {
    const t = await setup();
    const before = await wsEverything(t.ws);
    for (const paths of [["../outside/secret.txt"], ["/outside/secret.txt"], ["sub/../../outside/secret.txt"], ["a.txt", "../outside"]]) {
      for (const [op, run] of [
        ["add", () => t.git.add({ dir: t.dir, paths })],
        ["add force", () => t.git.add({ dir: t.dir, paths, force: true })],
        ["rm", () => t.git.rm({ dir: t.dir, paths })],
        ["diff", () => t.git.diff({ dir: t.dir, paths })],
        ["diffSummary", () => t.git.diffSummary({ dir: t.dir, paths })],
      ] as const) {
        const error = await failure(within<unknown>(10_000, run()));
        expect({ op, paths, error }).toMatchObject({ op, paths, error: { code: "EPATHOUTSIDE", isGitError: true } });
      }
    }
    expect(await wsEverything(t.ws)).toEqual(before);
  });

  it("a worktree symlink to a directory outside: add of a path through it refuses, and the outside file never enters the index or the object store", { timeout: 30_000 }, async () => {
    const t = await setup();
    await t.ws.fs.symlink("/outside", `${t.dir}/escape`);
    await t.ws.fs.symlink("../outside", `${t.dir}/rel`);
    for (const path of ["escape/secret.txt", "rel/secret.txt"]) {
      // (real git refuses these with "beyond a symbolic link", 128: see attack-open.test.ts) — here: nothing staged
      await within(10_000, t.git.add({ dir: t.dir, paths: [path] })).catch(() => undefined);
      expect(await t.git.lsFiles({ dir: t.dir })).toEqual(["a.txt", "sub/b.txt"]);
    }
    // adding the links themselves stores links (their targets as blobs), never the outside bytes
    await t.git.add({ dir: t.dir, paths: ["escape", "rel"] });
    await t.git.add({ dir: t.dir, paths: ["."], all: true });
    const secret = await t.git.hashObject({ dir: t.dir, content: "secret\n" });
    expect(await t.git.lsFiles({ dir: t.dir })).toEqual(["a.txt", "escape", "rel", "sub/b.txt"]);
    expect(await t.ws.fs.stat(`${t.dir}/.git/objects/${secret.slice(0, 2)}/${secret.slice(2)}`).catch(() => "absent")).toBe("absent");
    const copy = await exportDir(t.ws, t.dir);
    expect(realGit(copy, "ls-files", "-s", "escape", "rel")).toMatch(/^120000 [0-9a-f]{40} 0\tescape\n120000 [0-9a-f]{40} 0\trel\n$/);
  });

  it("status and diff with a symlinked directory to outside list the link, not the files behind it", { timeout: 30_000 }, async () => {
    const t = await setup();
    await t.ws.fs.symlink("/outside", `${t.dir}/escape`);
    expect(await t.git.status({ dir: t.dir })).toEqual([{ path: "escape", index: " ", worktree: "?" }]);
  });

  it("cli -C ../.. and cwd outside: paths resolve inside the Workspace; no write above the repo", { timeout: 30_000 }, async () => {
    const t = await setup();
    const before = await wsEverything(t.ws);
    const r1 = await within(10_000, t.git.cli({ argv: ["-C", "../../..", "status"], cwd: t.dir }));
    expect(r1.exitCode).toBe(128);
    expect(r1.stderr).toMatch(/^git status: not a git repository: \/\n?$/);
    const r2 = await within(10_000, t.git.cli({ argv: ["add", "../outside/secret.txt"], cwd: t.dir }));
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toMatch(/outside the repository/);
    const r3 = await within(10_000, t.git.cli({ argv: ["-C", "../outside", "init"], cwd: t.dir }));
    expect(r3.exitCode).toBe(0);
    expect(await t.ws.fs.readFile("/outside/.git/HEAD", "utf8")).toBe("ref: refs/heads/main\n");
    // that init is the user's request (real git does the same); the repository itself is unchanged
    const after = await wsEverything(t.ws);
    for (const key of Object.keys(after)) if (!key.startsWith("/outside/.git")) expect(after[key]).toBe(before[key]);
  });
});

describe("refs, config and huge inputs", () => {
  it("branch and tag names real git refuses are refused (check-ref-format), and nothing is created", { timeout: 30_000 }, async () => {
    const t = await setup();
    const names = ["a..b", "a~1", "a^", "a b", "a:b", "a?b", "a*b", "a[b", "a\\b", "a\u0001b", "a\u007fb", "-x", "a.lock", "a/", "a//b", ".a", "a/.b", "@", "a@{b", "HEAD\n", ""];
    const accepted: string[] = [];
    for (const name of names) {
      for (const [op, run] of [
        ["branch", () => t.git.branch({ dir: t.dir, name })],
        ["tag", () => t.git.tag({ dir: t.dir, name })],
      ] as const) {
        const error = await failure(within<unknown>(10_000, run()));
        if (!error) accepted.push(`${op} ${JSON.stringify(name)}`);
        else expect({ name, isGitError: error.isGitError, code: typeof error.code }).toEqual({ name, isGitError: true, code: "string" });
      }
    }
    expect(accepted).toEqual([]);
    expect(await t.git.branchList({ dir: t.dir })).toEqual(["main"]);
    expect(await t.git.tagList({ dir: t.dir })).toEqual([]);
  });

  it("configSet: a value holding newlines and [section] lines stays one value; .git/config still parses with the real git", { timeout: 30_000 }, async () => {
    const t = await setup();
    const evil = 'x\n[core]\n\tfsmonitor = "touch /pwned"\n[user]\n\tname = Mallory';
    await within(10_000, t.git.configSet({ dir: t.dir, path: "user.name", value: evil }));
    const copy = await exportDir(t.ws, t.dir);
    expect(realGitResult(copy, "config", "--local", "--get-all", "core.fsmonitor").status).toBe(1);
    expect(realGit(copy, "config", "--local", "--get-all", "user.name")).toBe(`${evil}\n`);
    expect(await t.git.configGet({ dir: t.dir, path: "user.name" })).toBe(evil);
    expect(await t.git.configGet({ dir: t.dir, path: "core.fsmonitor" })).toBeUndefined();
  });

  it("configSet/configGet: keys real git refuses are GitError EUSAGE 'invalid key: <key>'; .git/config unchanged; the cli exits 1 as real git", { timeout: 30_000 }, async () => {
    const t = await setup();
    const before = await t.ws.fs.readFile(`${t.dir}/.git/config`, "utf8");
    const real = await exportDir(t.ws, t.dir);
    const bad = ["a", "a.\nb", "a.b c", ".x", "x.", "core]\n[evil.x", "core.fsmonitor\n[x]", "a_b.c", "a.b.1c", "a.b\u0000c.d"];
    for (const path of bad) {
      const set = await failure(within(10_000, t.git.configSet({ dir: t.dir, path, value: "v" })));
      const get = await failure(within(10_000, t.git.configGet({ dir: t.dir, path })));
      const expected = { name: "GitError", code: "EUSAGE", isGitError: true, message: `invalid key: ${path}` };
      expect({ path, set, get }).toEqual({ path, set: expected, get: expected });
      if (!path.includes("\u0000")) expect({ path, status: realGitResult(real, "config", path, "v").status }).not.toEqual({ path, status: 0 });
    }
    expect(await t.ws.fs.readFile(`${t.dir}/.git/config`, "utf8")).toBe(before);
    expect(realGit(real, "config", "--list", "--local")).toBe(realGit(await exportDir(t.ws, t.dir), "config", "--list", "--local"));
    // keys real git takes: a section may start with a digit, a subsection holds anything but a line break (also "")
    for (const path of ["a-1.b", "1a.b", "a.b.c", "a.b.c d.e", "a..b", "a.b..c"]) {
      await within(10_000, t.git.configSet({ dir: t.dir, path, value: "v" }));
      expect({ path, value: await t.git.configGet({ dir: t.dir, path }) }).toEqual({ path, value: "v" });
      expect({ path, value: realGit(await exportDir(t.ws, t.dir), "config", "--get", path) }).toEqual({ path, value: "v\n" });
    }
    // a '"' or '\' in a subsection: isomorphic-git would write it raw ([a "b"c"]), which real git cannot parse — refused
    const configBefore = await t.ws.fs.readFile(`${t.dir}/.git/config`, "utf8");
    for (const path of ['a.b"c.d', "a.b\\c.d"]) {
      expect(await failure(within(10_000, t.git.configSet({ dir: t.dir, path, value: "v" })))).toEqual({
        name: "GitError",
        code: "EUSAGE",
        isGitError: true,
        message: `invalid key: ${path} ('"' and '\\' in a subsection are not supported)`,
      });
      expect(await t.git.configGet({ dir: t.dir, path })).toBeUndefined();
    }
    expect(await t.ws.fs.readFile(`${t.dir}/.git/config`, "utf8")).toBe(configBefore);
    realGit(await exportDir(t.ws, t.dir), "status");
    // real git: `error: invalid key: a.b c`, exit 1
    expect(realGitResult(real, "config", "a.b c", "v")).toMatchObject({ status: 1, stderr: "error: invalid key: a.b c\n" });
    expect(await within(10_000, t.git.cli({ argv: ["config", "a.b c", "v"], cwd: t.dir }))).toEqual({ stdout: "", stderr: "git config: invalid key: a.b c\n", exitCode: 1 });
    expect(await within(10_000, t.git.cli({ argv: ["config", "a", "v"], cwd: t.dir }))).toEqual({ stdout: "", stderr: "git config: invalid key: a\n", exitCode: 1 });
  });

  it("a 10 MB commit message commits and reads back (log, cli log -n 1 --format=%s) within bounds", { timeout: 60_000 }, async () => {
    const t = await setup();
    const message = `subject\n\n${"x".repeat(10 * 1024 * 1024)}\n`;
    await t.ws.fs.writeFile(`${t.dir}/a.txt`, "changed\n");
    await t.git.add({ dir: t.dir, paths: ["a.txt"] });
    const { oid } = await within(30_000, t.git.commit({ dir: t.dir, message }));
    const [head] = await t.git.log({ dir: t.dir, depth: 1 });
    expect(head!.oid).toBe(oid);
    expect(head!.message.length).toBe(message.length);
    const r = await t.git.cli({ argv: ["log", "-n", "1", "--format=%s"], cwd: t.dir });
    expect(r).toEqual({ stdout: "subject\n", stderr: "", exitCode: 0 });
    realGit(await exportDir(t.ws, t.dir), "fsck", "--strict");
  });

  it("1,000 branches: created, listed sorted, and deleted", { timeout: 120_000 }, async () => {
    const t = await setup();
    const names = Array.from({ length: 1000 }, (_, i) => `b${String(i).padStart(4, "0")}`);
    const start = Date.now();
    for (const name of names) await t.git.branch({ dir: t.dir, name });
    const list = await within(30_000, t.git.branchList({ dir: t.dir }));
    expect(list).toEqual([...names, "main"]);
    const r = await t.git.cli({ argv: ["branch"], cwd: t.dir });
    expect(r.stdout.split("\n").length).toBe(1002);
    console.log(`1,000 branches: ${Date.now() - start} ms`);
  });
});

describe("CLI argv junk", () => {
  const cases: [string, unknown[]][] = [
    ["non-string elements", ["status", 42, null, undefined, { x: 1 }]],
    ["a number subcommand", [1]],
    ["an object subcommand", [{ toString: () => "status" }]],
    ["log -n -1", ["log", "-n", "-1"]],
    ["log -n 1e9", ["log", "-n", "1e9"]],
    ["log -n NaN", ["log", "-n", "NaN"]],
    ["log -n 0x10", ["log", "-n", "0x10"]],
    ["log -n 99999999999999999999", ["log", "-n", "99999999999999999999"]],
    ["log -0", ["log", "-0"]],
    ["log odd formats", ["log", "--format=%", "-n", "1"]],
    ["log %x %n %(%", ["log", "--format=%x%n%(%Z%%%", "-n", "1"]],
    ["clone --depth=-1", ["clone", "--depth=-1", "https://example.invalid/x.git"]],
    ["clone --depth=1e9", ["clone", "--depth=1e9", "file:///nope"]],
    ["fetch --depth=0", ["fetch", "--depth=0"]],
    ["-C with nothing", ["-C"]],
    ["-C twice", ["-C", ".", "-C", ".", "status"]],
    ["--", ["--"]],
    ["empty string subcommand", [""]],
    ["NUL in a path", ["add", "a\u0000b"]],
    ["cat-file of junk", ["cat-file", "-p", "zzzz"]],
    ["cat-file of a short oid", ["cat-file", "-t", "a"]],
    ["show of ../../", ["show", "HEAD:../../outside/secret.txt"]],
    ["rev-parse of HEAD~999999999", ["rev-parse", "HEAD~999999999"]],
    ["rev-parse of HEAD^^^^^^^^^^^^^^^^^^", ["rev-parse", "HEAD^^^^^^^^^^^^^^^^^^"]],
    ["update-ref outside refs", ["update-ref", "../../outside/x", "HEAD"]],
    ["update-ref HEAD to junk", ["update-ref", "HEAD", "junk"]],
    ["reset --hard junk", ["reset", "--hard", "no-such-ref"]],
  ];
  for (const [label, argv] of cases) {
    it(label, { timeout: 20_000 }, async () => {
      const t = await setup();
      const before = await wsEverything(t.ws);
      let result: { stdout: string; stderr: string; exitCode: number } | undefined;
      let thrown: unknown;
      try {
        result = await within(10_000, t.git.cli({ argv: argv as string[], cwd: t.dir }));
      } catch (error) {
        thrown = error;
      }
      expect(thrown === undefined || (thrown as { code?: unknown }).code !== undefined ? "answered or GitError" : `threw ${String(thrown)}`).toBe("answered or GitError");
      if (result && result.exitCode !== 0) expect(result.stderr).toMatch(/^(git[ :]|usage:|fatal:|error:)/);
      if (result) expect([0, 1, 128, 129]).toContain(result.exitCode);
      const after = await wsEverything(t.ws);
      expect(Object.keys(after).filter((k) => !k.startsWith(`${t.dir}/`) && after[k] !== before[k])).toEqual([]);
    });
  }

  it("hostile cli inputs (no input, null, argv not an array, cwd/env/stdin of wrong types): an exit code and a git message, never a throw", { timeout: 60_000 }, async () => {
    const t = await setup();
    const inputs: unknown[] = [
      undefined,
      null,
      "status",
      { argv: "status" },
      { argv: null },
      { argv: { 0: "status", length: 1 } },
      { argv: ["status"], cwd: 5 },
      { argv: ["status"], cwd: {} },
      { argv: ["status"], cwd: "" },
      { argv: ["status"], cwd: "rel/../.." },
      { argv: ["commit", "-m", "x"], cwd: t.dir, env: "GIT_AUTHOR_NAME=x" },
      { argv: ["commit", "-m", "x"], cwd: t.dir, env: { GIT_AUTHOR_NAME: 5, GIT_AUTHOR_EMAIL: null } },
      { argv: ["hash-object", "--stdin"], cwd: t.dir, stdin: 5 },
      { argv: ["hash-object", "--stdin"], cwd: t.dir, stdin: { x: 1 } },
      { argv: ["hash-object", "--stdin"], cwd: t.dir, stdin: new Uint8Array([0xff, 0xfe]) },
    ];
    const before = await wsEverything(t.ws);
    const seen: string[] = [];
    for (const input of inputs) {
      let outcome: string;
      try {
        const r = await within(10_000, t.git.cli(input as never));
        outcome = typeof r?.exitCode === "number" && typeof r.stdout === "string" && typeof r.stderr === "string" && [0, 1, 128, 129].includes(r.exitCode) && (r.exitCode === 0 || /^git[ :]/.test(r.stderr) || /nothing to commit/.test(r.stdout)) ? "ok" : `odd ${JSON.stringify(r)}`;
      } catch (error) {
        const e = error as { name?: string; code?: unknown; message?: string };
        outcome = typeof e.code === "string" && /^E[A-Z]+$/.test(e.code) ? "ok" : `threw ${e.name}: ${e.message}`;
      }
      if (outcome !== "ok") seen.push(`${JSON.stringify(input)} → ${outcome}`);
    }
    expect(seen).toEqual([]);
    const after = await wsEverything(t.ws);
    expect(Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k] && !k.startsWith(`${t.dir}/`))).toEqual([]);
  });

  it("10,000 arguments to add: one answer, bounded", { timeout: 60_000 }, async () => {
    const t = await setup();
    const argv = ["add", ...Array.from({ length: 10_000 }, (_, i) => `nope-${i}`)];
    const start = Date.now();
    const r = await within(50_000, t.git.cli({ argv, cwd: t.dir }));
    expect(r.exitCode).toBe(128);
    expect(r.stderr).toBe("git add: pathspec 'nope-0' did not match any files\n");
    console.log(`add of 10,000 missing paths: ${Date.now() - start} ms`);
  });
});
