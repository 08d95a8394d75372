/**
 * `ws:artifacts` (spec 02 §4.5, spec 04 §3.5): the Workspace's Artifacts
 * repositories, callable from isolate code. `createArtifactsModule()` makes
 * the host-module factory; every call runs in the host (the Durable Object)
 * on `workspace.artifacts`, so it uses the Workspace's binding and session
 * scope (spec 04 §3.3).
 *
 * ```ts
 * import { createArtifactsModule } from "agent-computer/modules/artifacts";
 *
 * new Workspace({
 *   storage: ctx.storage,
 *   artifacts: { binding: env.ARTIFACTS },
 *   backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:artifacts": createArtifactsModule() } })],
 * });
 * // in the isolate:
 * import { create, share } from "ws:artifacts";
 * await create("notes", { description: "meeting notes" });
 * const url = await share("notes", { ttl: "15m" }); // a read-only clone URL with a token inside
 * ```
 *
 * @module
 */
import type { ArtifactClient, ArtifactCreateOptions, ArtifactImportOptions, ArtifactImportSource, ArtifactScope } from "../artifacts/types.js";
import { parseDuration } from "../artifacts/duration.js";
import { credentialedRemote } from "../artifacts/cli.js";
import type { WorkspaceRuntimeValue } from "../runtime/types.js";
import { quoteCut } from "../util/cut.js";
import { atMostOnce, lostCallError, markAtMostOnce } from "./replay.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunction, WorkspaceModuleHost } from "./types.js";

/** Options of {@link createArtifactsModule} (spec 04 §3.5). */
export interface ArtifactsModuleOptions {
  /**
   * Lets isolate code call `importArtifact`, which has the Artifacts
   * service fetch a repository from a URL. Default `false` (the call rejects
   * `Artifacts import requires createArtifactsModule({ allowNetwork: true }).`).
   */
  allowNetwork?: boolean;
}

/** What `importArtifact` rejects without `allowNetwork` (spec 04 §3.5), word for word. */
export const ARTIFACTS_IMPORT_NETWORK_MESSAGE = "Artifacts import requires createArtifactsModule({ allowNetwork: true }).";

/** `<op> requires Workspace write access.` (spec 04 §3.5), `code` `EROFS`. */
function writeAccessError(op: string): Error {
  return Object.assign(new Error(`${op} requires Workspace write access.`), { code: "EROFS" });
}

function isPlainObject(value: unknown): value is Record<string, WorkspaceRuntimeValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function kind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** `args[i]`, with `null` (isolate `undefined`) read as absent. */
function arg(args: readonly WorkspaceRuntimeValue[], i: number): WorkspaceRuntimeValue | undefined {
  const value = args[i];
  return value === null ? undefined : value;
}

/** At most `max` arguments, else `TypeError` `<fn> takes at most <max> arguments, got <n>`. */
function arity(fn: string, args: readonly WorkspaceRuntimeValue[], max: number): void {
  if (args.length > max) throw new TypeError(`${fn} takes at most ${max} argument${max === 1 ? "" : "s"}, got ${args.length}`);
}

/** A non-empty string name, else `TypeError` `<fn>: name must be a non-empty string, got …`. */
function stringName(fn: string, value: WorkspaceRuntimeValue | undefined): string {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${fn}: name must be a non-empty string (the repository name), got ${typeof value === "string" ? '""' : kind(value)}`);
  }
  return value;
}

/** `read` or `write`; absent → `read` (spec 04 §3.5: this module mints read tokens unless asked). */
function scopeOf(fn: string, value: WorkspaceRuntimeValue | undefined): ArtifactScope {
  if (value === undefined) return "read";
  if (value === "read" || value === "write") return value;
  throw new TypeError(`${fn}: scope must be "read" or "write", got ${typeof value === "string" ? quoteCut(value) : kind(value)}`);
}

/**
 * A token lifetime in seconds: a positive integer, or a duration string
 * (`"15m"`, `"2h30m"`, `"3600"`; spec 04 §3.5). Absent → `undefined` (the
 * binding's default, 86400 s).
 * @throws TypeError `<fn>: ttl …` otherwise.
 */
function ttlOf(fn: string, value: WorkspaceRuntimeValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") {
    if (Number.isSafeInteger(value) && value > 0) return value;
    throw new TypeError(`${fn}: ttl must be a positive integer number of seconds or a duration such as "15m", got ${value}`);
  }
  if (typeof value === "string") {
    try {
      return parseDuration(value);
    } catch (error) {
      throw new TypeError(`${fn}: ttl ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new TypeError(`${fn}: ttl must be a positive integer number of seconds or a duration such as "15m", got ${kind(value)}`);
}

