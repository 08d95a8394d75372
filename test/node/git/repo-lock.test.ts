// The repository lock (src/git/repo-lock.ts): a lock left by a holder that died is taken over once its
// lease has run out; a read-only repository (no lock can be made) still answers; a link to the
// repository resolves to it; a holder whose lock was taken over fails ELOCKLOST without overwriting the
// new holder's ref; a lock claiming a far expiry is taken over; a lock path that is a directory or a
// dangling link fails ELOCKED.
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { canonicalDir, REPO_LOCK_NAME } from "../../../src/git/repo-lock.js";

const LOCK = `/repo/.git/${REPO_LOCK_NAME}`;

/** Makes `ws.fs.writeFile` call `before(path)` first, once per path for which it returns true. */
function onWrite(ws: Workspace, before: (path: string, options: { ifMatch?: string; exclusive?: boolean } | undefined) => Promise<boolean>): () => void {
  const fs = ws.fs as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>;
  const write = fs.writeFile!.bind(ws.fs);
  fs.writeFile = async (...x: unknown[]) => {
    await before(String(x[0]), x[2] as { ifMatch?: string; exclusive?: boolean } | undefined);
    return write(...x);
  };
  return () => {
    fs.writeFile = write;
  };
}

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

  it("a holder whose lock is taken over while its ref write is in flight fails ELOCKLOST; the new holder's ref stays", async () => {
    const ws = await repo();
    const base = await ws.git!.revParse({ dir: "/repo", ref: "HEAD" });
    const theirs = "1".repeat(40);
    let done = false;
    const restore = onWrite(ws, async (path, options) => {
      // The ref write was checked and sent; before it lands, another writer takes the lock and moves the branch.
      if (path === "/repo/.git/refs/heads/main" && options?.ifMatch && !done) {
        done = true;
        await ws.fs.writeFile(LOCK, `other ${Date.now() + 3_000}\n`);
        await ws.fs.writeFile("/repo/.git/refs/heads/main", `${theirs}\n`);
      }
      return true;
    });
    const made = ws.git!.commit({ dir: "/repo", message: "mine" });
    await expect(made).rejects.toMatchObject({ code: "ELOCKLOST" });
    restore();
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    expect(await ws.fs.readFile("/repo/.git/refs/heads/main", "utf8")).toBe(`${theirs}\n`);
    // The new holder's lock is left alone.
    expect((await ws.fs.readFile(LOCK, "utf8")).startsWith("other ")).toBe(true);
  });

  it("a holder whose lock was taken over before its ref write fails ELOCKLOST and leaves the branch", async () => {
    const ws = await repo();
    const base = await ws.fs.readFile("/repo/.git/refs/heads/main", "utf8");
    let done = false;
    const restore = onWrite(ws, async (path) => {
      if (path.startsWith("/repo/.git/objects/") && !done) {
        done = true;
        await ws.fs.writeFile(LOCK, `other ${Date.now() + 3_000}\n`);
      }
      return true;
    });
    const error = await ws.git!.commit({ dir: "/repo", message: "mine" }).catch((e: Error) => e);
    restore();
    expect(error).toMatchObject({ code: "ELOCKLOST" });
    expect((error as Error).message).toContain(`another writer took the repository lock ${LOCK} after this operation stalled past its 3 s lease`);
    expect(await ws.fs.readFile("/repo/.git/refs/heads/main", "utf8")).toBe(base);
  });

  it("a lock claiming an expiry far beyond any lease is corrupt: taken over at once", async () => {
    const ws = await repo();
    await ws.fs.writeFile(LOCK, "someone 99999999999999\n");
    await ws.fs.writeFile("/repo/b", "b\n");
    await ws.git!.add({ dir: "/repo", paths: ["b"] });
    expect(await ws.git!.lsFiles({ dir: "/repo" })).toEqual(["a", "b"]);
    await expect(ws.fs.lstat(LOCK)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a lock path that is a directory or a dangling link fails ELOCKED, naming it and how to remove it", async () => {
    const ws = await repo();
    await ws.fs.writeFile("/repo/b", "b\n");
    await ws.fs.mkdir(LOCK);
    await expect(ws.git!.add({ dir: "/repo", paths: ["b"] })).rejects.toMatchObject({
      code: "ELOCKED",
      message: `cannot take the repository lock ${LOCK}: it is a directory; git never makes it anything but a file: remove it (rm -r ${LOCK}) and retry`,
    });
    await ws.fs.rm(LOCK);
    await ws.fs.symlink("/nowhere", LOCK);
    await expect(ws.git!.add({ dir: "/repo", paths: ["b"] })).rejects.toMatchObject({
      code: "ELOCKED",
      message: `cannot take the repository lock ${LOCK}: it is a symbolic link; git never makes it anything but a file: remove it (rm -r ${LOCK}) and retry`,
    });
    await ws.fs.rm(LOCK);
    await ws.git!.add({ dir: "/repo", paths: ["b"] });
    expect(await ws.git!.lsFiles({ dir: "/repo" })).toEqual(["a", "b"]);
  });
});
