/**
 * The `artifacts` command line (spec 04 §3.4): what the shell's `artifacts`
 * built-in and `client.cli()` run. Exit codes: 0 success, 1 the operation
 * failed (or an unknown command), 129 a usage error.
 *
 * @module
 */
import { parseDuration, quote } from "./duration.js";
import { ARTIFACTS_NOT_CONFIGURED_MESSAGE, isNotFound } from "./errors.js";
import { ARTIFACT_NAME_PATTERN } from "./names.js";
import type {
  ArtifactClient,
  ArtifactCreateOptions,
  ArtifactImportOptions,
  ArtifactImportSource,
  ArtifactScope,
  ArtifactsCLIInput,
  ArtifactsCLIResult,
} from "./types.js";

/** Exit code of a usage error (bad argv), as git uses it. */
export const ARTIFACTS_EXIT_USAGE = 129;

type FlagKind = "value" | "boolean";

/** Parsed argv of one command. */
interface Parsed {
  positionals: string[];
  values: Map<string, string>;
  booleans: Set<string>;
}

/** A usage error: `artifacts <sub>: <message>`, exit 129. */
class UsageError extends Error {}

interface Command {
  /** `create`, `repo create`, … */
  path: string;
  /** Synopsis after `artifacts `. */
  synopsis: string;
  /** One line on what it does. */
  summary: string;
  /** Positional placeholders, e.g. `<repo>`, `<id>`. */
  positionals: string[];
  flags: Record<string, FlagKind>;
  run(client: ArtifactClient, args: Parsed, input: ArtifactsCLIInput, sub: string): Promise<ArtifactsCLIResult>;
}

const SCOPE_FLAGS = { scope: "value", ttl: "value" } as const satisfies Record<string, FlagKind>;

