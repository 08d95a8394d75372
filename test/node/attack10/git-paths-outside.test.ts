/**
 * Issue 20 tenth attack run, category 1 (escapes) — withstood: the
 * Workspace's git keeps every path argument inside the repository, as real
 * git does, whatever spelling reaches for a file next to it:
 * `../x`, `a/../../x` and absolute paths in `diff`/`status` options and in
 * CLI pathspecs (`diff`, `status`, `ls-files`, `add`) fail "outside the
 * repository"; `show`/`cat-file` `HEAD:../x` find nothing; a working-tree
 * link to a directory outside the repository is added as a link (mode
 * 120000), and a pathspec through it is "beyond a symbolic link" — the file
 * it points to is never read into the object store nor written by checkout.
 * (ws:git hands these calls the runtime's root as the repository, so this is
 * what keeps a confined run's git inside its root.)
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };
const dir = "/workspace/proj";

describe("attack10: git paths reaching outside the repository", () => {
  it("withstood: ../, a/../../, absolute and through-a-link paths are refused or stay links", { timeout: 60_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const g = ws.git!;
    await ws.fs.mkdir(dir, { recursive: true });
    await ws.fs.mkdir("/workspace/secret", { recursive: true });
    await ws.fs.writeFile("/workspace/secret/s.txt", "TOP SECRET\n");
    await ws.fs.writeFile("/workspace/secret.txt", "TOP SECRET\n");
    await g.init({ dir });
    await ws.fs.writeFile(`${dir}/a`, "a\n");
    await g.add({ dir, paths: ["a"] });
    await g.commit({ dir, message: "base" });

    const code = (p: Promise<unknown>) => p.then(() => "resolved", (e: { code?: string }) => e.code);
    expect(await code(g.diff({ dir, paths: ["../secret.txt"] }))).toBe("EPATHOUTSIDE");
    expect(await code(g.diff({ dir, paths: ["/workspace/secret.txt"] }))).toBe("EPATHOUTSIDE");
    expect(await code(g.status({ dir, paths: ["a/../../secret.txt"] }))).toBe("EPATHOUTSIDE");

    const cli = async (...argv: string[]) => {
      const r = await g.cli({ argv, cwd: dir });
      return `${r.exitCode} ${r.stdout}${r.stderr}`;
    };
    expect(await cli("diff", "--", "../secret.txt")).toBe("1 git diff: path '../secret.txt' is outside the repository at /workspace/proj\n");
    expect(await cli("ls-files", "--", "../secret.txt")).toBe("1 git ls-files: path '../secret.txt' is outside the repository at /workspace/proj\n");
    expect(await cli("add", "../secret.txt")).toBe("1 git add: path '../secret.txt' is outside the repository at /workspace/proj\n");
    expect(await cli("show", "HEAD:../secret.txt")).not.toContain("TOP SECRET");
    expect(await cli("cat-file", "-p", "HEAD:../secret.txt")).not.toContain("TOP SECRET");

    await ws.fs.symlink("/workspace/secret", `${dir}/l`);
    expect(await cli("add", "l/s.txt")).toBe("128 git add: pathspec 'l/s.txt' is beyond a symbolic link\n");
    expect(await cli("add", "-A")).toBe("0 ");
    expect(await cli("commit", "-m", "link")).toMatch(/^0 \[[0-9a-f]{7}\] link\n$/);
    const tree = await cli("ls-tree", "HEAD");
    expect(tree).toContain("120000 blob ");
    expect(tree).not.toContain("s.txt");
    // As real git (run 21): `error: pathspec 'l/s.txt' did not match any file(s) known to git`, exit 1.
    expect(await cli("checkout", "HEAD", "--", "l/s.txt")).toBe("1 git checkout: pathspec 'l/s.txt' did not match any file(s) known to git\n");
    expect(await ws.fs.readFile("/workspace/secret/s.txt", "utf8")).toBe("TOP SECRET\n");
    await ws.close();
  });
});