/** An options object with only `keys`, each checked by `check`; absent → `{}`. */
function optionsOf(fn: string, what: string, value: WorkspaceRuntimeValue | undefined, keys: Record<string, "string" | "boolean" | "number">): Record<string, string | boolean | number> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new TypeError(`${fn}: ${what} must be an object, got ${kind(value)}`);
  const out: Record<string, string | boolean | number> = {};
  for (const [key, v] of Object.entries(value)) {
    const type = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (type === undefined) throw new TypeError(`${fn}: unknown ${what} key ${quoteCut(key)}; known: ${Object.keys(keys).join(", ")}`);
    if (v === null) continue;
    if (typeof v !== type) throw new TypeError(`${fn}: ${what}.${key} must be a ${type}, got ${kind(v)}`);
    out[key] = v as string | boolean | number;
  }
  return out;
}

function checkAborted(ctx: WorkspaceModuleCallContext): void {
  if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("the call was aborted");
}

/** The EEXEC_LOST rejection of a changing call resumed after an interruption (it is not run again). */
function notRepeated(op: string, id: string): Error {
  return lostCallError(
    `ws:artifacts ${op}: this call was in flight when the run was interrupted (call "${id}"), and the Artifacts service may have made its change; it is not run again. Call get() or list() to see what happened.`,
  );
}

/** A plain JSON copy of what the client returned (drops `undefined`, class prototypes, RPC stubs). */
function plain<T>(value: T): T {
  return value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T);
}

/** The `ws:artifacts` description the JavaScript backend shows the model. */
function describeArtifactsModule(allowNetwork: boolean): string {
  const lines = [
    "Artifacts: git repositories hosted by Cloudflare Artifacts, run by the host with this Workspace's binding and session scope. Exports:",
    "- `create(name, { description?, readOnly?, setDefaultBranch? })` creates a repository → `{ id, name, description, defaultBranch, remote, token, tokenExpiresAt }` (needs write access).",
    "- `get(name)` → `{ id, name, description, defaultBranch, createdAt, updatedAt, lastPushAt, source, readOnly, remote }`.",
    "- `list()` → every repository, as `get` without `remote`.",
    "- `importArtifact(name, { url, branch?, depth? }, { description?, readOnly? })` creates a repository from a git URL (needs write access).",
    "- `deleteArtifact(name)` → `true` when it existed (needs write access).",
    '- `createToken(name, scope = "read", ttl?)` mints a token → `{ id, plaintext, scope, expiresAt }`; a `"write"` token needs write access. `ttl`: seconds, or a duration such as `"15m"` or `"2h30m"`.',
    '- `share(name, { scope = "read", ttl? })` → the repository\'s clone URL with a new token inside.',
    "The URL `share` returns, and every token, is a credential: anyone holding it can read (or, for write, push to) the repository until it expires. Do not print it where others can read it.",
  ];
  if (!allowNetwork) lines.push("`importArtifact` is not allowed here (the module was created without allowNetwork).");
  return lines.join("\n");
}