const COMMANDS: readonly Command[] = [
  {
    path: "create",
    synopsis:
      "create <name> [--scope read|write] [--ttl <duration>] [--remote <remote>] [--default-branch <branch>] [--description <text>] [--force]",
    summary:
      "Create a repository, mint a token (scope write by default) and register it as git remote <remote> (default <name>); --force reuses an existing repository and replaces the remote.",
    positionals: ["<name>"],
    flags: { ...SCOPE_FLAGS, remote: "value", "default-branch": "value", description: "value", force: "boolean" },
    run: runCreate,
  },
  {
    path: "share",
    synopsis: "share <name> [--scope read|write] [--ttl <duration>]",
    summary: "Print a credentialed clone URL for an existing repository (scope read by default).",
    positionals: ["<name>"],
    flags: { ...SCOPE_FLAGS },
    run: async (client, args) => {
      const [name] = args.positionals;
      const scope = scopeOf(args) ?? "read";
      const ttl = ttlOf(args);
      const info = await client.get(name!);
      const token = await client.createToken(name!, scope, ttl);
      return ok(`${credentialedRemote(info.remote, token.plaintext)}\n`);
    },
  },
  {
    path: "repo create",
    synopsis: "repo create <name> [--description <text>] [--default-branch <branch>] [--read-only]",
    summary: "Create a repository; prints it as JSON, with its first token.",
    positionals: ["<name>"],
    flags: { description: "value", "default-branch": "value", "read-only": "boolean" },
    run: async (client, args) => {
      const opts: ArtifactCreateOptions = {};
      if (args.values.has("description")) opts.description = args.values.get("description")!;
      if (args.values.has("default-branch")) opts.setDefaultBranch = args.values.get("default-branch")!;
      if (args.booleans.has("read-only")) opts.readOnly = true;
      return json(await client.create(args.positionals[0]!, opts));
    },
  },
  {
    path: "repo get",
    synopsis: "repo get <name>",
    summary: "Print a repository's metadata as JSON.",
    positionals: ["<name>"],
    flags: {},
    run: async (client, args) => json(await client.get(args.positionals[0]!)),
  },
  {
    path: "repo list",
    synopsis: "repo list",
    summary: "Print the repositories as a JSON array.",
    positionals: [],
    flags: {},
    run: async (client) => json(await client.list()),
  },
  {
    path: "repo import",
    synopsis: "repo import <name> --url <url> [--branch <branch>] [--depth <n>] [--read-only] [--description <text>]",
    summary: "Copy a git repository from <url> into a new repository; prints it as JSON, with its first token.",
    positionals: ["<name>"],
    flags: { url: "value", branch: "value", depth: "value", "read-only": "boolean", description: "value" },
    run: async (client, args) => {
      const source: ArtifactImportSource = { url: args.values.get("url")! };
      if (args.values.has("branch")) source.branch = args.values.get("branch")!;
      if (args.values.has("depth")) source.depth = Number(args.values.get("depth"));
      const opts: ArtifactImportOptions = {};
      if (args.values.has("description")) opts.description = args.values.get("description")!;
      if (args.booleans.has("read-only")) opts.readOnly = true;
      return json(await client.import(args.positionals[0]!, source, opts));
    },
  },
  {
    path: "repo delete",
    synopsis: "repo delete <name>",
    summary: "Delete a repository and its tokens; prints `Deleted <name>`.",
    positionals: ["<name>"],
    flags: {},
    run: async (client, args, _input, sub) => {
      const [name] = args.positionals;
      if (await client.delete(name!)) return ok(`Deleted ${name}\n`);
      return fail(sub, `no such repo ${quote(String(name))}`);
    },
  },
  {
    path: "token create",
    synopsis: "token create <repo> [--scope read|write] [--ttl <duration>]",
    summary: "Mint a token (the binding's defaults: scope write, 24h); prints it as JSON, plaintext included.",
    positionals: ["<repo>"],
    flags: { ...SCOPE_FLAGS },
    run: async (client, args) => {
      const scope = scopeOf(args);
      const ttl = ttlOf(args);
      return json(await client.createToken(args.positionals[0]!, scope, ttl));
    },
  },
  {
    path: "token list",
    synopsis: "token list <repo>",
    summary: "Print a repository's tokens (metadata, no plaintexts) as JSON.",
    positionals: ["<repo>"],
    flags: {},
    run: async (client, args) => json(await client.listTokens(args.positionals[0]!)),
  },
  {
    path: "token get",
    synopsis: "token get <repo> <id>",
    summary: "Print one token's metadata as JSON.",
    positionals: ["<repo>", "<id>"],
    flags: {},
    run: async (client, args) => json(await client.getToken(args.positionals[0]!, args.positionals[1]!)),
  },
  ...(["revoke", "delete"] as const).map(
    (verb): Command => ({
      path: `token ${verb}`,
      synopsis: `token ${verb} <repo> <id|plaintext>`,
      summary: verb === "revoke" ? "Revoke a token by id or plaintext; prints `Revoked token`." : "Same as token revoke.",
      positionals: ["<repo>", "<id>"],
      flags: {},
      run: async (client, args, _input, sub) => {
        const [repo, token] = args.positionals;
        if (await client.revokeToken(repo!, token!)) return ok("Revoked token\n");
        return fail(sub, `no such token in repo ${quote(String(repo))}`);
      },
    }),
  ),
];

const GROUPS: Readonly<Record<string, string>> = {
  repo: "Manage repositories.",
  token: "Manage a repository's access tokens.",
};

/**
 * Runs the `artifacts` CLI (spec 04 §3.4) against `client`.
 *
 * Commands: `create`, `share`, `repo create|get|list|import|delete`,
 * `token create|list|get|revoke|delete`, `help [topic]` (see
 * docs/artifacts.md for every flag). Options are `--name value` or
 * `--name=value`; `--` ends options; there are no short options. JSON output
 * is `JSON.stringify(value, null, 2) + "\n"`.
 *
 * Exit codes: 0 success (and `help`); 1 an operation failed (`artifacts
 * <sub>: <message>` on stderr), an unknown command, or bare `artifacts` /
 * `artifacts repo` / `artifacts token` (help printed); 129 a usage error
 * (`artifacts <sub>: <message>`: `missing <name>`, `unexpected argument
 * '<x>'`, `unknown option '--f'`, `option '--f' requires a value`, `option
 * '--f' takes no value`, a bad `--scope`, `--ttl` or `--depth`, and for
 * `create` a git remote name git refuses: `invalid --remote '<r>': not a git
 * remote name (<why>)`).
 *
 * `create` leaves only the token it prints active: the write token the
 * binding's `create` returns is revoked once the requested token is minted,
 * and when the remote cannot be registered (nothing is printed) the minted
 * token is revoked too. A revocation that fails is reported on stderr.
 *
 * Never throws: every failure, a throwing client included, becomes a result.
 *
 * @param client - The Artifacts client ({@link ArtifactClient}).
 * @param input - `{ argv, env?, remoteAdd? }`; `remoteAdd` lets `create` register the git remote.
 * @param bindingConfigured - `false` for a Workspace without an Artifacts binding: help says
 *   so and every other command fails with `Workspace Artifacts binding is not configured` (exit 1)
 *   after its arguments are checked. Default `true`.
 * @returns `{ stdout, stderr, exitCode }`.
 */
