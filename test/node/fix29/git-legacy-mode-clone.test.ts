/**
 * Issue 20, run 29, fixer GM — sibling of test/node/attack29c/git-legacy-mode-100664-tree-unreadable.test.ts over
 * the network: a clone (smart HTTP, the loopback server's real `git upload-pack`) of a repository whose HEAD tree
 * holds legacy modes (100664, 100775, 120777, 40755) checks out what git 2.39.5's clone checks out, with a clean
 * status. Before, the clone failed (ECLONEFAIL, isomorphic-git's "internal error … Unexpected GitTree entry mode:
 * 100664") and removed what it had made.
 */
import { afterAll, describe, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, diskSnapshot, exportDir, newWorkspace, realGit, tempDir, wsSnapshot } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

async function server(name: string, args: string[], stdin?: Uint8Array): Promise<string> {
  const r = await serverGit(name, args, stdin);
  if (r.code !== 0) throw new Error(`server git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

async function literalTree(name: string, entries: [mode: string, name: string, oid: string][]): Promise<string> {
  const body = Buffer.concat(entries.flatMap(([mode, path, oid]) => [Buffer.from(`${mode} ${path}\0`), Buffer.from(oid, "hex")]));
  return server(name, ["hash-object", "-t", "tree", "-w", "--stdin", "--literally"], new Uint8Array(body));
}

describe("clone of a repository whose HEAD tree holds legacy modes", () => {
  it("checks out what git 2.39.5's clone checks out; status is clean", { timeout: 90_000 }, async () => {
    const { name, url } = await forkRepo();
    const blob = (text: string) => server(name, ["hash-object", "-w", "--stdin"], new TextEncoder().encode(text));
    const sub = await literalTree(name, [["100600", "s.txt", await blob("s\n")]]);
    const tree = await literalTree(name, [
      ["100664", "README.md", await server(name, ["rev-parse", "main:README.md"])],
      ["120777", "link", await blob("README.md")],
      ["100775", "run.sh", await blob("#!/bin/sh\necho run\n")],
      ["40755", "sub", sub],
    ]);
    const commit = await server(name, ["-c", "user.name=T", "-c", "user.email=t@t", "commit-tree", tree, "-p", "main", "-m", "legacy modes"]);
    await server(name, ["update-ref", "refs/heads/main", commit]);

    const real = tempDir("wsgit-real-");
    realGit(real, "clone", "-q", url, real);
    const { ws, git } = newWorkspace();
    await git.clone({ url, dir: "/repo" }); // Was: GitError ECLONEFAIL "… Unexpected GitTree entry mode: 100664", /repo removed
    expect(await wsSnapshot(ws, "/repo")).toEqual(diskSnapshot(real));
    expect((await ws.fs.stat("/repo/run.sh")).mode & 0o777).toBe(0o755);
    expect((await ws.fs.stat("/repo/README.md")).mode & 0o777).toBe(0o644);
    expect(await ws.fs.readlink("/repo/link")).toBe("README.md");
    const run = (...argv: string[]) => git.cli({ argv, cwd: "/repo" });
    expect(await run("rev-parse", "HEAD")).toEqual({ stdout: `${commit}\n`, stderr: "", exitCode: 0 });
    expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await run("ls-tree", "-r", "HEAD")).toEqual({ stdout: realGit(real, "ls-tree", "-r", "HEAD"), stderr: "", exitCode: 0 });
    const disk = await exportDir(ws, "/repo");
    expect(realGit(disk, "ls-files", "-s")).toBe(realGit(real, "ls-files", "-s"));
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
  });
});
