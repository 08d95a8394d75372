/**
 * Issue 20 seventh attack run, category 5: a real `ctx.abort()` of a Durable
 * Object with git (`GitAgent`) at points runs 2–6 did not reach (they
 * crashed clone, checkout, add): the crash is raised from inside the
 * Workspace write the operation makes (a wrapped `fs.writeFile`, as
 * attack6/abort-more.test.ts), at the N-th write of a chosen path, so it
 * lands there for certain:
 * (a) mid `git stash` — at the 4th of 10 working-tree files being reset,
 *     after the stash commit, `refs/stash` and its reflog were written;
 * (b) mid `git stash pop` — at the 4th of 10 files being restored (the
 *     restarted object has the stash, or — when the pop's writes were
 *     confirmed first — the pop done; never a dropped stash with files
 *     missing);
 * (c) mid a fast-forward `git merge` of a branch changing 10 files — at the
 *     4th working-tree write;
 * (d) mid `git commit` — at the branch ref write;
 * (e) mid `git reset --hard` to an older commit — at the 4th file.
 * (f) late in a LONG `git stash` (500 changed files; crash at the 450th
 *     file reset) — the fs bridge's pacing yields on timers, so earlier
 *     writes are confirmed: the restarted object has the stash and a tree
 *     half reset (as a crashed real git would); `stash pop` refuses ("would
 *     be overwritten", as real git), `reset --hard` then `stash pop`
 *     brings every change back.
 * What must hold after the restart: storage is sound (attack3
 * `integrityProblems`), git answers, no change is lost (every changed line
 * is in the working tree or in `stash@{0}`; a branch points at a commit
 * whose objects exist; log works), and the next operation of the same kind
 * succeeds. Withstood: mostly the restarted object finds the state from
 * BEFORE the operation (the output gate drops the writes the aborted
 * operation made that were not yet confirmed); under load some writes are
 * confirmed first and the state is part-way — every file whole, nothing
 * lost (the stash still holds what the tree lacks) — and finishing the
 * operation works; (f) is always part-way (above).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
type Client = Awaited<ReturnType<typeof getWorkspace>>;

/** Inside the object: runs `argv` with `fs.writeFile` raising `ctx.abort()` at the `nth` write whose path matches `at`. */
async function crashDuring(id: DurableObjectId, argv: string[], at: RegExp, nth: number): Promise<string> {
  return runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
    const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
    const fs = ws.fs as unknown as Fs;
    const write = fs.writeFile!.bind(ws.fs);
    let seen = 0;
    fs.writeFile = (...a: unknown[]) => {
      if (at.test(String(a[0])) && ++seen === nth) state.abort(`attack7: crash in git ${argv[0]}`);
      return write(...a);
    };
    return ws.git.cli({ argv, cwd: "/repo" });
  }).then(
    (r) => `no abort: ${JSON.stringify(r)}`,
    (e: Error) => `aborted: ${e.message}`,
  );
}
const sound = (id: DurableObjectId) => runInDurableObject(env.GIT_AGENT.get(id), (_i, s) => integrityProblems(s.storage.sql));
const cli = async (ws: Client, ...argv: string[]) => ws.git.cli({ argv, cwd: "/repo" });
const FILE = /^\/repo\/f\d\.txt$/;

async function repo(ws: Client, changed: boolean) {
  await ws.fs.mkdir("/repo", { recursive: true });
  for (let i = 0; i < 10; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `base ${i}\n`);
  expect((await cli(ws, "init")).exitCode).toBe(0);
  await cli(ws, "add", ".");
  expect((await cli(ws, "commit", "-m", "base")).exitCode).toBe(0);
  if (changed) for (let i = 0; i < 10; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `changed ${i}\n`);
}
async function files(ws: Client) {
  const out: string[] = [];
  for (let i = 0; i < 10; i++) out.push(await ws.fs.readFile(`/repo/f${i}.txt`, "utf8"));
  return out;
}
const all = (word: string) => Array.from({ length: 10 }, (_, i) => `${word} ${i}\n`);