export async function runArtifactsCLI(
  client: ArtifactClient,
  input: ArtifactsCLIInput,
  bindingConfigured = true,
): Promise<ArtifactsCLIResult> {
  try {
    return await dispatch(client, input, bindingConfigured);
  } catch (error) {
    return fail(undefined, messageOf(error));
  }
}

async function dispatch(client: ArtifactClient, input: ArtifactsCLIInput, bindingConfigured: boolean): Promise<ArtifactsCLIResult> {
  const argv = (input as { argv?: unknown } | null | undefined)?.argv;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
    return usage("artifacts", "argv must be an array of strings");
  }
  const mode: HelpMode = !bindingConfigured ? { kind: "unconfigured" } : sessionMode(client);
  const [first, ...rest] = argv as string[];
  if (first === undefined) return { stdout: mainHelp(mode), stderr: "", exitCode: 1 };
  if (first === "help" || first === "--help" || first === "-h") return helpTopic(mode, rest);
  if (first.startsWith("-")) return usage("artifacts", `unknown option ${quote(first)}`);

  let command: Command | undefined;
  let args: string[];
  if (Object.hasOwn(GROUPS, first)) {
    const [second, ...tail] = rest;
    if (second === undefined) return { stdout: groupHelp(first), stderr: "", exitCode: 1 };
    if (second === "help" || second === "--help" || second === "-h") return helpTopic(mode, [first, ...tail]);
    if (second.startsWith("-")) return usage(`artifacts ${first}`, `unknown option ${quote(second)}`);
    command = COMMANDS.find((c) => c.path === `${first} ${second}`);
    if (command === undefined) {
      return fail(first, `unknown subcommand ${quote(second)}; run 'artifacts ${first} help' for its subcommands`);
    }
    args = tail;
  } else {
    command = COMMANDS.find((c) => c.path === first);
    if (command === undefined) return fail(undefined, `unknown command ${quote(first)}; run 'artifacts help' for the commands`);
    args = rest;
  }

  const sub = command.path;
  let parsed: Parsed;
  try {
    if (args.includes("--help") && args.indexOf("--help") < endOfOptions(args)) {
      return ok(`Usage: artifacts ${command.synopsis}\n\n${command.summary}\n`);
    }
    parsed = parseArgs(command, args);
    checkValues(parsed);
  } catch (error) {
    if (error instanceof UsageError) return usage(`artifacts ${sub}`, error.message);
    throw error;
  }
  if (!bindingConfigured) return fail(sub, ARTIFACTS_NOT_CONFIGURED_MESSAGE);
  try {
    return await command.run(client, parsed, input, sub);
  } catch (error) {
    if (error instanceof UsageError) return usage(`artifacts ${sub}`, error.message);
    return fail(sub, messageOf(error));
  }
}

/**
 * The credentialed form of a remote URL (spec 04 §3.4): the token's secret
 * (plaintext up to the first `?expires=`), `encodeURIComponent`-ed, spliced
 * in as `x:<secret>@` right after `://`. A remote without `://` is returned
 * unchanged. The result is a credential: treat it as a password.
 *
 * @example credentialedRemote("https://a.example/r.git", "tok?expires=1") === "https://x:tok@a.example/r.git"
 */
export function credentialedRemote(remote: string, plaintext: string): string {
  const at = remote.indexOf("://");
  if (at < 0) return remote;
  const cut = plaintext.indexOf("?expires=");
  const secret = cut < 0 ? plaintext : plaintext.slice(0, cut);
  return `${remote.slice(0, at + 3)}x:${encodeURIComponent(secret)}@${remote.slice(at + 3)}`;
}

