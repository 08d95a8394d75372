/**
 * Network git inside workerd (issue 15): a Durable Object's Workspace clones
 * from the loopback smart-HTTP server through workerd's fetch, commits and
 * pushes; the real git on the server checks the result. The cloned tree is
 * compared with the fixture as the real git reports it (blob oids, modes,
 * the symlink, the non-ASCII path, the >1 MiB file).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { Workspace } from "../../../src/index.js";
import { forkRepo, gitServer, repoUrl, serverGit } from "../../shared/git-remote.js";

const IDENTITY = { name: "Worker Agent", email: "agent@workers.test" };

/** git's blob oid of `bytes` (sha1 of `blob <n>\0` + bytes), hex. */
async function blobOid(bytes: Uint8Array): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(header.length + bytes.length);
  all.set(header);
  all.set(bytes, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function inDurableObject<T>(body: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      return await body(ws);
    } finally {
      await ws.close();
    }
  });
}

function gitOf(ws: Workspace) {
  return createGitClient()({ ws, defaultIdentity: IDENTITY });
}

describe("git over the network from a Durable Object", () => {
  it("full clone: every file's blob oid and mode equal the fixture's (symlink, executable, non-ASCII path, >1 MiB)", async () => {
    const { fixture } = gitServer();
    const seen = await inDurableObject(async (ws) => {
      const git = gitOf(ws);
      await git.clone({ url: repoUrl("fixture"), dir: "/repo" });
      const files: { path: string; mode: string; oid: string; size: number }[] = [];
      for (const f of fixture.files) {
        const full = `/repo/${f.path}`;
        const lstat = await ws.fs.lstat(full);
        if (lstat.isSymbolicLink) {
          const target = new TextEncoder().encode(await ws.fs.readlink(full));
          files.push({ path: f.path, mode: "120000", oid: await blobOid(target), size: target.length });
        } else {
          const bytes = new Uint8Array(await new Response(await ws.fs.readFile(full)).arrayBuffer());
          files.push({ path: f.path, mode: lstat.mode & 0o111 ? "100755" : "100644", oid: await blobOid(bytes), size: bytes.length });
        }
      }
      const log = await git.log({ dir: "/repo" });
      return { files, history: log.map((c) => c.oid), branch: await git.currentBranch({ dir: "/repo" }) };
    });
    expect(seen.files).toEqual(fixture.files);
    expect(seen.history).toEqual(fixture.mainHistory);
    expect(seen.branch).toBe("main");
    expect(fixture.files.find((f) => f.path === "big/large.dat")!.size).toBeGreaterThan(1024 * 1024);
  });

  it("shallow clone, commit in the Workspace, push: the server's real git sees exactly that commit", async () => {
    const { fixture } = gitServer();
    const { name, url } = await forkRepo();
    const oid = await inDurableObject(async (ws) => {
      const git = gitOf(ws);
      await git.clone({ url, dir: "/repo", depth: 1 });
      expect((await git.log({ dir: "/repo" })).map((c) => c.oid)).toEqual([fixture.branches.main]);
      await ws.fs.writeFile("/repo/from-workerd.txt", "written inside a Durable Object\n");
      await git.add({ dir: "/repo", paths: ["from-workerd.txt"] });
      const { oid } = await git.commit({ dir: "/repo", message: "from workerd" });
      expect(await git.push({ dir: "/repo" })).toEqual({ ok: true, error: null, refs: { "refs/heads/main": { ok: true, error: "" } } });
      return oid;
    });
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
    expect((await serverGit(name, ["log", "-2", "--format=%H %P %an %s", "main"])).stdout).toBe(
      `${oid} ${fixture.branches.main} ${IDENTITY.name} from workerd\n${fixture.branches.main} ${fixture.mainHistory[1]} Fixture Author c5: run twice\n`,
    );
    expect((await serverGit(name, ["cat-file", "blob", "main:from-workerd.txt"])).stdout).toBe("written inside a Durable Object\n");
  });

  it("a server that never answers: ECLONEFAIL within timeoutMs, nothing left", async () => {
    const url = repoUrl("fixture", "hang");
    const result = await inDurableObject(async (ws) => {
      const git = gitOf(ws);
      const started = Date.now();
      const error = await git.clone({ url, dir: "/repo", timeoutMs: 1_000 }).then(
        () => undefined,
        (e: { name: string; code: string; message: string }) => ({ name: e.name, code: e.code, message: e.message }),
      );
      return { error, ms: Date.now() - started, root: (await ws.fs.readdir("/")).map((e) => e.name) };
    });
    expect(result.error).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: `git clone failed: no response from ${url}/info/refs?service=git-upload-pack for 1000 ms (timed out)`,
    });
    expect(result.ms).toBeLessThan(30_000);
    expect(result.root).toEqual([]);
  });

  it("a truncated pack: clone and fetch fail with a code; the Workspace's tree and refs stay as they were", async () => {
    const { fixture } = gitServer();
    const url = repoUrl("fixture", "truncated");
    const result = await inDurableObject(async (ws) => {
      const git = gitOf(ws);
      const describe = (e: { name: string; code: string; message: string }) => ({ name: e.name, code: e.code, message: e.message });
      const clone = await git.clone({ url, dir: "/t" }).then(() => undefined, describe);
      const rootAfterClone = (await ws.fs.readdir("/")).map((e) => e.name);
      await git.clone({ url: repoUrl("fixture"), dir: "/repo", depth: 1 });
      await ws.fs.writeFile("/repo/README.md", "edited\n");
      const fetch = await git.fetch({ dir: "/repo", url, ref: "feature" }).then(() => undefined, describe);
      return {
        clone,
        rootAfterClone,
        fetch,
        readme: await ws.fs.readFile("/repo/README.md", "utf8"),
        status: await git.status({ dir: "/repo" }),
        remoteRefs: (await ws.fs.readdir("/repo/.git/refs/remotes/origin")).map((e) => e.name).sort(),
        head: await git.revParse({ dir: "/repo", ref: "HEAD" }),
      };
    });
    expect(result.clone).toMatchObject({ name: "GitError", code: "ECLONEFAIL" });
    expect(result.rootAfterClone).toEqual([]);
    expect(result.fetch).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
    expect(result.readme).toBe("edited\n");
    expect(result.status).toEqual([{ path: "README.md", index: " ", worktree: "M" }]);
    expect(result.remoteRefs).toEqual(["HEAD", "main"]);
    expect(result.head).toBe(fixture.branches.main);
  });
});