/**
 * Makes the `ws:artifacts` host module (spec 02 §4.5, spec 04 §3.5),
 * exporting, each on `workspace.artifacts`:
 *
 * - `create(name, opts?)` → the created repository (its `token` included);
 * - `get(name)` → its info; `list()` → every repository's summary;
 * - `importArtifact(name, source, opts?)` → the created repository;
 * - `deleteArtifact(name)` → `true` when it existed;
 * - `createToken(name, scope = "read", ttl?)` → `{ id, plaintext, scope, expiresAt }`;
 * - `share(name, { scope = "read", ttl? })` → the credentialed clone URL
 *   (the token's secret spliced in as `x:<secret>@`).
 *
 * Rules, checked in this order before the binding is called:
 * - arguments: every function taking a `name` needs a non-empty string
 *   (`create: name must be a non-empty string (the repository name), got
 *   null`; spec 04 §3.5 `String()`-coerces it for create/get/importArtifact/
 *   deleteArtifact — refused here so `create(null)` cannot make `null`); the
 *   client then checks the name's form (`InvalidRepoNameError`
 *   `EINVALIDNAME`); `scope` is `"read"` or
 *   `"write"`; `ttl` is a positive integer of seconds or a duration string
 *   (`"15m"`, `"2h30m"`; spec 04 §3.5); option objects take only their
 *   documented keys. Violations reject a `TypeError` whose message starts
 *   with the function's name (`share: ttl invalid duration '1.5h'`);
 * - on a read-only backend (`ctx.access` `"read"`), `create`,
 *   `importArtifact`, `deleteArtifact` and a `"write"` token (from
 *   `createToken` or `share`) reject `Artifacts create requires Workspace
 *   write access.` (`Artifacts import`, `Artifacts delete`, `A write
 *   token`), `code` `EROFS`;
 * - without `allowNetwork`, `importArtifact` rejects
 *   {@link ARTIFACTS_IMPORT_NETWORK_MESSAGE} (`code` `EACCES`).
 *
 * Without `WorkspaceOptions.artifacts` every call rejects `ArtifactError`
 * `ENOCONFIG` `Workspace Artifacts binding is not configured`. The
 * binding's errors pass through (message and `code`).
 *
 * In a replay run (`onInterrupt: "replay"`, spec 02 §5) `create`,
 * `importArtifact` and `deleteArtifact` run at most once: one in flight when
 * the run was interrupted is not run again and rejects `EEXEC_LOST`.
 *
 * @example
 * ```ts
 * modules: { "ws:artifacts": createArtifactsModule({ allowNetwork: true }) }
 * // isolate: import { importArtifact } from "ws:artifacts";
 * // await importArtifact("hello", { url: "https://github.com/octocat/Hello-World" });
 * ```
 * @throws TypeError when `options` is not an object or `allowNetwork` is not a boolean.
 */
