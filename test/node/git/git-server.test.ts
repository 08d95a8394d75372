/**
 * The loopback git server itself (test/shared/git-server.ts): the real git
 * clones the fixture over smart HTTP and sees exactly what was built, pushes
 * are accepted, and the bad-input routes misbehave as documented.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_UNICODE_PATH, fixtureBinary, fixtureLarge } from "../../shared/git-server.js";
import { bytesDiff, forkRepo, gitServer, repoUrl, serverGit } from "../../shared/git-remote.js";

const tmp = mkdtempSync(join(tmpdir(), "ac-git-server-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, HOME: tmp, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" };
const git = (cwd: string, args: string[], timeout = 30_000) => execFileSync("git", args, { cwd, env, encoding: "utf8", timeout });

describe("loopback git server", () => {
  it("serves the fixture to the real git: refs, merge commit, tags, file bytes and modes", () => {
    const { fixture } = gitServer();
    const dir = join(tmp, "clone");
    git(tmp, ["clone", "-q", repoUrl("fixture"), dir]);
    expect(git(dir, ["rev-parse", "HEAD"]).trim()).toBe(fixture.branches.main);
    expect(Object.keys(fixture.branches).sort()).toEqual(["feature", "main"]);
    expect(Object.keys(fixture.tags).sort()).toEqual(["v0.1", "v1.0"]);
    expect(git(dir, ["cat-file", "-t", fixture.tags["v1.0"]]).trim()).toBe("tag");
    expect(fixture.tagTargets["v0.1"]).toBe(fixture.tags["v0.1"]);
    expect(git(dir, ["rev-list", "--merges", "HEAD"]).trim().split("\n")).toHaveLength(1);
    expect(fixture.mainHistory).toHaveLength(5);
    expect(fixture.allCommits).toHaveLength(6);
    expect(bytesDiff(readFileSync(join(dir, "assets/blob.bin")), fixtureBinary())).toBe("");
    expect(bytesDiff(readFileSync(join(dir, "big/large.dat")), fixtureLarge())).toBe("");
    expect(fixtureLarge().length).toBeGreaterThan(1024 * 1024);
    expect(readFileSync(join(dir, FIXTURE_UNICODE_PATH), "utf8")).toBe("Ça marche: ünïcödé ✓\n");
    expect(readlinkSync(join(dir, "link-to-readme"))).toBe("README.md");
    expect(statSync(join(dir, "bin/run.sh")).mode & 0o111).not.toBe(0);
    expect(fixture.files.map((f) => `${f.mode} ${f.path}`)).toEqual([
      "100644 README.md",
      "100644 assets/blob.bin",
      "100644 big/large.dat",
      "100755 bin/run.sh",
      `100644 ${FIXTURE_UNICODE_PATH}`,
      "100644 docs/feature.txt",
      "120000 link-to-readme",
    ]);
  });

  it("accepts a push to a fork and /admin/git runs the real git there", async () => {
    const { name, url } = await forkRepo();
    const dir = join(tmp, "push");
    git(tmp, ["clone", "-q", url, dir]);
    git(dir, ["-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "pushed"]);
    git(dir, ["push", "-q", "origin", "main"]);
    const log = await serverGit(name, ["log", "-1", "--format=%s", "main"]);
    expect(log).toMatchObject({ code: 0, stdout: "pushed\n" });
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
    expect((await serverGit("fixture", ["log", "-1", "--format=%H", "main"])).stdout.trim()).toBe(gitServer().fixture.branches.main);
  });

  it("bad-input routes: /truncated cuts the pack, /hang never answers", async () => {
    expect(() => git(tmp, ["clone", "-q", repoUrl("fixture", "truncated"), join(tmp, "trunc")])).toThrow();
    const started = Date.now();
    const res = await fetch(`${repoUrl("fixture", "hang")}/info/refs?service=git-upload-pack`, { signal: AbortSignal.timeout(500) }).catch(
      (e: unknown) => e,
    );
    expect(res).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});
