/**
 * Malicious trees (issue 15 "Bad input"; the classic git CVEs): tree
 * objects the real git would never write — entries named `..`, `.git`,
 * `.GIT`, holding `/` or NUL, and a symlink followed by a directory of the
 * same name — written straight into the Workspace's `.git`, then checked
 * out, reset to and merged. Each must fail with a GitError code (or do the
 * harmless thing) and write nothing outside the repository or into `.git`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "./worktree-helpers.js";
import { failure, within, writeCommit, writeLoose, wsEverything, type RawEntry } from "./attack-helpers.js";

afterAll(cleanupScratch);

async function setup() {
  const disk = committedRepo({ "a.txt": "a\n" });
  const t = await workspaceCopy(disk);
  await t.ws.fs.mkdir("/outside");
  await t.ws.fs.writeFile("/outside/keep.txt", "outside\n");
  const blob = await writeLoose(t.ws, t.dir, "blob", "pwned\n");
  const aBlob = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
  return { ...t, blob, aBlob, base: realGit(disk, "rev-parse", "HEAD").trim() };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const ops = (t: Setup, ref: string): [string, () => Promise<unknown>][] => [
  ["checkout", () => t.git.checkout({ dir: t.dir, ref })],
  ["checkout -f", () => t.git.checkout({ dir: t.dir, ref, force: true })],
  ["checkout -- .", () => t.git.checkout({ dir: t.dir, ref, paths: ["."] })],
  ["reset --hard", () => t.git.reset({ dir: t.dir, ref, hard: true })],
  ["merge", () => t.git.merge({ dir: t.dir, theirs: ref })],
];

describe("tree entries with forbidden names", () => {
  const names: [string, string | Uint8Array][] = [
    ["..", ".."],
    [".", "."],
    [".git", ".git"],
    [".GIT", ".GIT"],
    [".git. (trailing dot)", ".git."],
    ["git~1", "git~1"],
    ["a/../../x (slash)", "../../outside/x"],
    ["/abs (slash)", "/outside/x"],
  ];
  for (const [label, name] of names) {
    it(`a blob entry named ${label}: every op refuses with a GitError code; nothing written anywhere`, { timeout: 20_000 }, async () => {
      const t = await setup();
      await writeCommit(t.ws, t.dir, "evil", [
        { mode: "100644", name: "a.txt", oid: t.aBlob },
        { mode: "100644", name, oid: t.blob },
      ]);
      const before = await wsEverything(t.ws);
      for (const [op, run] of ops(t, "evil")) {
        const error = await failure(within<unknown>(10_000, run()));
        expect({ op, error: error && { isGitError: error.isGitError, code: typeof error.code } }).toEqual({
          op,
          error: { isGitError: true, code: "string" },
        });
        expect(await wsEverything(t.ws)).toEqual(before);
      }
    });
  }

  it("an entry with an empty name is skipped: checkout writes nothing but HEAD, status stays clean", { timeout: 20_000 }, async () => {
    const t = await setup();
    await writeCommit(t.ws, t.dir, "evil", [
      { mode: "100644", name: "a.txt", oid: t.aBlob },
      { mode: "100644", name: "", oid: t.blob },
    ]);
    const before = await wsEverything(t.ws);
    await within(10_000, t.git.checkout({ dir: t.dir, ref: "evil" }));
    const after = await wsEverything(t.ws);
    const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
    expect(changed).toEqual([`${t.dir}/.git/HEAD`]);
    expect(await t.git.status({ dir: t.dir })).toEqual([]);
  });

  it("a tree entry named .git holding config and hooks: refused; .git untouched", { timeout: 20_000 }, async () => {
    const t = await setup();
    const config = await writeLoose(t.ws, t.dir, "blob", "[core]\n\tfsmonitor = evil\n");
    const sub = await writeLoose(t.ws, t.dir, "tree", Buffer.concat([Buffer.from("100644 config\0"), Buffer.from(config, "hex")]));
    for (const name of [".git", ".Git", "sub"]) {
      const entries: RawEntry[] = [{ mode: "100644", name: "a.txt", oid: t.aBlob }, { mode: "40000", name, oid: sub }];
      await writeCommit(t.ws, t.dir, `evil-${name.replace(".", "")}`, entries);
    }
    const before = await wsEverything(t.ws);
    for (const name of [".git", ".Git"]) {
      for (const [op, run] of ops(t, `evil-${name.replace(".", "")}`)) {
        const error = await failure(within<unknown>(10_000, run()));
        expect({ op, name, isGitError: error?.isGitError }).toEqual({ op, name, isGitError: true });
        expect(await wsEverything(t.ws)).toEqual(before);
      }
    }
  });
});

describe("a symlink and a directory of the same name", () => {
  it("one tree holding link -> /outside and link/ (a directory with file): nothing lands in /outside", { timeout: 30_000 }, async () => {
    const t = await setup();
    const target = await writeLoose(t.ws, t.dir, "blob", "/outside");
    const sub = await writeLoose(t.ws, t.dir, "tree", Buffer.concat([Buffer.from("100644 file\0"), Buffer.from(t.blob, "hex")]));
    await writeCommit(t.ws, t.dir, "evil", [
      { mode: "100644", name: "a.txt", oid: t.aBlob },
      { mode: "120000", name: "link", oid: target },
      { mode: "40000", name: "link", oid: sub },
    ]);
    for (const [op, run] of ops(t, "evil")) {
      // isomorphic-git's walk yields one entry per name (the directory), so this either fails or writes link/file inside the repo
      await failure(within<unknown>(10_000, run()));
      expect({ op, link: await t.ws.fs.lstat(`${t.dir}/link`).then((s) => (s.isSymbolicLink ? "symlink" : "other"), () => "absent") }).not.toEqual({ op, link: "symlink" });
      expect({ op, outside: (await t.ws.fs.readdir("/outside")).map((e) => e.name) }).toEqual({ op, outside: ["keep.txt"] });
      await t.git.reset({ dir: t.dir, ref: t.base, hard: true }).catch(() => undefined);
    }
  });

  it("commit 1 has link -> /outside, commit 2 replaces it with link/file: checkout 1 then 2 writes link/file inside the repo", { timeout: 30_000 }, async () => {
    const t = await setup();
    const target = await writeLoose(t.ws, t.dir, "blob", "/outside");
    const one = await writeCommit(t.ws, t.dir, "one", [
      { mode: "100644", name: "a.txt", oid: t.aBlob },
      { mode: "120000", name: "link", oid: target },
    ]);
    const sub = await writeLoose(t.ws, t.dir, "tree", Buffer.concat([Buffer.from("100644 file\0"), Buffer.from(t.blob, "hex")]));
    await writeCommit(t.ws, t.dir, "two", [
      { mode: "100644", name: "a.txt", oid: t.aBlob },
      { mode: "40000", name: "link", oid: sub },
    ], one);
    await t.git.checkout({ dir: t.dir, ref: "one" });
    expect(await t.ws.fs.readlink(`${t.dir}/link`)).toBe("/outside");
    for (const [op, run] of [
      ["checkout", () => t.git.checkout({ dir: t.dir, ref: "two" })],
      ["reset --hard", () => t.git.reset({ dir: t.dir, ref: "two", hard: true })],
      ["merge (fast-forward)", () => t.git.merge({ dir: t.dir, theirs: "two" })],
      ["checkout -- link", () => t.git.checkout({ dir: t.dir, ref: "two", paths: ["link"] })],
    ] as const) {
      await t.git.reset({ dir: t.dir, ref: "one", hard: true });
      await t.git.checkout({ dir: t.dir, ref: "one", force: true });
      await within<unknown>(10_000, run()).catch(() => undefined);
      expect({ op, outside: (await t.ws.fs.readdir("/outside")).map((e) => e.name) }).toEqual({ op, outside: ["keep.txt"] });
    }
  });

  it("a tracked symlink dir -> /outside: checkout of a commit holding dir/file (no link change staged first) stays inside", { timeout: 30_000 }, async () => {
    const t = await setup();
    // worktree holds a symlink the user made (untracked) named like a directory of the target commit
    await t.ws.fs.symlink("/outside", `${t.dir}/link`);
    const sub = await writeLoose(t.ws, t.dir, "tree", Buffer.concat([Buffer.from("100644 file\0"), Buffer.from(t.blob, "hex")]));
    await writeCommit(t.ws, t.dir, "two", [
      { mode: "100644", name: "a.txt", oid: t.aBlob },
      { mode: "40000", name: "link", oid: sub },
    ], t.base);
    for (const [op, run] of [
      ["checkout", () => t.git.checkout({ dir: t.dir, ref: "two" })],
      ["checkout -f", () => t.git.checkout({ dir: t.dir, ref: "two", force: true })],
      ["reset --hard", () => t.git.reset({ dir: t.dir, ref: "two", hard: true })],
      ["merge", () => t.git.merge({ dir: t.dir, theirs: "two" })],
      ["checkout -- link", () => t.git.checkout({ dir: t.dir, ref: "two", paths: ["link"] })],
      ["checkout -- link/file", () => t.git.checkout({ dir: t.dir, ref: "two", paths: ["link/file"] })],
    ] as const) {
      await t.git.reset({ dir: t.dir, ref: t.base, hard: true }).catch(() => undefined);
      await t.ws.fs.rm(`${t.dir}/link`, { recursive: true }).catch(() => undefined);
      await t.ws.fs.symlink("/outside", `${t.dir}/link`);
      await within<unknown>(10_000, run()).catch(() => undefined);
      expect({ op, outside: (await t.ws.fs.readdir("/outside")).map((e) => e.name) }).toEqual({ op, outside: ["keep.txt"] });
    }
  });
});