export function createArtifactsModule(options: ArtifactsModuleOptions = {}): WorkspaceModuleFactory {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createArtifactsModule(options): options must be an object, got ${kind(options)}`);
  }
  const allowNetwork = options.allowNetwork ?? false;
  if (typeof allowNetwork !== "boolean") throw new TypeError(`createArtifactsModule(options): allowNetwork must be a boolean, got ${kind(allowNetwork)}`);

  const factory = ((host: WorkspaceModuleHost) => {
    const client = (): ArtifactClient => host.artifacts;

    /** Runs a changing call at most once across replays. */
    const once = <T>(ctx: WorkspaceModuleCallContext, op: string, run: () => Promise<T>): Promise<T> =>
      atMostOnce(ctx, "ws:artifacts", {
        run,
        resume: async (id) => {
          throw notRepeated(op, id);
        },
      });

    const create: WorkspaceModuleFunction = async (args, ctx) => {
      arity("create", args, 2);
      const name = stringName("create", arg(args, 0));
      const opts = optionsOf("create", "opts", arg(args, 1), { description: "string", readOnly: "boolean", setDefaultBranch: "string" });
      if (ctx.access !== "read-write") throw writeAccessError("Artifacts create");
      checkAborted(ctx);
      return once(ctx, "create", async () => plain(await client().create(name, opts as ArtifactCreateOptions)));
    };

    const get: WorkspaceModuleFunction = async (args, ctx) => {
      arity("get", args, 1);
      const name = stringName("get", arg(args, 0));
      checkAborted(ctx);
      return plain(await client().get(name));
    };

    const list: WorkspaceModuleFunction = async (args, ctx) => {
      arity("list", args, 0);
      checkAborted(ctx);
      return plain(await client().list());
    };

    const importArtifact: WorkspaceModuleFunction = async (args, ctx) => {
      arity("importArtifact", args, 3);
      const name = stringName("importArtifact", arg(args, 0));
      const source = optionsOf("importArtifact", "source", arg(args, 1), { url: "string", branch: "string", depth: "number" });
      if (typeof source.url !== "string" || source.url === "") throw new TypeError("importArtifact: source.url must be a non-empty string (the git URL to import)");
      if (source.depth !== undefined && !(Number.isSafeInteger(source.depth) && (source.depth as number) > 0)) {
        throw new TypeError(`importArtifact: source.depth must be a positive integer, got ${String(source.depth)}`);
      }
      const opts = optionsOf("importArtifact", "opts", arg(args, 2), { description: "string", readOnly: "boolean" });
      if (ctx.access !== "read-write") throw writeAccessError("Artifacts import");
      if (!allowNetwork) throw Object.assign(new Error(ARTIFACTS_IMPORT_NETWORK_MESSAGE), { code: "EACCES" });
      checkAborted(ctx);
      return once(ctx, "importArtifact", async () =>
        plain(await client().import(name, source as unknown as ArtifactImportSource, opts as ArtifactImportOptions)),
      );
    };

    const deleteArtifact: WorkspaceModuleFunction = async (args, ctx) => {
      arity("deleteArtifact", args, 1);
      const name = stringName("deleteArtifact", arg(args, 0));
      if (ctx.access !== "read-write") throw writeAccessError("Artifacts delete");
      checkAborted(ctx);
      return once(ctx, "deleteArtifact", async () => (await client().delete(name)) === true);
    };

    const createToken: WorkspaceModuleFunction = async (args, ctx) => {
      arity("createToken", args, 3);
      const name = stringName("createToken", arg(args, 0));
      const scope = scopeOf("createToken", arg(args, 1));
      const ttl = ttlOf("createToken", arg(args, 2));
      if (scope === "write" && ctx.access !== "read-write") throw writeAccessError("A write token");
      checkAborted(ctx);
      return plain(await client().createToken(name, scope, ttl));
    };

    const share: WorkspaceModuleFunction = async (args, ctx) => {
      arity("share", args, 2);
      const name = stringName("share", arg(args, 0));
      const raw = arg(args, 1);
      if (raw !== undefined && !isPlainObject(raw)) throw new TypeError(`share: options must be an object { scope?, ttl? }, got ${kind(raw)}`);
      const opts: Record<string, WorkspaceRuntimeValue> = raw === undefined ? {} : (raw as Record<string, WorkspaceRuntimeValue>);
      for (const key of Object.keys(opts)) {
        if (key !== "scope" && key !== "ttl") throw new TypeError(`share: unknown option ${quoteCut(key)}; known: scope, ttl`);
      }
      const scope = scopeOf("share", opts.scope ?? undefined);
      const ttl = ttlOf("share", opts.ttl ?? undefined);
      if (scope === "write" && ctx.access !== "read-write") throw writeAccessError("A write token");
      checkAborted(ctx);
      const info = await client().get(name);
      const token = await client().createToken(name, scope, ttl);
      return credentialedRemote(info.remote, token.plaintext);
    };

    // Changing calls: their start is journaled before the binding is called, so an interruption resumes them (not run again).
    markAtMostOnce(create);
    markAtMostOnce(importArtifact);
    markAtMostOnce(deleteArtifact);
    return { create, get, list, importArtifact, deleteArtifact, createToken, share };
  }) as WorkspaceModuleFactory & { description?: string };
  Object.defineProperty(factory, "description", { enumerable: true, value: describeArtifactsModule(allowNetwork) });
  return factory;
}
