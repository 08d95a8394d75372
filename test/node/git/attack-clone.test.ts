/**
 * Malicious repositories served over smart HTTP (issue 15 "Bad input"; the
 * classic git CVEs): a server branch whose tree holds `..`, `.git` (with a
 * config), `.GIT`, or a symlink `link -> /outside` and a directory `link/`
 * of the same name. Clone of that branch, and fetch + merge/checkout/reset
 * of it into an existing clone, must fail with a GitError code (or do the
 * harmless thing) and never write outside the repository or into `.git`.
 * The objects are made with the real git (`hash-object --literally`,
 * `commit-tree`) in a fork on the loopback server.
 */
import { afterAll, describe, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "./worktree-helpers.js";
import { failure, treeBody, within, wsEverything, type RawEntry } from "./attack-helpers.js";

afterAll(cleanupScratch);

async function git(repo: string, args: string[], stdin?: Uint8Array | string): Promise<string> {
  const r = await serverGit(repo, args, typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin);
  if (r.code !== 0) throw new Error(`server git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A fork whose branch `evil` holds a tree of `entries(blobs)` on top of the fixture's HEAD. */
async function evilFork(entries: (o: { blob: string; link: string; config: string; sub: string }) => RawEntry[]) {
  const { name, url } = await forkRepo();
  const blob = await git(name, ["hash-object", "-w", "--stdin"], "pwned\n");
  const link = await git(name, ["hash-object", "-w", "--stdin"], "/outside");
  const config = await git(name, ["hash-object", "-w", "--stdin"], "[core]\n\tfsmonitor = touch /pwned\n");
  const sub = await git(name, ["hash-object", "-w", "--literally", "-t", "tree", "--stdin"], treeBody([{ mode: "100644", name: "file", oid: blob }, { mode: "100644", name: "config", oid: config }].sort((a, b) => (a.name < b.name ? -1 : 1))));
  const tree = await git(name, ["hash-object", "-w", "--literally", "-t", "tree", "--stdin"], treeBody(entries({ blob, link, config, sub })));
  const head = await git(name, ["rev-parse", "HEAD"]);
  const commit = await git(name, ["-c", "user.name=Eve", "-c", "user.email=eve@example.com", "commit-tree", tree, "-p", head, "-m", "evil"]);
  await git(name, ["update-ref", "refs/heads/evil", commit]);
  return { name, url };
}

const cases: [string, (o: { blob: string; link: string; config: string; sub: string }) => RawEntry[]][] = [
  ["an entry named ..", (o) => [{ mode: "40000", name: "..", oid: o.sub }]],
  ["a directory named .git holding config", (o) => [{ mode: "40000", name: ".git", oid: o.sub }]],
  ["a directory named .GIT holding config", (o) => [{ mode: "40000", name: ".GIT", oid: o.sub }]],
  ["a file named .git", (o) => [{ mode: "100644", name: ".git", oid: o.blob }]],
  ["a name with a slash", (o) => [{ mode: "100644", name: "../../outside/x", oid: o.blob }]],
  ["link -> /outside and link/ of the same name", (o) => [{ mode: "120000", name: "link", oid: o.link }, { mode: "40000", name: "link", oid: o.sub }]],
];

async function workspace() {
  const { ws, git: client } = newWorkspace();
  await ws.fs.mkdir("/outside");
  await ws.fs.writeFile("/outside/keep.txt", "outside\n");
  return { ws, git: client };
}

const outsideOf = (all: Record<string, string>) => Object.fromEntries(Object.entries(all).filter(([k]) => !k.startsWith("/repo/") && k !== "/repo"));

describe("clone of a malicious branch", () => {
  for (const [label, entries] of cases) {
    it(`${label}: clone -b evil fails with ECLONEFAIL or writes only inside /repo (never .git/config, never /outside)`, { timeout: 60_000 }, async () => {
      const { url } = await evilFork(entries);
      const { ws, git: client } = await workspace();
      const before = await wsEverything(ws);
      const error = await failure(within(30_000, client.clone({ url, dir: "/repo", ref: "evil" })));
      const after = await wsEverything(ws);
      expect(outsideOf(after)).toEqual(outsideOf(before));
      expect(await ws.fs.readdir("/outside").then((e) => e.map((x) => x.name))).toEqual(["keep.txt"]);
      if (error) expect(error).toMatchObject({ code: "ECLONEFAIL", isGitError: true });
      else {
        const config = await ws.fs.readFile("/repo/.git/config", "utf8");
        expect(config).not.toContain("fsmonitor");
      }
    });
  }
});

const ops = (client: ReturnType<typeof newWorkspace>["git"]): [string, () => Promise<unknown>][] => [
  ["merge", () => client.merge({ dir: "/repo", theirs: "origin/evil" })],
  ["checkout", () => client.checkout({ dir: "/repo", ref: "origin/evil" })],
  ["checkout -f", () => client.checkout({ dir: "/repo", ref: "origin/evil", force: true })],
  ["reset --hard", () => client.reset({ dir: "/repo", ref: "origin/evil", hard: true })],
  [
    "cli pull",
    () =>
      client.cli({ argv: ["pull", "origin", "evil"], cwd: "/repo" }).then((r) => {
        if (r.exitCode !== 0) throw Object.assign(new Error(r.stderr), { code: `EXIT${r.exitCode}` });
      }),
  ],
];

/** Paths that a fetch may change (objects, remote refs, FETCH_HEAD). */
const fetched = (k: string) => k.startsWith("/repo/.git/objects/") || k.startsWith("/repo/.git/refs/remotes/") || k === "/repo/.git/FETCH_HEAD";

describe("fetch of a malicious branch into a clean clone, then merge / checkout / reset / pull", () => {
  for (const [label, entries] of cases.filter(([l]) => !l.startsWith("link"))) {
    it(`${label}: each fails with a GitError code (pull: exit 1); the repository and /outside are unchanged`, { timeout: 90_000 }, async () => {
      const { url } = await evilFork(entries);
      const { ws, git: client } = await workspace();
      await client.clone({ url, dir: "/repo" });
      await client.fetch({ dir: "/repo", remote: "origin", ref: "evil" });
      const before = await wsEverything(ws);
      for (const [op, run] of ops(client)) {
        const error = await failure(within<unknown>(30_000, run()));
        expect({ op, error: error && { code: String(error.code) } }).toEqual({ op, error: { code: expect.stringMatching(/^E[A-Z0-9]+$/) } });
        const after = await wsEverything(ws);
        expect({ op, changed: Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k] && !fetched(k)) }).toEqual({ op, changed: [] });
      }
    });
  }

  it("link -> /outside and link/ of the same name: each op either fails or writes link/ as a directory inside the repo; no link, nothing outside", { timeout: 120_000 }, async () => {
    const { url } = await evilFork(cases.find(([l]) => l.startsWith("link"))![1]);
    for (let i = 0; i < ops(undefined as never).length; i++) {
      const { ws, git: client } = await workspace();
      await client.clone({ url, dir: "/repo" });
      await client.fetch({ dir: "/repo", remote: "origin", ref: "evil" });
      const before = await wsEverything(ws);
      const [op, run] = ops(client)[i]!;
      const error = await failure(within<unknown>(30_000, run()));
      const after = await wsEverything(ws);
      expect({ op, outside: outsideOf(after) }).toEqual({ op, outside: outsideOf(before) });
      expect({ op, link: after["/repo/link"] }).toEqual({ op, link: error ? undefined : "dir" });
    }
  });
});