/**
 * Why `name` cannot be a git remote name, or `undefined` when it can. The
 * rules are git's (`git check-ref-format` of `refs/remotes/<name>/x`, as
 * `git remote add` checks it), plus no leading `-` (it would read as an
 * option): non-empty; no space, control character or any of `~^:?*[\`; no
 * `..`, `//` or `@{`; no leading `-`, `/` or `.`; no component starting
 * with `.` or ending with `.lock`; no trailing `/` or `.`; not `@`.
 */
function remoteNameProblem(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (name.startsWith("-")) return "it starts with '-'";
  if (/[\x00-\x20\x7f]/.test(name)) return "it holds a space or control character";
  const bad = /[~^:?*[\\]/.exec(name);
  if (bad) return `it holds ${quote(bad[0])}`;
  if (name.includes("..")) return "it holds '..'";
  if (name.includes("@{") || name === "@") return "it holds '@{' or is '@'";
  if (name.includes("//") || name.startsWith("/") || name.endsWith("/")) return "it has an empty path component";
  if (name.startsWith(".") || name.includes("/.")) return "a component starts with '.'";
  if (name.endsWith(".") || /\.lock(\/|$)/.test(name)) return "it ends with '.' or a component ends with '.lock'";
  return undefined;
}

async function runCreate(client: ArtifactClient, args: Parsed, input: ArtifactsCLIInput, sub: string): Promise<ArtifactsCLIResult> {
  const [name] = args.positionals as [string];
  const scope = scopeOf(args) ?? "write";
  const ttl = ttlOf(args);
  const remoteName = args.values.get("remote") ?? name;
  const force = args.booleans.has("force");

  let existing: { remote: string; defaultBranch: string } | undefined;
  try {
    existing = await client.get(name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (existing !== undefined && !force) {
    return fail(sub, `repository ${quote(name)} already exists; pass --force to reuse it (a new token is minted and the remote replaced)`);
  }
  let repo = existing;
  // The token the binding's create returns (scope write): never printed, so revoked below.
  let createToken: string | undefined;
  if (repo === undefined) {
    const opts: ArtifactCreateOptions = {};
    if (args.values.has("description")) opts.description = args.values.get("description")!;
    if (args.values.has("default-branch")) opts.setDefaultBranch = args.values.get("default-branch")!;
    const created = await client.create(name, opts);
    repo = created;
    if (typeof created.token === "string" && created.token !== "") createToken = created.token;
  }
  let token: Awaited<ReturnType<ArtifactClient["createToken"]>>;
  try {
    token = await client.createToken(name, scope, ttl);
  } catch (error) {
    const left = await revokeAll(client, name, [createToken]);
    return fail(sub, `${messageOf(error)}${left}`);
  }
  const credentialed = credentialedRemote(repo.remote, token.plaintext);

  let remoteRegistered = false;
  const remoteAdd = input.remoteAdd;
  if (typeof remoteAdd === "function") {
    let outcome: { ok?: unknown; exists?: unknown; message?: unknown } | undefined;
    try {
      outcome = await remoteAdd(force ? { name: remoteName, url: credentialed, force: true } : { name: remoteName, url: credentialed });
    } catch (error) {
      outcome = { ok: false, message: messageOf(error) };
    }
    if (outcome?.ok !== true) {
      // Nothing was printed: revoke every token this run made, so none stays live unseen.
      const left = await revokeAll(client, name, [token.plaintext, createToken]);
      if (outcome?.exists === true && !force) {
        return fail(sub, `git remote ${quote(remoteName)} already exists; pass --force to replace it, or --remote <name> to use another name${left}`);
      }
      const detail = typeof outcome?.message === "string" && outcome.message.trim() !== "" ? `: ${outcome.message.trim()}` : "";
      return fail(sub, `could not register remote ${quote(remoteName)}${detail}${left}`);
    }
    remoteRegistered = true;
  }
  const out: Record<string, unknown> = {
    name,
    remote: repo.remote,
    credentialedRemote: credentialed,
    defaultBranch: repo.defaultBranch,
    gitRemote: remoteName,
    scope: token.scope ?? scope,
    token: token.plaintext,
    tokenExpiresAt: token.expiresAt,
    remoteRegistered,
  };
  if (typeof remoteAdd !== "function") out.remoteAddCommand = `git remote add ${remoteName} ${credentialed}`;
  const left = await revokeAll(client, name, [createToken]);
  const result = json(out);
  if (left !== "") result.stderr = `artifacts ${sub}: warning: ${left.slice(2)}\n`;
  return result;
}

/**
 * Revokes each given token (plaintext) of repository `name`, best effort.
 * Returns `""`, or `"; "` plus a sentence saying how many could not be
 * revoked and how to revoke them (`artifacts token list` / `token revoke`).
 */
async function revokeAll(client: ArtifactClient, name: string, tokens: readonly (string | undefined)[]): Promise<string> {
  let failed = 0;
  for (const token of tokens) {
    if (token === undefined) continue;
    try {
      await client.revokeToken(name, token);
    } catch {
      failed++;
    }
  }
  if (failed === 0) return "";
  return `; ${failed} token${failed === 1 ? "" : "s"} this command minted could not be revoked: find ${failed === 1 ? "it" : "them"} with 'artifacts token list ${name}' and run 'artifacts token revoke ${name} <id>'`;
}

// ---------------------------------------------------------------------------
// argv

function endOfOptions(args: readonly string[]): number {
  const at = args.indexOf("--");
  return at < 0 ? args.length : at;
}

function parseArgs(command: Command, args: readonly string[]): Parsed {
  const parsed: Parsed = { positionals: [], values: new Map(), booleans: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const flag = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const kind = Object.hasOwn(command.flags, flag) ? command.flags[flag] : undefined;
      if (kind === undefined) throw new UsageError(`unknown option ${quote(`--${flag}`)}`);
      if (kind === "boolean") {
        if (eq >= 0) throw new UsageError(`option ${quote(`--${flag}`)} takes no value`);
        parsed.booleans.add(flag);
      } else if (eq >= 0) {
        parsed.values.set(flag, arg.slice(eq + 1));
      } else {
        if (i + 1 >= args.length) throw new UsageError(`option ${quote(`--${flag}`)} requires a value`);
        parsed.values.set(flag, args[++i]!);
      }
      continue;
    }
    if (arg.length > 1 && arg.startsWith("-")) throw new UsageError(`unknown option ${quote(arg)}`);
    parsed.positionals.push(arg);
  }
  const want = command.positionals;
  if (parsed.positionals.length < want.length) throw new UsageError(`missing ${want[parsed.positionals.length]}`);
  if (parsed.positionals.length > want.length) throw new UsageError(`unexpected argument ${quote(String(parsed.positionals[want.length]))}`);
  if (command.path === "repo import" && !parsed.values.has("url")) throw new UsageError("missing --url");
  if (command.path === "create") {
    // A remote git cannot take is a usage error, found before anything is created or minted.
    // The default remote is the repository name: one the client refuses is left to it (EINVALIDNAME, exit 1).
    const remoteName = parsed.values.get("remote") ?? parsed.positionals[0]!;
    const checked = parsed.values.has("remote") || ARTIFACT_NAME_PATTERN.test(remoteName);
    const problem = checked ? remoteNameProblem(remoteName) : undefined;
    if (problem !== undefined) {
      throw new UsageError(
        parsed.values.has("remote")
          ? `invalid --remote ${quote(remoteName)}: not a git remote name (${problem})`
          : `${quote(remoteName)} is not a git remote name (${problem}); pass --remote <remote> to name the git remote`,
      );
    }
  }
  return parsed;
}

/** Checks `--scope`, `--ttl` and `--depth` before anything runs. */
function checkValues(args: Parsed): void {
  scopeOf(args);
  ttlOf(args);
  const depth = args.values.get("depth");
  if (depth !== undefined && (!/^[0-9]+$/.test(depth) || !Number.isSafeInteger(Number(depth)) || Number(depth) < 1)) {
    throw new UsageError(`--depth requires a positive integer (got ${depth.length <= 64 ? `"${depth}"` : quote(depth)})`);
  }
}

function scopeOf(args: Parsed): ArtifactScope | undefined {
  const scope = args.values.get("scope");
  if (scope === undefined || scope === "read" || scope === "write") return scope;
  throw new UsageError(`--scope must be 'read' or 'write' (got ${quote(String(scope))})`);
}

/** `--ttl` in seconds, or `undefined` (the binding's default, 24 h). */
function ttlOf(args: Parsed): number | undefined {
  const ttl = args.values.get("ttl");
  if (ttl === undefined) return undefined;
  try {
    return parseDuration(ttl);
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
}

// ---------------------------------------------------------------------------
// results

function ok(stdout: string): ArtifactsCLIResult {
  return { stdout, stderr: "", exitCode: 0 };
}

function json(value: unknown): ArtifactsCLIResult {
  return ok(`${JSON.stringify(value, null, 2)}\n`);
}

function fail(sub: string | undefined, message: string): ArtifactsCLIResult {
  return { stdout: "", stderr: `artifacts${sub === undefined ? "" : ` ${sub}`}: ${message}\n`, exitCode: 1 };
}

function usage(prefix: string, message: string): ArtifactsCLIResult {
  return { stdout: "", stderr: `${prefix}: ${message}\n`, exitCode: ARTIFACTS_EXIT_USAGE };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  return String(error);
}

// ---------------------------------------------------------------------------
// help

type HelpMode = { kind: "session"; sessionId: string } | { kind: "namespace" } | { kind: "unconfigured" };

function sessionMode(client: ArtifactClient): HelpMode {
  let sessionId: unknown;
  try {
    sessionId = client.sessionId;
  } catch {
    sessionId = undefined;
  }
  return typeof sessionId === "string" ? { kind: "session", sessionId } : { kind: "namespace" };
}

function helpTopic(mode: HelpMode, topic: string[]): ArtifactsCLIResult {
  if (topic.length === 0) return ok(mainHelp(mode));
  const key = topic.join(" ");
  if (topic.length === 1 && Object.hasOwn(GROUPS, topic[0]!)) return ok(groupHelp(topic[0]!));
  const command = COMMANDS.find((c) => c.path === key);
  if (command !== undefined) return ok(`Usage: artifacts ${command.synopsis}\n\n${command.summary}\n`);
  return fail("help", `no help for ${quote(key)}; topics: ${["create", "share", "repo", "token", ...COMMANDS.filter((c) => c.path.includes(" ")).map((c) => c.path)].join(", ")}`);
}

function naming(mode: HelpMode): string {
  const rule =
    "A name starts with a letter or digit and holds only letters, digits, '.', '_' and '-'";
  switch (mode.kind) {
    case "session":
      return (
        `Names are scoped to this session (${mode.sessionId}): repository <name> is stored as\n` +
        `'${mode.sessionId}__<name>', and repo list shows only this session's repositories.\n` +
        `${rule}; '__' is not allowed.\n`
      );
    case "namespace":
      return `Names are used as given, in the binding's whole namespace; repo list shows every repository.\n${rule}.\n`;
    case "unconfigured":
      return (
        "The Artifacts binding is not configured for this Workspace: every command except help fails\n" +
        "(exit 1). Configure it with new Workspace({ storage, artifacts: { binding: env.ARTIFACTS } }).\n" +
        `${rule}.\n`
      );
  }
}

function mainHelp(mode: HelpMode): string {
  const lines = [
    "artifacts: git repositories on Cloudflare Artifacts",
    "",
    "Usage: artifacts <command> [<args>] [--<option> <value>]",
    "",
    naming(mode),
    "Commands:",
    ...COMMANDS.filter((c) => !c.path.includes(" ")).map((c) => `  artifacts ${c.synopsis}\n      ${c.summary}`),
    ...Object.entries(GROUPS).map(
      ([group, summary]) =>
        `  artifacts ${group} ${COMMANDS.filter((c) => c.path.startsWith(`${group} `))
          .map((c) => c.path.slice(group.length + 1))
          .join("|")} ...\n      ${summary} Run 'artifacts ${group} help'.`,
    ),
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
  ];
  return `${lines.join("\n")}\n`;
}

function groupHelp(group: string): string {
  const lines = [
    `Usage: artifacts ${group} <subcommand> [<args>]`,
    "",
    GROUPS[group]!,
    "",
    ...COMMANDS.filter((c) => c.path.startsWith(`${group} `)).map((c) => `  artifacts ${c.synopsis}\n      ${c.summary}`),
  ];
  return `${lines.join("\n")}\n`;
}
