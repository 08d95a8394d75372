/**
 * What makes the operations on one repository run one at a time: the
 * repository's canonical path (the queue key of a client) and a lock file in
 * its gitdir, shared by every Workspace on the same storage.
 *
 * @module
 */
import { sha256Hex } from "../util/bytes.js";
import type { WorkspaceLike } from "./types.js";
import { gitdirOf } from "./wrap.js";

/** The most symbolic links followed while finding a canonical path (as the filesystem's `ELOOP` limit). */
const MAX_LINKS = 40;

/**
 * `dir` (absolute, normalised) with every symbolic link in it resolved, as
 * the filesystem resolves it: `/alias` for a link to `/repo` is `/repo`, so
 * the operations through either spelling share one queue (issue 20, seventh
 * attack run). A missing component ends the walk (the rest is kept as
 * given); more than 40 links give `dir` back unchanged. Never throws.
 */
export async function canonicalDir(ws: WorkspaceLike, dir: string): Promise<string> {
  const rest = dir.split("/").filter((part) => part !== "");
  const done: string[] = [];
  let links = 0;
  while (rest.length > 0) {
    const name = rest.shift()!;
    if (name === ".") continue;
    if (name === "..") {
      done.pop();
      continue;
    }
    const path = `/${[...done, name].join("/")}`;
    const stat = await ws.fs.lstat(path).catch(() => undefined);
    if (!stat) return `/${[...done, name, ...rest].join("/")}`;
    if (!stat.isSymbolicLink) {
      done.push(name);
      continue;
    }
    if (++links > MAX_LINKS) return dir;
    const target = await ws.fs.readlink(path).catch(() => undefined);
    if (target === undefined) return dir;
    if (target.startsWith("/")) done.length = 0;
    rest.unshift(...target.split("/").filter((part) => part !== ""));
  }
  return `/${done.join("/")}`;
}

/** The lock file's name in the gitdir. */
export const REPO_LOCK_NAME = "agent-computer.lock";
/** How long a lock is held without renewal before another Workspace may take it over, in ms. */
export const REPO_LOCK_LEASE_MS = 3_000;
/** How often a holder renews its lease while its operation runs, in ms. */
const RENEW_MS = 1_000;
/** The longest pause between two attempts to take a held lock, in ms. */
const MAX_BACKOFF_MS = 100;

/**
 * Runs `fn` holding the repository lock `<dir>/.git/agent-computer.lock`:
 * a file made with an exclusive create (as real git's `index.lock`), so two
 * Workspaces over one storage (two isolates, two processes) never write
 * the same index or ref at once — without it, concurrent `add`s and
 * `commit`s all "succeeded" while the index and the branch kept one side
 * (issue 20, seventh attack run). A waiting operation retries with a short
 * backoff (2 ms doubling to 100 ms). The file holds `<owner> <expires-ms>`;
 * the holder renews it every second, and a lock whose lease ran out (a
 * holder that crashed or was aborted) is taken over with a
 * compare-and-swap after 3 s, so nothing stays stuck. When the lock cannot be made at
 * all — no `.git` yet (`init`, `clone`), a read-only mount — `fn` runs
 * without it.
 */
export async function withRepoLock<T>(ws: WorkspaceLike, dir: string, fn: () => Promise<T>): Promise<T> {
  const path = `${gitdirOf(dir)}/${REPO_LOCK_NAME}`;
  const owner = crypto.randomUUID();
  const body = () => `${owner} ${Date.now() + REPO_LOCK_LEASE_MS}\n`;
  let held: string | undefined;
  for (let backoff = 2; held === undefined; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    const mine = body();
    try {
      await ws.fs.writeFile(path, mine, { exclusive: true });
      held = mine;
      break;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== "EEXIST") return fn();
    }
    const current = await ws.fs.readFile(path, "utf8").catch(() => undefined);
    if (current === undefined) continue; // released meanwhile
    const expires = Number(current.trim().split(" ")[1]);
    if (!(expires > Date.now())) {
      try {
        await ws.fs.writeFile(path, mine, { ifMatch: await contentHash(current) });
        held = mine;
        break;
      } catch {
        continue; // someone else took it over, or it was released
      }
    }
    await new Promise((resolve) => setTimeout(resolve, backoff));
  }
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      const next = body();
      try {
        await ws.fs.writeFile(path, next, { ifMatch: await contentHash(held!) });
        held = next;
      } catch {
        // Taken over after the lease ran out: nothing to renew.
      }
    });
  }, RENEW_MS);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
    await renewing;
    const current = await ws.fs.readFile(path, "utf8").catch(() => undefined);
    if (current === held) await ws.fs.rm(path).catch(() => {});
  }
}

/** The `ifMatch` of a lock file holding `text`. */
function contentHash(text: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(text));
}
