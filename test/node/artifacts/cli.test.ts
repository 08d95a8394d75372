/**
 * `runArtifactsCLI` (spec 04 §3.4), row by row: help and exit codes, flag
 * parsing, the 129 usage errors, every command's output, `create`'s
 * existing-repo and remote-registration outcomes, and the credentialed URL.
 * The binding is the in-memory stand-in (test/shared/artifacts-standin.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createArtifact, runArtifactsCLI, type ArtifactClient } from "../../../src/artifacts/index.js";
import { credentialedRemote } from "../../../src/artifacts/cli.js";
import { unconfiguredArtifacts } from "../../../src/artifacts/unconfigured.js";
import { cleanup, git, gitRemoteAdd, gitRepo, run, standIn } from "./helpers.js";

afterAll(cleanup);

const REMOTE = (stored: string) => `https://artifacts.standin.invalid/standin/${stored}.git`;
const PATTERN = "must start with a letter or digit and contain only letters, digits, '.', '_' and '-'";

function scoped() {
  const binding = standIn();
  return { binding, client: createArtifact(binding, "s1") };
}

const usage = (stderr: string) => ({ stdout: "", stderr: `${stderr}\n`, exitCode: 129 });
const failed = (stderr: string) => ({ stdout: "", stderr: `${stderr}\n`, exitCode: 1 });
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe("help", () => {
  it("help, --help and -h print the help and exit 0; bare artifacts prints it and exits 1", async () => {
    const { client } = scoped();
    const help = await run(client, "help");
    expect(help.exitCode).toBe(0);
    expect(help.stderr).toBe("");
    expect(await run(client, "--help")).toEqual(help);
    expect(await run(client, "-h")).toEqual(help);
    expect(await run(client)).toEqual({ ...help, exitCode: 1 });
  });

  it("the session-mode help: naming rules, commands, exit codes, secrets warning", async () => {
    const { stdout } = await run(scoped().client, "help");
    expect(stdout.split("\n")).toEqual([
      "artifacts: git repositories on Cloudflare Artifacts",
      "",
      "Usage: artifacts <command> [<args>] [--<option> <value>]",
      "",
      "Names are scoped to this session (s1): repository <name> is stored as",
      "'s1__<name>', and repo list shows only this session's repositories.",
      "A name starts with a letter or digit and holds only letters, digits, '.', '_' and '-'; '__' is not allowed.",
      "",
      "Commands:",
      "  artifacts create <name> [--scope read|write] [--ttl <duration>] [--remote <remote>] [--default-branch <branch>] [--description <text>] [--force]",
      "      Create a repository, mint a token (scope write by default) and register it as git remote <remote> (default <name>); --force reuses an existing repository and replaces the remote.",
      "  artifacts share <name> [--scope read|write] [--ttl <duration>]",
      "      Print a credentialed clone URL for an existing repository (scope read by default).",
      "  artifacts repo create|get|list|import|delete ...",
      "      Manage repositories. Run 'artifacts repo help'.",
      "  artifacts token create|list|get|revoke|delete ...",
      "      Manage a repository's access tokens. Run 'artifacts token help'.",
      "  artifacts help [<command>]",
      "      Show help.",
      "",
      "Options are --name <value> or --name=<value>; '--' ends options.",
      "Durations (--ttl): seconds ('3600') or s/m/h/d units ('15m', '2h30m', '1d'); default 24h.",
      "",
      "Exit codes: 0 success; 1 the operation failed; 129 usage error.",
      "",
      "Secrets: create, share, repo create, repo import and token create print tokens and",
      "credentialed URLs. They grant access to the repository: do not log, commit or share them.",
      "",
    ]);
  });

  it("namespace and unconfigured modes say so", async () => {
    const namespace = await run(createArtifact(standIn()), "help");
    expect(namespace.stdout).toContain(
      "Names are used as given, in the binding's whole namespace; repo list shows every repository.\n" +
        "A name starts with a letter or digit and holds only letters, digits, '.', '_' and '-'.\n",
    );
    expect(namespace.stdout).not.toContain("session");
    const unconfigured = await runArtifactsCLI(createArtifact(standIn(), "s1"), { argv: ["help"] }, false);
    expect(unconfigured.exitCode).toBe(0);
    expect(unconfigured.stdout).toContain(
      "The Artifacts binding is not configured for this Workspace: every command except help fails\n" +
        "(exit 1). Configure it with new Workspace({ storage, artifacts: { binding: env.ARTIFACTS } }).\n",
    );
    expect(unconfigured.stdout).not.toContain("(s1)");
  });

  it("repo / token alone print the group help and exit 1; with help, 0", async () => {
    const { client } = scoped();
    const repo = await run(client, "repo");
    expect(repo.exitCode).toBe(1);
    expect(repo.stdout.split("\n").slice(0, 5)).toEqual([
      "Usage: artifacts repo <subcommand> [<args>]",
      "",
      "Manage repositories.",
      "",
      "  artifacts repo create <name> [--description <text>] [--default-branch <branch>] [--read-only]",
    ]);
    expect(await run(client, "repo", "help")).toEqual({ ...repo, exitCode: 0 });
    expect(await run(client, "repo", "--help")).toEqual({ ...repo, exitCode: 0 });
    expect(await run(client, "help", "repo")).toEqual({ ...repo, exitCode: 0 });
    const token = await run(client, "token");
    expect(token.exitCode).toBe(1);
    expect(token.stdout).toContain("  artifacts token revoke <repo> <id|plaintext>\n");
    expect(token.stdout).toContain("  artifacts token delete <repo> <id|plaintext>\n      Same as token revoke.\n");
  });

  it("a command's --help and help <command> print its usage, exit 0", async () => {
    const { client } = scoped();
    const expected = {
      stdout: "Usage: artifacts share <name> [--scope read|write] [--ttl <duration>]\n\nPrint a credentialed clone URL for an existing repository (scope read by default).\n",
      stderr: "",
      exitCode: 0,
    };
    expect(await run(client, "share", "--help")).toEqual(expected);
    expect(await run(client, "help", "share")).toEqual(expected);
    expect((await run(client, "help", "token", "get")).stdout).toBe("Usage: artifacts token get <repo> <id>\n\nPrint one token's metadata as JSON.\n");
    expect((await run(client, "help", "nope")).exitCode).toBe(1);
  });
});

describe("unknown commands → 1", () => {
  it.each([
    [["frob"], "artifacts: unknown command 'frob'; run 'artifacts help' for the commands"],
    [["toString"], "artifacts: unknown command 'toString'; run 'artifacts help' for the commands"],
    [["repo", "frob"], "artifacts repo: unknown subcommand 'frob'; run 'artifacts repo help' for its subcommands"],
    [["token", "show"], "artifacts token: unknown subcommand 'show'; run 'artifacts token help' for its subcommands"],
  ])("%j", async (argv, stderr) => {
    expect(await run(scoped().client, ...argv)).toEqual(failed(stderr));
  });
});

describe("argv errors → 129", () => {
  it.each([
    [["create"], "artifacts create: missing <name>"],
    [["share"], "artifacts share: missing <name>"],
    [["repo", "create"], "artifacts repo create: missing <name>"],
    [["repo", "get"], "artifacts repo get: missing <name>"],
    [["repo", "import"], "artifacts repo import: missing <name>"],
    [["repo", "delete"], "artifacts repo delete: missing <name>"],
    [["token", "create"], "artifacts token create: missing <repo>"],
    [["token", "list"], "artifacts token list: missing <repo>"],
    [["token", "get"], "artifacts token get: missing <repo>"],
    [["token", "get", "notes"], "artifacts token get: missing <id>"],
    [["token", "revoke", "notes"], "artifacts token revoke: missing <id>"],
    [["token", "delete"], "artifacts token delete: missing <repo>"],
    [["repo", "import", "x"], "artifacts repo import: missing --url"],
    [["repo", "list", "extra"], "artifacts repo list: unexpected argument 'extra'"],
    [["create", "a", "b"], "artifacts create: unexpected argument 'b'"],
    [["token", "get", "a", "b", "c"], "artifacts token get: unexpected argument 'c'"],
    [["create", "a", "--bogus"], "artifacts create: unknown option '--bogus'"],
    [["repo", "get", "a", "--scope", "read"], "artifacts repo get: unknown option '--scope'"],
    [["create", "a", "-f"], "artifacts create: unknown option '-f'"],
    [["create", "a", "--force=yes"], "artifacts create: option '--force' takes no value"],
    [["repo", "create", "a", "--read-only="], "artifacts repo create: option '--read-only' takes no value"],
    [["share", "a", "--ttl"], "artifacts share: option '--ttl' requires a value"],
    [["share", "a", "--scope", "admin"], "artifacts share: --scope must be 'read' or 'write' (got 'admin')"],
    [["token", "create", "a", "--scope=READ"], "artifacts token create: --scope must be 'read' or 'write' (got 'READ')"],
    [["create", "a", "--ttl", "1.5h"], "artifacts create: invalid duration '1.5h'"],
    [["create", "a", "--ttl=0"], "artifacts create: duration must be positive (got '0')"],
    [["token", "create", "a", "--ttl", "5w"], "artifacts token create: unknown duration unit 'w' in '5w'"],
    [["share", "a", "--ttl", ""], "artifacts share: empty duration"],
    [["repo", "import", "a", "--url", "u", "--depth", "0"], 'artifacts repo import: --depth requires a positive integer (got "0")'],
    [["repo", "import", "a", "--url", "u", "--depth=1.5"], 'artifacts repo import: --depth requires a positive integer (got "1.5")'],
    [["repo", "import", "a", "--url", "u", "--depth", "-3"], 'artifacts repo import: --depth requires a positive integer (got "-3")'],
    [["--version"], "artifacts: unknown option '--version'"],
  ])("%j", async (argv, stderr) => {
    const { binding, client } = scoped();
    expect(await run(client, ...argv)).toEqual(usage(stderr));
    expect(binding.calls).toEqual([]);
  });

  it("argv that is not an array of strings is a usage error, not a crash", async () => {
    const { client } = scoped();
    expect(await client.cli({ argv: "create x" as never })).toEqual(usage("artifacts: argv must be an array of strings"));
    expect(await client.cli({ argv: ["create", 5] as never })).toEqual(usage("artifacts: argv must be an array of strings"));
    expect(await runArtifactsCLI(client, null as never)).toEqual(usage("artifacts: argv must be an array of strings"));
  });

  it("argv errors come first in unconfigured mode too", async () => {
    const client = unconfiguredArtifacts();
    expect(await run(client, "create")).toEqual(usage("artifacts create: missing <name>"));
    expect(await run(client, "create", "x")).toEqual(failed("artifacts create: Workspace Artifacts binding is not configured"));
    expect(await run(client, "token", "list", "x")).toEqual(failed("artifacts token list: Workspace Artifacts binding is not configured"));
  });
});

describe("flag syntax", () => {
  it("--flag value and --flag=value are the same; the last one wins", async () => {
    const { binding, client } = scoped();
    await client.create("notes");
    await run(client, "token", "create", "notes", "--scope", "read", "--ttl", "1h");
    await run(client, "token", "create", "notes", "--scope=read", "--ttl=1h");
    await run(client, "token", "create", "notes", "--scope=write", "--scope", "read", "--ttl", "1h");
    const creates = binding.calls.filter((c) => c.method === "repo.createToken").map((c) => c.args);
    expect(creates).toEqual([
      ["s1__notes", "read", 3600],
      ["s1__notes", "read", 3600],
      ["s1__notes", "read", 3600],
    ]);
  });

  it("-- ends the options: what follows is positional", async () => {
    const { binding, client } = scoped();
    expect(await run(client, "repo", "delete", "--", "-x")).toEqual(failed(`artifacts repo delete: invalid repository name '-x': ${PATTERN}`));
    expect(await run(client, "repo", "get", "--", "--help")).toEqual(
      failed(`artifacts repo get: invalid repository name '--help': ${PATTERN}`),
    );
    expect(binding.calls).toEqual([]);
  });

  it("a value may look like an option when it follows its flag", async () => {
    const { client } = scoped();
    const out = await run(client, "repo", "create", "notes", "--description", "--not-a-flag");
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).description).toBe("--not-a-flag");
  });
});

describe("repo commands", () => {
  it("repo create / get / list print JSON; names are the caller's", async () => {
    const { binding, client } = scoped();
    const created = await run(client, "repo", "create", "notes", "--description", "My notes", "--default-branch", "trunk", "--read-only");
    expect(created.exitCode).toBe(0);
    expect(binding.calls[0]).toEqual({
      method: "create",
      args: ["s1__notes", { description: "My notes", setDefaultBranch: "trunk", readOnly: true }],
    });
    const value = JSON.parse(created.stdout);
    expect(created.stdout).toBe(json(value));
    expect(value).toEqual({
      id: value.id,
      name: "notes",
      description: "My notes",
      defaultBranch: "trunk",
      remote: REMOTE("s1__notes"),
      token: value.token,
      tokenExpiresAt: "2026-01-02T00:00:00.000Z",
    });

    const info = {
      id: value.id,
      name: "notes",
      description: "My notes",
      defaultBranch: "trunk",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      lastPushAt: null,
      source: null,
      readOnly: true,
      remote: REMOTE("s1__notes"),
    };
    expect(await run(client, "repo", "get", "notes")).toEqual({ stdout: json(info), stderr: "", exitCode: 0 });
    const { remote: _r, ...summary } = info;
    expect(await run(client, "repo", "list")).toEqual({ stdout: json([summary]), stderr: "", exitCode: 0 });
  });

  it("repo list of nothing is []", async () => {
    expect(await run(scoped().client, "repo", "list")).toEqual({ stdout: "[]\n", stderr: "", exitCode: 0 });
  });

  it("repo import passes url, branch, depth, read-only and description", async () => {
    const { binding, client } = scoped();
    const out = await run(client, "repo", "import", "copy", "--url", "https://example.com/r.git", "--branch", "dev", "--depth", "3", "--read-only", "--description=d");
    expect(out.exitCode).toBe(0);
    expect(binding.calls[0]).toEqual({
      method: "import",
      args: [{ source: { url: "https://example.com/r.git", branch: "dev", depth: 3 }, target: { name: "s1__copy", opts: { description: "d", readOnly: true } } }],
    });
    expect(JSON.parse(out.stdout)).toMatchObject({ name: "copy", defaultBranch: "dev", remote: REMOTE("s1__copy") });
  });

  it("repo delete → Deleted <name>, then 1 no such repo", async () => {
    const { client } = scoped();
    await client.create("notes");
    expect(await run(client, "repo", "delete", "notes")).toEqual({ stdout: "Deleted notes\n", stderr: "", exitCode: 0 });
    expect(await run(client, "repo", "delete", "notes")).toEqual(failed("artifacts repo delete: no such repo 'notes'"));
  });

  it("operation errors → 1 with the sub-command and message", async () => {
    const { client } = scoped();
    expect(await run(client, "repo", "get", "absent")).toEqual(failed("artifacts repo get: Repository not found: s1__absent."));
    expect(await run(client, "repo", "create", "a__b")).toEqual(
      failed("artifacts repo create: invalid repository name 'a__b': must not contain '__' (it separates the session id from the name) in a session-scoped client"),
    );
    await client.create("dup");
    expect(await run(client, "repo", "create", "dup")).toEqual(failed("artifacts repo create: repo already exists: s1__dup"));
  });
});

describe("token commands", () => {
  it("token create (binding default scope, or --scope/--ttl), list, get", async () => {
    const { binding, client } = scoped();
    await client.create("notes");
    const first = await run(client, "token", "create", "notes");
    expect(binding.calls.at(-1)).toEqual({ method: "repo.createToken", args: ["s1__notes", "write", 86_400] });
    const minted = JSON.parse(first.stdout);
    expect(first).toEqual({ stdout: json(minted), stderr: "", exitCode: 0 });
    expect(Object.keys(minted)).toEqual(["id", "plaintext", "scope", "expiresAt"]);
    expect(minted).toMatchObject({ scope: "write", expiresAt: "2026-01-02T00:00:00.000Z" });

    const second = JSON.parse((await run(client, "token", "create", "notes", "--scope", "read", "--ttl", "2h30m")).stdout);
    expect(second).toMatchObject({ scope: "read", expiresAt: "2026-01-01T02:30:00.000Z" });

    const listed = await run(client, "token", "list", "notes");
    const tokens = JSON.parse(listed.stdout);
    expect(listed.stdout).toBe(json(tokens));
    expect(tokens.total).toBe(3);
    expect(tokens.tokens.map((t: { id: string }) => t.id).slice(1)).toEqual([minted.id, second.id]);

    expect(await run(client, "token", "get", "notes", second.id)).toEqual({
      stdout: json({ id: second.id, scope: "read", state: "active", createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-01T02:30:00.000Z" }),
      stderr: "",
      exitCode: 0,
    });
    expect(await run(client, "token", "get", "notes", "tok_nope")).toEqual(failed("artifacts token get: no such token 'tok_nope' in repo 'notes'"));
  });

  it("a ttl the binding refuses is an operation error (1)", async () => {
    const { client } = scoped();
    await client.create("notes");
    expect(await run(client, "token", "create", "notes", "--ttl", "30")).toEqual(
      failed("artifacts token create: Invalid TTL 30: must be between 60 and 31536000 seconds."),
    );
  });

  it.each(["revoke", "delete"])("token %s by plaintext or id → Revoked token, then 1", async (verb) => {
    const { client } = scoped();
    await client.create("notes");
    const a = await client.createToken("notes");
    const b = await client.createToken("notes");
    expect(await run(client, "token", verb, "notes", a.plaintext)).toEqual({ stdout: "Revoked token\n", stderr: "", exitCode: 0 });
    expect(await run(client, "token", verb, "notes", b.id)).toEqual({ stdout: "Revoked token\n", stderr: "", exitCode: 0 });
    // The plaintext is a secret: the failure does not echo it.
    expect(await run(client, "token", verb, "notes", a.plaintext)).toEqual(failed(`artifacts token ${verb}: no such token in repo 'notes'`));
    expect((await client.getToken("notes", a.id)).state).toBe("revoked");
  });
});

describe("share", () => {
  it("prints the credentialed URL of a fresh read token (default scope read)", async () => {
    const { binding, client } = scoped();
    await client.create("notes");
    const out = await run(client, "share", "notes", "--ttl", "15m");
    expect(out.exitCode).toBe(0);
    expect(binding.calls.at(-1)).toEqual({ method: "repo.createToken", args: ["s1__notes", "read", 900] });
    const match = /^https:\/\/x:(art_v2_x_[0-9a-f]{40})@artifacts\.standin\.invalid\/standin\/s1__notes\.git\n$/.exec(out.stdout);
    expect(match).not.toBeNull();
    const { tokens } = await client.listTokens("notes");
    expect(tokens.at(-1)).toMatchObject({ scope: "read", expiresAt: "2026-01-01T00:15:00.000Z" });
    // The URL's secret is the token: revoking by it works.
    expect(await client.revokeToken("notes", match![1]!)).toBe(true);
    expect(JSON.parse((await run(client, "token", "list", "notes")).stdout).tokens.at(-1).state).toBe("revoked");
  });

  it("--scope write; an absent repository → 1 and no token minted", async () => {
    const { binding, client } = scoped();
    await client.create("notes");
    await run(client, "share", "notes", "--scope", "write");
    expect(binding.calls.at(-1)).toEqual({ method: "repo.createToken", args: ["s1__notes", "write", 86_400] });
    const before = binding.calls.length;
    expect(await run(client, "share", "absent")).toEqual(failed("artifacts share: Repository not found: s1__absent."));
    expect(binding.calls.slice(before).map((c) => c.method)).toEqual(["get"]);
  });
});

describe("create", () => {
  it("without a remoteAdd seam: creates, mints, prints remoteAddCommand", async () => {
    const { binding, client } = scoped();
    const out = await run(client, "create", "notes", "--description", "d", "--default-branch", "trunk", "--ttl", "1h");
    expect(out.exitCode).toBe(0);
    expect(binding.calls.map((c) => [c.method, ...c.args])).toEqual([
      ["get", "s1__notes"],
      ["create", "s1__notes", { description: "d", setDefaultBranch: "trunk" }],
      ["get", "s1__notes"],
      ["repo.createToken", "s1__notes", "write", 3600],
      // The binding's create token (never printed) is revoked: only the printed token stays active.
      ["get", "s1__notes"],
      ["repo.revokeToken", "s1__notes", expect.stringMatching(/^art_v2_x_[0-9a-f]{40}\?expires=/)],
    ]);
    expect((await client.listTokens("notes")).tokens.map((t) => [t.scope, t.state])).toEqual([
      ["write", "revoked"],
      ["write", "active"],
    ]);
    const value = JSON.parse(out.stdout);
    const secret = value.token.slice(0, value.token.indexOf("?expires="));
    const credentialed = `https://x:${secret}@artifacts.standin.invalid/standin/s1__notes.git`;
    expect(out.stdout).toBe(
      json({
        name: "notes",
        remote: REMOTE("s1__notes"),
        credentialedRemote: credentialed,
        defaultBranch: "trunk",
        gitRemote: "notes",
        scope: "write",
        token: `${secret}?expires=1767229200`,
        tokenExpiresAt: "2026-01-01T01:00:00.000Z",
        remoteRegistered: false,
        remoteAddCommand: `git remote add notes ${credentialed}`,
      }),
    );
    expect(await client.revokeToken("notes", value.token)).toBe(true);
  });

  it("an existing repository without --force → 1 mentioning --force; with --force it is reused", async () => {
    const { binding, client } = scoped();
    await client.create("notes", { setDefaultBranch: "dev" });
    expect(await run(client, "create", "notes")).toEqual(
      failed("artifacts create: repository 'notes' already exists; pass --force to reuse it (a new token is minted and the remote replaced)"),
    );
    binding.calls.length = 0;
    const out = await run(client, "create", "notes", "--force", "--scope", "read", "--remote", "origin");
    expect(out.exitCode).toBe(0);
    expect(binding.calls.map((c) => c.method)).toEqual(["get", "repo.info", "get", "repo.createToken"]);
    expect(JSON.parse(out.stdout)).toMatchObject({ name: "notes", defaultBranch: "dev", gitRemote: "origin", scope: "read", remoteRegistered: false });
    expect(JSON.parse(out.stdout).remoteAddCommand).toMatch(/^git remote add origin https:\/\/x:art_v2_x_[0-9a-f]{40}@artifacts\.standin\.invalid\//);
  });

  it("binding errors other than NOT_FOUND stop create (1)", async () => {
    const { binding, client } = scoped();
    const broken = Object.assign(Object.create(binding) as typeof binding, {
      get: async () => {
        throw Object.assign(new Error("service unavailable"), { code: "INTERNAL_ERROR" });
      },
    });
    expect(await run(createArtifact(broken, "s1"), "create", "notes")).toEqual(failed("artifacts create: service unavailable"));
  });

  it("remoteAdd seam, real git: registers the credentialed URL; an existing remote needs --force; failures are reported", async () => {
    const { client } = scoped();
    const dir = gitRepo();
    const remoteAdd = gitRemoteAdd(dir);

    const first = await client.cli({ argv: ["create", "notes"], remoteAdd });
    expect(first.exitCode).toBe(0);
    const value = JSON.parse(first.stdout);
    expect(value).toMatchObject({ gitRemote: "notes", remoteRegistered: true });
    expect(value).not.toHaveProperty("remoteAddCommand");
    expect(git(dir, "remote", "get-url", "notes").stdout).toBe(`${value.credentialedRemote}\n`);

    // The remote exists (a second repository, same remote name): 1, mentioning --force.
    expect(await client.cli({ argv: ["create", "other", "--remote", "notes"], remoteAdd })).toEqual(
      failed("artifacts create: git remote 'notes' already exists; pass --force to replace it, or --remote <name> to use another name"),
    );
    // --force replaces it (and reuses the existing repository).
    const forced = await client.cli({ argv: ["create", "notes", "--force"], remoteAdd });
    expect(forced.exitCode).toBe(0);
    const replaced = JSON.parse(forced.stdout);
    expect(replaced.remoteRegistered).toBe(true);
    expect(replaced.credentialedRemote).not.toBe(value.credentialedRemote);
    expect(git(dir, "remote", "get-url", "notes").stdout).toBe(`${replaced.credentialedRemote}\n`);

    // A name git refuses is a usage error (129), before anything is created or minted.
    expect(await client.cli({ argv: ["create", "third", "--remote", "bad..name"], remoteAdd })).toEqual({
      stdout: "",
      stderr: "artifacts create: invalid --remote 'bad..name': not a git remote name (it holds '..')\n",
      exitCode: 129,
    });
    expect(await client.list().then((repos) => repos.map((r) => r.name).sort())).toEqual(["notes", "other"]);
  });

  it("remoteAdd seam outcomes: exists with --force, a failure without message, a throwing seam", async () => {
    const { client } = scoped();
    const seen: unknown[] = [];
    const answer = (result: { ok: boolean; exists?: boolean; message?: string }) => async (remote: unknown) => {
      seen.push(remote);
      return result;
    };
    const out = await client.cli({ argv: ["create", "a", "--force"], remoteAdd: answer({ ok: false, exists: true }) });
    expect(out).toEqual(failed("artifacts create: could not register remote 'a'"));
    expect(seen[0]).toMatchObject({ name: "a", force: true });
    expect(await client.cli({ argv: ["create", "b"], remoteAdd: answer({ ok: false }) })).toEqual(failed("artifacts create: could not register remote 'b'"));
    expect(seen[1]).not.toHaveProperty("force");
    const throwing = async () => {
      throw new Error("git exploded");
    };
    expect(await client.cli({ argv: ["create", "c"], remoteAdd: throwing })).toEqual(failed("artifacts create: could not register remote 'c': git exploded"));
  });

  it("namespace mode: names are stored as given", async () => {
    const binding = standIn();
    const client = createArtifact(binding);
    const out = await run(client, "create", "team__notes");
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ name: "team__notes", remote: REMOTE("team__notes"), gitRemote: "team__notes" });
    expect(binding.names()).toEqual(["team__notes"]);
  });
});

describe("credentialed URL", () => {
  it.each([
    ["https://h.example/r.git", "tok?expires=1767229200", "https://x:tok@h.example/r.git"],
    ["https://h.example/r.git", "plain", "https://x:plain@h.example/r.git"],
    ["https://h.example/r.git", "a/b+c d@e:f?expires=1", "https://x:a%2Fb%2Bc%20d%40e%3Af@h.example/r.git"],
    ["https://h.example/r.git", "a?x=1?expires=2?expires=3", "https://x:a%3Fx%3D1@h.example/r.git"],
    ["http://127.0.0.1:8080/git/r.git", "s", "http://x:s@127.0.0.1:8080/git/r.git"],
    ["git@h.example:r.git", "tok?expires=1", "git@h.example:r.git"],
  ])("%s + %s → %s", (remote, plaintext, expected) => {
    expect(credentialedRemote(remote, plaintext)).toBe(expected);
  });
});

describe("a client that misbehaves never crashes the CLI", () => {
  it("a thrown non-Error and a throwing sessionId getter", async () => {
    const client = {
      get sessionId(): string {
        throw new Error("boom");
      },
      get: () => {
        throw "plain string";
      },
    } as unknown as ArtifactClient;
    expect((await runArtifactsCLI(client, { argv: ["help"] })).exitCode).toBe(0);
    expect(await runArtifactsCLI(client, { argv: ["repo", "get", "x"] })).toEqual(failed("artifacts repo get: plain string"));
  });
});
