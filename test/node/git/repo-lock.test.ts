// The repository lock (src/git/repo-lock.ts): a lock left by a holder that died is taken over once its
// lease has run out; a read-only repository (no lock can be made) still answers; a link to the
// repository resolves to it.
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { canonicalDir, REPO_LOCK_NAME } from "../../../src/git/repo-lock.js";

async function repo() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
  await ws.fs.mkdir("/repo");
  await ws.git!.init({ dir: "/repo" });
  await ws.fs.writeFile("/repo/a", "a\n");
  await ws.git!.add({ dir: "/repo", paths: ["a"] });
  await ws.git!.commit({ dir: "/repo", message: "base" });
  return ws;
}

describe("repository lock", () => {
  it("a lock whose lease ran out (a crashed holder) is taken over; the commit lands and the lock file goes", async () => {
    const ws = await repo();
    await ws.fs.writeFile(`/repo/.git/${REPO_LOCK_NAME}`, `dead-owner ${Date.now() - 1}\n`);
    const made = await ws.git!.commit({ dir: "/repo", message: "after" });
    expect((await ws.git!.log({ dir: "/repo" }))[0]!.oid).toBe(made.oid);
    await expect(ws.fs.lstat(`/repo/.git/${REPO_LOCK_NAME}`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("garbage in the lock file counts as expired", async () => {
    const ws = await repo();
    await ws.fs.writeFile(`/repo/.git/${REPO_LOCK_NAME}`, "not a lock\n");
    await ws.fs.writeFile("/repo/b", "b\n");
    await ws.git!.add({ dir: "/repo", paths: ["b"] });
    expect(await ws.git!.lsFiles({ dir: "/repo" })).toEqual(["a", "b"]);
    await expect(ws.fs.lstat(`/repo/.git/${REPO_LOCK_NAME}`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("canonicalDir resolves links, relative and absolute, chains, and stops at a missing component", async () => {
    const ws = await repo();
    await ws.fs.mkdir("/x/y", { recursive: true });
    await ws.fs.symlink("/repo", "/abs");
    await ws.fs.symlink("../repo", "/x/rel");
    await ws.fs.symlink("/x/rel", "/chain");
    await ws.fs.symlink("loop2", "/loop1");
    await ws.fs.symlink("loop1", "/loop2");
    expect(await canonicalDir(ws, "/abs")).toBe("/repo");
    expect(await canonicalDir(ws, "/x/rel")).toBe("/repo");
    expect(await canonicalDir(ws, "/chain")).toBe("/repo");
    expect(await canonicalDir(ws, "/x/y")).toBe("/x/y");
    expect(await canonicalDir(ws, "/nope/abs")).toBe("/nope/abs");
    expect(await canonicalDir(ws, "/loop1")).toBe("/loop1");
    expect(await canonicalDir(ws, "/")).toBe("/");
  });
});
