/**
 * Issue 20, found by the lead after the fifteenth attack run: the container sync's ignore matcher
 * (src/runtime/sync.ts ignoreMatcher) on deep trees, and its `X/**` rule against the daemon's picomatch.
 *
 * Tried: (1) `ignoreMatcher("/workspace", ["**\/node_modules/**", "/workspace/build/**"])` — the matcher every
 * pushed path goes through — on files at the bottom of three 5,000-deep directory chains (`a/a/…/a/f`,
 * `b/…/node_modules/f`, `c/…/f`: 15,000 directories; paths of 10 KB, well under MAX_PATH_BYTES), visited in
 * turn, 5 rounds (15 paths); (2) the glob `**\/.*\/**` on
 * `.cache/x`, `.cache`, `a/.b/c` (and a table of `X/**` globs) on the host and in the daemon's own matcher
 * (container/lib/config.mjs, picomatch 4.0.7 with `dot: true`, walked as its scan walks: an ignored
 * directory's contents are never reached).
 *
 * Found: (1) (medium, CPU) each directory's decision was kept in a memo that was cleared whole at 4,096
 * entries: with more than 4,096 directories on the way, every path re-matched each of its 5,000 ancestors
 * (measured 624 ms per path, 9.4 s for the 15, against 10 ms per path once fixed; at depth 2,000, 56 ms against
 * 4.5 ms for one chain alone: the cost grew as depth squared). (2) (low, correctness) the host
 * read every `X/**` as also ignoring `X`; picomatch does that only when `X` does not end with `*` — for
 * `**\/.*\/**`, `/workspace/*\/**` the daemon keeps `.cache` (and sends it) while the host refused to push it.
 *
 * Fixed: (1) each glob is matched on the path and all its ancestors in one pass (src/fs/glob.ts
 * compileLinearPrefixGlob): the cost per path is its length times the globs', with no memo to thrash;
 * (2) `X/**` ignores `X` only where picomatch does (not after a `*`; `X/**\/**` is `X/**`).
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ignoreMatcher } from "../../../src/runtime/sync.js";
import { compileLinearGlob, compileLinearPrefixGlob } from "../../../src/fs/glob.js";
// The daemon's matcher itself (picomatch as the container image pins it).
// @ts-expect-error the daemon is plain ESM JavaScript (checked with // @ts-check)
import { ignoreMatcher as daemonIgnoreMatcher } from "../../../container/lib/config.mjs";
import { runInWorker } from "../attack13b/worker-run.js";

const SYNC = resolve(import.meta.dirname, "../../../src/runtime/sync.ts");

/** What the daemon's scan leaves out: the path or one of its ancestors (below the mount point) matches. */
function daemonIgnores(globs: string[]): (wire: string) => boolean {
  const ignored = (daemonIgnoreMatcher as (globs: string[]) => (abs: string) => boolean)(globs);
  return (wire) => {
    const names = wire.split("/");
    return names.some((_, k) => ignored(`/workspace/${names.slice(0, k + 1).join("/")}`));
  };
}

describe("fix16c: container sync ignore matching on deep trees", () => {
  it("15 paths at the bottom of three 5,000-deep chains, in turn, are decided within 5 s, exactly", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ignored = ignoreMatcher("/workspace", ["**/node_modules/**", "/workspace/build/**"]);
const chain = (name: string) => Array.from({ length: 5000 }, () => name).join("/");
const paths = [chain("a") + "/f", chain("b") + "/node_modules/f", chain("c") + "/f"];
const decided: boolean[] = [];
for (let round = 0; round < 5; round++) for (const path of paths) decided.push(ignored(path));
post(decided);`,
      5_000,
      `import { ignoreMatcher } from ${JSON.stringify(SYNC)};`,
    );
    // Found: settled false (the memo thrashed: each path re-matched its 5,000 ancestors).
    expect(run.settled).toBe(true);
    expect(run.messages).toEqual([Array.from({ length: 5 }, () => [false, true, false]).flat()]);
  });

  it("the prefix matcher agrees with the linear matcher on every prefix", () => {
    const globs = ["/w/*", "**/x/**", "/w/**/b", "**/*.log/**", "/w/a*b*/**", "**", "/w/**/c/*", "**/.*/**", "/w/a/**/**", "x"];
    const paths = ["/w", "/w/a", "/w/a/b", "/w/x/y/c/d", "/w/q.log/r", "/w/ab/c", "/w/acb/x/b", "/w/.c/d", "x", "/w//a"];
    for (const glob of globs) {
      const prefixes = compileLinearPrefixGlob(glob);
      const whole = compileLinearGlob(glob);
      for (const path of paths) {
        const names = path.split("/");
        expect([glob, path, prefixes(path)]).toEqual([glob, path, names.map((_, k) => whole(names.slice(0, k + 1).join("/")))]);
      }
    }
    expect(compileLinearPrefixGlob("/w/*")("/w/a/b")).toEqual([false, false, true, false]);
  });

  it("`**/.*/**` ignores .cache/x and a/.b/c but keeps .cache, on the host as in the daemon", () => {
    const paths = [".cache/x", ".cache", "a/.b/c", "a/.b", "a"];
    expect(paths.filter(ignoreMatcher("/workspace", ["**/.*/**"]))).toEqual([".cache/x", "a/.b/c"]);
    expect(paths.filter(daemonIgnores(["**/.*/**"]))).toEqual([".cache/x", "a/.b/c"]);
  });

  it("host and daemon agree on X/** globs, with and without a final `*` in X", () => {
    const globs = [
      "**/.*/**",
      "/workspace/*/**",
      "**/*.log/**",
      "**/a*/**",
      "**/x*y/**",
      "**/node_modules/**",
      "/workspace/build/**",
      "/workspace/a/**/**",
      "/workspace/**",
      "**/**",
      "**/a**/**",
      "/workspace/a/*/**",
    ];
    const paths = [".cache", ".cache/x", "a", "a/.b", "a/.b/c", "ab", "ab/c", "x.log", "x.log/y", "xy", "xzy/q", "node_modules", "build", "build/o", "a/b", "q"];
    const table = (ignored: (wire: string) => boolean) => paths.filter(ignored);
    for (const glob of globs) {
      expect([glob, table(ignoreMatcher("/workspace/", [glob]))]).toEqual([glob, table(daemonIgnores([glob]))]);
      expect([glob, table(ignoreMatcher("/workspace", [glob, "!**/q"]))]).toEqual([glob, table(daemonIgnores([glob, "!**/q"]))]);
    }
    expect(table(ignoreMatcher("/workspace", ["/workspace/*/**"]))).toEqual([".cache/x", "a/.b", "a/.b/c", "ab/c", "x.log/y", "xzy/q", "build/o", "a/b"]);
    expect(table(ignoreMatcher("/workspace", ["**/*.log/**"]))).toEqual(["x.log", "x.log/y"]);
  });
});
