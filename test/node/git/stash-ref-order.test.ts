/**
 * The stash's two records — `.git/refs/stash` (the newest entry) and
 * `.git/logs/refs/stash` (one line per entry) — are separate writes, the ref
 * first. These tests build each state a crash between them can leave (the
 * ref new, the log old) and check that `stash list`, `stash pop` and the
 * `stash` revision read it as the ref says. Also: `commit` with `all` (git
 * commit -a) and the stash pop's file/directory refusals.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };
const REFLOG = "/repo/.git/logs/refs/stash";
const REF = "/repo/.git/refs/stash";

async function twoStashes() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
  const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
  await ws.fs.mkdir("/repo", { recursive: true });
  await ws.fs.writeFile("/repo/f", "base\n");
  await cli("init");
  await cli("add", ".");
  await cli("commit", "-m", "base");
  await ws.fs.writeFile("/repo/f", "first\n");
  expect((await cli("stash", "-m", "one")).exitCode).toBe(0);
  await ws.fs.writeFile("/repo/f", "second\n");
  expect((await cli("stash", "-m", "two")).exitCode).toBe(0);
  const lines = (await ws.fs.readFile(REFLOG, "utf8")).split("\n").filter(Boolean);
  const oids = lines.map((line) => line.split(" ")[1]!);
  return { ws, cli, lines, oids };
}

describe("stash: refs/stash and its reflog after a crash between their writes", () => {
  it("a push that wrote the ref only: the ref's commit is stash@{0}", async () => {
    const { ws, cli, lines } = await twoStashes();
    await ws.fs.writeFile(REFLOG, `${lines[0]}\n`);
    expect((await cli("stash", "list")).stdout).toBe("stash@{0}: On main: two\nstash@{1}: On main: one\n");
    expect((await cli("show", "stash:f")).stdout).toBe("second\n");
    expect((await cli("stash", "pop")).exitCode).toBe(0);
    expect(await ws.fs.readFile("/repo/f", "utf8")).toBe("second\n");
    expect((await cli("stash", "list")).stdout).toBe("stash@{0}: On main: one\n");
    expect((await cli("show", "stash:f")).stdout).toBe("first\n");
  });

  it("a pop of stash@{0} that wrote the ref only: the popped entry is gone", async () => {
    const { ws, cli, oids } = await twoStashes();
    await ws.fs.writeFile(REF, `${oids[0]}\n`);
    expect((await cli("stash", "list")).stdout).toBe("stash@{0}: On main: one\n");
    expect((await cli("show", "stash:f")).stdout).toBe("first\n");
    expect((await cli("stash", "pop")).exitCode).toBe(0);
    expect(await ws.fs.readFile("/repo/f", "utf8")).toBe("first\n");
    expect((await cli("stash", "list")).stdout).toBe("");
  });

  it("the last drop that deleted the ref only: no stash (as real git without refs/stash)", async () => {
    const { ws, cli } = await twoStashes();
    await ws.fs.rm(REF);
    expect((await cli("stash", "list")).stdout).toBe("");
    expect((await cli("stash", "pop")).exitCode).not.toBe(0);
    await ws.fs.writeFile("/repo/f", "third\n");
    expect((await cli("stash", "-m", "three")).exitCode).toBe(0);
    expect((await cli("stash", "list")).stdout).toBe("stash@{0}: On main: three\n");
    expect((await ws.fs.readFile(REFLOG, "utf8")).split("\n").filter(Boolean)).toHaveLength(1);
  });
});

describe("commit all (git commit -a)", () => {
  it("stages modified and deleted tracked files, not untracked ones; index matches the commit", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
    await ws.fs.mkdir("/repo/d", { recursive: true });
    await ws.fs.writeFile("/repo/a", "a\n");
    await ws.fs.writeFile("/repo/d/b", "b\n");
    await ws.fs.writeFile("/repo/c", "c\n");
    await cli("init");
    await cli("add", ".");
    await cli("commit", "-m", "base");
    await ws.fs.writeFile("/repo/a", "a2\n");
    await ws.fs.rm("/repo/d/b");
    await ws.fs.writeFile("/repo/new", "n\n");
    await ws.fs.writeFile("/repo/c", "c2\n");
    await cli("add", "c");
    await ws.fs.writeFile("/repo/c", "c3\n");
    expect((await cli("commit", "-a", "-m", "all")).exitCode).toBe(0);
    expect((await cli("status", "--porcelain=v1")).stdout).toBe("?? new\n");
    expect((await cli("ls-tree", "--name-only", "HEAD")).stdout).toBe("a\nc\n");
    expect((await cli("show", "HEAD:c")).stdout).toBe("c3\n");
    expect((await cli("show", "HEAD:a")).stdout).toBe("a2\n");
    // Nothing tracked changed: refused as real git (exit 1, status printed).
    expect((await cli("commit", "-a", "-m", "again")).exitCode).toBe(1);
  });
});

describe("stash pop: file/directory conflicts refused before any write", () => {
  it("the stash adds q, HEAD now has q/x", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
    await ws.fs.mkdir("/repo", { recursive: true });
    await ws.fs.writeFile("/repo/a", "a\n");
    await cli("init");
    await cli("add", ".");
    await cli("commit", "-m", "base");
    await ws.fs.writeFile("/repo/a", "a2\n");
    await ws.fs.writeFile("/repo/q", "q\n");
    await cli("add", "q");
    expect((await cli("stash")).exitCode).toBe(0);
    await ws.fs.mkdir("/repo/q");
    await ws.fs.writeFile("/repo/q/x", "x\n");
    await cli("add", "q/x");
    expect((await cli("commit", "-m", "q dir")).exitCode).toBe(0);
    const pop = await cli("stash", "pop");
    expect(pop).toEqual({ stdout: "", stderr: "git stash: stash conflicts with changes committed since in q\n", exitCode: 1 });
    expect(await ws.fs.readFile("/repo/a", "utf8")).toBe("a\n");
    expect((await cli("stash", "list")).stdout).toMatch(/^stash@\{0\}: WIP on main/);
  });

  it("the stash adds n/y, the index (not HEAD) has a file n", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
    await ws.fs.mkdir("/repo", { recursive: true });
    await ws.fs.writeFile("/repo/a", "a\n");
    await cli("init");
    await cli("add", ".");
    await cli("commit", "-m", "base");
    await ws.fs.mkdir("/repo/n");
    await ws.fs.writeFile("/repo/n/y", "y\n");
    await cli("add", "n/y");
    expect((await cli("stash")).exitCode).toBe(0);
    await ws.fs.writeFile("/repo/n", "file n\n");
    await cli("add", "n");
    const pop = await cli("stash", "pop");
    expect(pop.exitCode).toBe(1);
    expect(pop.stderr).toBe("git stash: your local changes to the following files would be overwritten by stash: n\n");
    expect(await ws.fs.readFile("/repo/n", "utf8")).toBe("file n\n");
  });
});
