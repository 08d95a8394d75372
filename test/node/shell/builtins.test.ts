/**
 * The seams the git and artifacts issues plug into (spec 02 §6):
 * `defineGitCommand` / `defineArtifactsCommand` / `defineAssetsCommand` make
 * just-bash commands over a host; here a stand-in host answers, inside a real
 * just-bash shell, with arguments, cwd, pipes and exit codes checked.
 */
import { Bash } from "just-bash";
import { expect, it } from "vitest";
import { defineArtifactsCommand, defineAssetsCommand, defineGitCommand, parseExpiry } from "../../../src/backends/worker-shell/index.js";

it("git runs the host's CLI with its arguments and the shell's cwd; output pipes; the exit code is kept", async () => {
  const seen: [string[], string][] = [];
  const git = defineGitCommand({
    async git(args, cwd) {
      seen.push([args, cwd]);
      if (args[0] === "log") return { stdout: "abc123 first\ndef456 second\n", stderr: "", exitCode: 0 };
      return { stdout: "", stderr: `git: '${args[0]}' is not a git command\n`, exitCode: 128 };
    },
  });
  const bash = new Bash({ customCommands: [git as never], cwd: "/repo", defenseInDepth: false });
  await bash.fs.mkdir("/repo/sub", { recursive: true });
  const r = await bash.exec('cd sub && git log --oneline "two words" | wc -l; git frob; echo "rc=$?"');
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["2\nrc=128\n", "git: 'frob' is not a git command\n", 0]);
  expect(seen).toEqual([
    [["log", "--oneline", "two words"], "/repo/sub"],
    [["frob"], "/repo/sub"],
  ]);
});

it("artifacts and git turn a host failure into name: message (exit 1); artifacts says ENOCONFIG as not configured, git prints the host's message", async () => {
  const artifacts = defineArtifactsCommand({
    async artifacts() {
      throw Object.assign(new Error("remote said no"), { code: "EIO" });
    },
  });
  const git = defineGitCommand({
    async git() {
      throw Object.assign(new Error("git is not configured on this Workspace"), { code: "ENOCONFIG" });
    },
  });
  const bash = new Bash({ customCommands: [artifacts as never, git as never], defenseInDepth: false });
  const r = await bash.exec("artifacts create x; echo a=$?; git status; echo g=$?");
  expect([r.stdout, r.stderr]).toEqual(["a=1\ng=1\n", "artifacts: remote said no\ngit: git is not configured on this Workspace\n"]);
});

it("assets resolves the path against the shell's cwd (., .., //) and parses the expiry grammar", async () => {
  const published: [string, number][] = [];
  const assets = defineAssetsCommand({
    async publish(path, ms) {
      published.push([path, ms]);
      return `https://example.test${path}`;
    },
  });
  const bash = new Bash({ customCommands: [assets as never], cwd: "/w/a", defenseInDepth: false });
  await bash.fs.mkdir("/w/a", { recursive: true });
  const r = await bash.exec("assets publish ../b/./c.txt 5m; assets publish //x//y 250; assets publish ../../../../z 2h");
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["https://example.test/w/b/c.txt\nhttps://example.test/x/y\nhttps://example.test/z\n", "", 0]);
  expect(published).toEqual([
    ["/w/b/c.txt", 300_000],
    ["/x/y", 250],
    ["/z", 7_200_000],
  ]);
  expect([parseExpiry("1"), parseExpiry("10ms"), parseExpiry("2s"), parseExpiry("0"), parseExpiry("1d"), parseExpiry("-1"), parseExpiry(" 1"), parseExpiry("99999999999999999h")]).toEqual([
    1, 10, 2000, undefined, undefined, undefined, undefined, undefined,
  ]);
});