describe("attack7: ctx.abort() mid stash, stash pop, merge, commit, reset", () => {
  it("(a) mid git stash: nothing lost — the changes are in the tree or in the stash; stash works after", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await repo(ws, true);
    }
    expect(await crashDuring(id, ["stash"], FILE, 4)).toBe("aborted: attack7: crash in git stash");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const tree = await files(ws);
    tree.forEach((t, i) => expect([`base ${i}\n`, `changed ${i}\n`]).toContain(t));
    const list = (await cli(ws, "stash", "list")).stdout;
    if (list === "") expect(tree).toEqual(all("changed"));
    else {
      for (let i = 0; i < 10; i++) expect((await cli(ws, "show", `stash:f${i}.txt`)).stdout).toBe(`changed ${i}\n`);
      expect((await cli(ws, "reset", "--hard")).exitCode).toBe(0);
      expect((await cli(ws, "stash", "pop")).exitCode).toBe(0);
    }
    expect(await files(ws)).toEqual(all("changed"));
    expect((await cli(ws, "stash")).exitCode).toBe(0);
    expect(await files(ws)).toEqual(all("base"));
    expect((await cli(ws, "stash", "list")).stdout).toMatch(/^stash@\{0\}: WIP on main: [0-9a-f]{7} base\n$/);
    expect(await sound(id)).toEqual([]);
  });

  it("(b) mid git stash pop: nothing lost — the stash is still there (or fully applied); reset --hard + pop brings every change", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await repo(ws, true);
      expect((await cli(ws, "stash")).exitCode).toBe(0);
    }
    expect(await crashDuring(id, ["stash", "pop"], FILE, 4)).toBe("aborted: attack7: crash in git stash");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const tree = await files(ws);
    // Each file is whole: restored (changed) or not yet (base).
    tree.forEach((t, i) => expect([`base ${i}\n`, `changed ${i}\n`]).toContain(t));
    const list = (await cli(ws, "stash", "list")).stdout;
    if (list === "") {
      // The pop finished (its writes were confirmed) before the crash took effect.
      expect(tree).toEqual(all("changed"));
    } else {
      expect(list).toMatch(/^stash@\{0\}: WIP on main/);
      expect((await cli(ws, "reset", "--hard")).exitCode).toBe(0);
      expect((await cli(ws, "stash", "pop")).exitCode).toBe(0);
      expect(await files(ws)).toEqual(all("changed"));
      expect((await cli(ws, "stash", "list")).stdout).toBe("");
    }
  });

  it("(c) mid a fast-forward merge: main is on base or topic, every file whole; reset --hard + merge ends on topic", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await repo(ws, false);
      await cli(ws, "checkout", "-b", "topic");
      for (let i = 0; i < 10; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `topic ${i}\n`);
      await cli(ws, "commit", "-a", "-m", "topic");
      expect((await cli(ws, "checkout", "main")).exitCode).toBe(0);
    }
    expect(await crashDuring(id, ["merge", "topic"], FILE, 4)).toBe("aborted: attack7: crash in git merge");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    expect(["base\n", "topic\nbase\n"]).toContain((await cli(ws, "log", "--format=%s")).stdout);
    (await files(ws)).forEach((t, i) => expect([`base ${i}\n`, `topic ${i}\n`]).toContain(t));
    expect((await cli(ws, "reset", "--hard")).exitCode).toBe(0);
    expect((await cli(ws, "merge", "topic")).exitCode).toBe(0);
    expect(await files(ws)).toEqual(all("topic"));
    expect((await cli(ws, "log", "--format=%s")).stdout).toBe("topic\nbase\n");
  });

  it("(d) mid git commit at the branch ref write: the branch is whole (old or new); committing what is left works", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await repo(ws, true);
      await cli(ws, "add", ".");
    }
    expect(await crashDuring(id, ["commit", "-m", "second"], /^\/repo\/\.git\/refs\/heads\/main$/, 1)).toBe("aborted: attack7: crash in git commit");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const log = (await cli(ws, "log", "--format=%s")).stdout;
    expect(["base\n", "second\nbase\n"]).toContain(log);
    if (log === "base\n") {
      expect((await cli(ws, "status", "--porcelain=v1")).stdout).toBe(all("").map((_, i) => `M  f${i}.txt\n`).join(""));
      expect((await cli(ws, "commit", "-m", "second")).exitCode).toBe(0);
    }
    expect((await cli(ws, "log", "--format=%s")).stdout).toBe("second\nbase\n");
    expect((await cli(ws, "status", "--porcelain=v1")).stdout).toBe("");
  });

  it("(e) mid git reset --hard to the parent: HEAD on either commit, every file whole; the reset finishes after", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await repo(ws, true);
      await cli(ws, "commit", "-a", "-m", "second");
    }
    expect(await crashDuring(id, ["reset", "--hard", "HEAD~1"], FILE, 4)).toBe("aborted: attack7: crash in git reset");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const log = (await cli(ws, "log", "--format=%s")).stdout;
    expect(["second\nbase\n", "base\n"]).toContain(log);
    (await files(ws)).forEach((t, i) => expect([`base ${i}\n`, `changed ${i}\n`]).toContain(t));
    expect((await cli(ws, "reset", "--hard", log === "base\n" ? "HEAD" : "HEAD~1")).exitCode).toBe(0);
    expect(await files(ws)).toEqual(all("base"));
    expect((await cli(ws, "status", "--porcelain=v1")).stdout).toBe("");
  });

  it("(f) late in a long git stash (500 files): the stash holds every change; reset --hard + stash pop brings them all back", { timeout: 120_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    const N = 500;
    await runInDurableObject(env.GIT_AGENT.get(id), async (instance) => {
      const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      await ws.fs.mkdir("/repo", { recursive: true });
      for (let i = 0; i < N; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `base ${i}\n`);
      await ws.git.cli({ argv: ["init"], cwd: "/repo" });
      await ws.git.cli({ argv: ["add", "."], cwd: "/repo" });
      await ws.git.cli({ argv: ["commit", "-m", "base"], cwd: "/repo" });
      for (let i = 0; i < N; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `changed ${i}\n`);
    });
    expect(await crashDuring(id, ["stash"], /^\/repo\/f\d+\.txt$/, 450)).toBe("aborted: attack7: crash in git stash");
    expect(await sound(id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    expect((await cli(ws, "stash", "list")).stdout).toMatch(/^stash@\{0\}: WIP on main: [0-9a-f]{7} base\n$/);
    const tree = await runInDurableObject(env.GIT_AGENT.get(id), async (instance) => {
      const w = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      const out: string[] = [];
      for (let i = 0; i < N; i++) out.push(await w.fs.readFile(`/repo/f${i}.txt`, "utf8"));
      return out;
    });
    // Each file is whole: reset (base) or not yet (changed).
    tree.forEach((t, i) => expect([`base ${i}\n`, `changed ${i}\n`]).toContain(t));
    for (const i of [0, 1, 250, 449, 499]) expect((await cli(ws, "show", `stash:f${i}.txt`)).stdout).toBe(`changed ${i}\n`);
    const pop = await cli(ws, "stash", "pop");
    if (tree.some((t) => t.startsWith("changed"))) expect(pop).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^git stash: your local changes to the following files would be overwritten by stash: /) });
    expect((await cli(ws, "reset", "--hard")).exitCode).toBe(0);
    expect((await cli(ws, "stash", "pop")).exitCode).toBe(0);
    const after = await runInDurableObject(env.GIT_AGENT.get(id), async (instance) => {
      const w = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      let changed = 0;
      for (let i = 0; i < N; i++) if ((await w.fs.readFile(`/repo/f${i}.txt`, "utf8")) === `changed ${i}\n`) changed++;
      return changed;
    });
    expect(after).toBe(N);
    expect(await sound(id)).toEqual([]);
  });
});
