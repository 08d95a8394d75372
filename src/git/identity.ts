/**
 * Author and committer resolution (spec 04 §2.3 "Identity"): explicit →
 * `env` → local config → `defaultIdentity`. `process.env` and any global
 * config are never read.
 *
 * @module
 */
import type { GitContext } from "./context.js";
import { MissingIdentityError } from "./errors.js";
import type { GitIdentity } from "./types.js";

/** A partial person as callers pass it. */
export type PersonInput = Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };

/** A resolved person for isomorphic-git (`timestamp`/`timezoneOffset` passed through when given). */
export type ResolvedPerson = GitIdentity & { timestamp?: number; timezoneOffset?: number };

/** The identity inputs of `commit`, `pull` and `merge`. */
export interface IdentityInput {
  author?: PersonInput;
  committer?: PersonInput;
  env?: Record<string, string | undefined>;
}

function complete(person: Partial<GitIdentity> | undefined): person is GitIdentity {
  return typeof person?.name === "string" && person.name !== "" && typeof person.email === "string" && person.email !== "";
}

function fromEnv(env: Record<string, string | undefined> | undefined, who: "AUTHOR" | "COMMITTER"): GitIdentity | undefined {
  if (env === undefined || env === null || typeof env !== "object") return undefined;
  const name = env[`GIT_${who}_NAME`] ?? (who === "COMMITTER" ? env.GIT_AUTHOR_NAME : undefined);
  const email = env[`GIT_${who}_EMAIL`] ?? (who === "COMMITTER" ? env.GIT_AUTHOR_EMAIL : undefined);
  const person = { name, email };
  return complete(person) ? person : undefined;
}

async function fromConfig(ctx: GitContext, dir: string): Promise<GitIdentity | undefined> {
  const get = (path: string) => ctx.git.getConfig({ fs: ctx.fs, dir, path }).catch(() => undefined) as Promise<unknown>;
  const [name, email] = await Promise.all([get("user.name"), get("user.email")]);
  const person = { name: typeof name === "string" ? name : undefined, email: typeof email === "string" ? email : undefined };
  return complete(person) ? person : undefined;
}

function withTimes(base: GitIdentity, explicit: PersonInput | undefined): ResolvedPerson {
  const out: ResolvedPerson = { name: base.name, email: base.email };
  if (typeof explicit?.timestamp === "number") out.timestamp = explicit.timestamp;
  if (typeof explicit?.timezoneOffset === "number") out.timezoneOffset = explicit.timezoneOffset;
  return out;
}

/**
 * Author and committer for a commit or merge in `dir`. `useConfig` is
 * `true` for `commit` and `false` for `pull`/`merge` (spec 04 §2.3).
 * @throws MissingIdentityError when no complete author is found.
 */
export async function resolveIdentity(
  ctx: GitContext,
  dir: string,
  input: IdentityInput,
  useConfig: boolean,
): Promise<{ author: ResolvedPerson; committer: ResolvedPerson }> {
  const config = useConfig ? await fromConfig(ctx, dir) : undefined;
  const authorBase =
    (complete(input.author) ? input.author : undefined) ?? fromEnv(input.env, "AUTHOR") ?? config ?? ctx.defaultIdentity;
  if (!complete(authorBase)) throw new MissingIdentityError();
  const author = withTimes(authorBase, input.author);
  const committerBase =
    (complete(input.committer) ? input.committer : undefined) ??
    fromEnv(input.env, "COMMITTER") ??
    config ??
    (complete(ctx.defaultIdentity) ? ctx.defaultIdentity : undefined) ??
    authorBase;
  return { author, committer: withTimes(committerBase, input.committer ?? input.author) };
}
