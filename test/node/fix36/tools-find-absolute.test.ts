/**
 * Issue 20, run 36, fixer TL — sibling of test/node/attack36c/find-absolute-pattern-silently-finds-nothing.test.ts.
 * find's `pattern` and `exclude`, and grep's `include` and `exclude`, are relative to `path`; a glob written as an
 * absolute path under `path` is now matched relative to it (as GNU `find /workspace -path '/workspace/…'` takes the
 * start point's spelling), and one that could never match — absolute outside `path`, or a find pattern / grep
 * include ending in `/` — is an error result naming what to send instead, never a silent `count: 0`; an exclude
 * ending in `/` names the directory (as in .gitignore). Oracle for the matches: bash 5.2.15 with `shopt -s globstar
 * dotglob` expanding the same glob over the same tree on disk (compared as sets: bash sorts, find walks depth-first).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findDefinition } from "../../../src/tools/core/find.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const TREE: Record<string, string> = {
  "/workspace/src/a.ts": "foo\n",
  "/workspace/src/deep/b.ts": "foo\n",
  "/workspace/src/deep/c.js": "foo\n",
  "/workspace/x.ts": "foo\n",
  "/workspace/.hidden/h.ts": "foo\n",
  "/workspace/node_modules/p/i.ts": "foo\n",
};

const disk = mkdtempSync(join(tmpdir(), "tl-find-"));
for (const [p, text] of Object.entries(TREE)) {
  mkdirSync(dirname(join(disk, p)), { recursive: true });
  writeFileSync(join(disk, p), text);
}

/** What bash's globstar expands an absolute glob (over /workspace) to, as absolute workspace paths. */
function bash(glob: string): string[] {
  const out = execFileSync("bash", ["-c", 'shopt -s globstar dotglob nullglob; cd "$1" && for f in $2; do printf "%s\\n" "/${f%/}"; done', "x", disk, glob.slice(1)], {
    encoding: "utf8",
  });
  return out.split("\n").filter((l) => l !== "" && l !== "/workspace");
}

const tools = async () => {
  const { workspace } = await setup(TREE);
  return { find: findDefinition({ workspace }), grep: grepDefinition({ workspace }) };
};
const paths = (r: unknown) => ((r as { entries: Array<{ path: string }> }).entries ?? []).map((e) => e.path).sort();
const grepPaths = (r: unknown) => [...new Set(((r as { matches: Array<{ path: string }> }).matches ?? []).map((m) => m.path))].sort();

describe("find: an absolute pattern under path", () => {
  it("matches what bash's globstar expands, for every spelling of path", async () => {
    const { find } = await tools();
    for (const pattern of ["/workspace/src/**/*.ts", "/workspace/src/*.ts", "/workspace/*.ts", "/workspace/**/*.ts", "/workspace/src/deep/b.ts", "/workspace/src/**"]) {
      // `a/**` matches below `a`, not `a` itself (docs/filesystem.md); bash's globstar lists `a/` too.
      const want = bash(pattern).filter((p) => !pattern.endsWith("/**") || p !== pattern.slice(0, -3)).sort();
      expect(want.length, pattern).toBeGreaterThan(0);
      for (const path of ["/workspace", "/workspace/", "/workspace/src/..", "/workspace//."]) {
        const result = (await find.execute({ path, pattern })) as { pattern: string; count: number };
        expect({ path, pattern, echoed: result.pattern, got: paths(result) }).toEqual({ path, pattern, echoed: pattern, got: want });
      }
    }
    // A start below the pattern's root: the part under it.
    expect(paths(await find.execute({ path: "/workspace/src", pattern: "/workspace/src/**/*.ts" }))).toEqual(bash("/workspace/src/**/*.ts").sort());
    // From "/", every absolute glob is under path.
    expect(paths(await find.execute({ path: "/", pattern: "/workspace/src/*.ts" }))).toEqual(["/workspace/src/a.ts"]);
  });

  it("an absolute exclude under path prunes as its relative form does", async () => {
    const { find } = await tools();
    const rel = paths(await find.execute({ path: "/workspace", pattern: "**/*.ts", exclude: ["node_modules", "node_modules/**", ".hidden"] }));
    expect(rel).toEqual(["/workspace/src/a.ts", "/workspace/src/deep/b.ts", "/workspace/x.ts"]);
    expect(paths(await find.execute({ path: "/workspace", pattern: "**/*.ts", exclude: ["/workspace/node_modules", "/workspace/node_modules/**", "/workspace/.hidden"] }))).toEqual(rel);
    // A trailing "/" on an exclude names the directory, pruned with everything below it.
    expect(paths(await find.execute({ path: "/workspace", pattern: "**/*.ts", exclude: ["node_modules/", ".hidden/"] }))).toEqual(rel);
  });
});

describe("find: a pattern that could never match is an error result", () => {
  it("absolute outside path, path itself, and a trailing /", async () => {
    const { find } = await tools();
    expect(await find.execute({ path: "/workspace/src", pattern: "/workspace/x.ts" })).toEqual({
      error: `find's pattern is relative to path ("/workspace/src"), and "/workspace/x.ts" is an absolute path not below it, so it could never match. Send path "/workspace" with pattern "x.ts" instead, or pattern relative to "/workspace/src".`,
    });
    expect(await find.execute({ path: "/workspace", pattern: "/other/lib/**/*.ts" })).toEqual({
      error: `find's pattern is relative to path ("/workspace"), and "/other/lib/**/*.ts" is an absolute path not below it, so it could never match. Send path "/other/lib" with pattern "**/*.ts" instead, or pattern relative to "/workspace".`,
    });
    expect(await find.execute({ path: "/workspace", pattern: "/workspaces/*.ts" })).toEqual({
      error: `find's pattern is relative to path ("/workspace"), and "/workspaces/*.ts" is an absolute path not below it, so it could never match. Send path "/workspaces" with pattern "*.ts" instead, or pattern relative to "/workspace".`,
    });
    expect(await find.execute({ path: "/workspace", pattern: "src/**/" })).toEqual({
      error: `find's pattern "src/**/" ends in "/": paths are matched without a trailing "/", so it could never match. Send pattern "src/**" instead: each entry's type says whether it is a directory.`,
    });
    expect(await find.execute({ path: "/workspace", pattern: "/workspace/*/" })).toEqual({
      error: `find's pattern "/workspace/*/" ends in "/": paths are matched without a trailing "/", so it could never match. Send pattern "*" instead: each entry's type says whether it is a directory.`,
    });
    expect(await find.execute({ path: "/workspace", pattern: "/workspace/bad", exclude: "/elsewhere/**" })).toEqual({
      error: `find's exclude is relative to path ("/workspace"), and "/elsewhere/**" is an absolute path not below it, so it could never match. Send path "/elsewhere" with exclude "**" instead, or exclude relative to "/workspace".`,
    });
  });

  it("the pattern ending in / sent again as told lists the directories bash's globstar lists", async () => {
    const { find } = await tools();
    const result = (await find.execute({ path: "/workspace", pattern: "src/**" })) as { entries: Array<{ path: string; type: string }> };
    const dirs = result.entries.filter((e) => e.type === "dir").map((e) => e.path).sort();
    expect(dirs).toEqual(bash("/workspace/src/**/").filter((p) => p !== "/workspace/src").sort());
  });
});

describe("grep: include and exclude follow the same rule", () => {
  it("an absolute include or exclude under path searches what its relative form does", async () => {
    const { grep } = await tools();
    const rel = grepPaths(await grep.execute({ path: "/workspace", query: "foo", include: "src/**/*.ts" }));
    expect(rel).toEqual(bash("/workspace/src/**/*.ts").sort());
    expect(grepPaths(await grep.execute({ path: "/workspace", query: "foo", include: "/workspace/src/**/*.ts" }))).toEqual(rel);
    expect(grepPaths(await grep.execute({ path: "/workspace/", query: "foo", include: ["/workspace/src/**/*.ts", "x.ts"] }))).toEqual([...rel, "/workspace/x.ts"].sort());
    const kept = grepPaths(await grep.execute({ path: "/workspace", query: "foo", exclude: ["node_modules", "node_modules/**"] }));
    expect(grepPaths(await grep.execute({ path: "/workspace", query: "foo", exclude: ["/workspace/node_modules", "/workspace/node_modules/**"] }))).toEqual(kept);
    expect(grepPaths(await grep.execute({ path: "/workspace", query: "foo", exclude: "node_modules/" }))).toEqual(kept);
    // One file searched: an include naming it is passed on as before.
    expect(grepPaths(await grep.execute({ path: "/workspace/x.ts", query: "foo", include: "/workspace/x.ts" }))).toEqual(["/workspace/x.ts"]);
  });

  it("an include outside path or ending in / is an error result", async () => {
    const { grep } = await tools();
    expect(await grep.execute({ path: "/workspace/src", query: "foo", include: "/workspace/*.ts" })).toEqual({
      error: `grep's include is relative to path ("/workspace/src"), and "/workspace/*.ts" is an absolute path not below it, so it could never match. Send path "/workspace" with include "*.ts" instead, or include relative to "/workspace/src".`,
    });
    expect(await grep.execute({ path: "/workspace", query: "foo", include: "src/**/" })).toEqual({
      error: `grep's include "src/**/" ends in "/": grep searches files, and a glob ending in "/" names directories only, so it could never match. Send include "src/**" instead.`,
    });
    expect(await grep.execute({ path: "/workspace", query: "foo", include: "src/" })).toEqual({
      error: `grep's include "src/" ends in "/": grep searches files, and a glob ending in "/" names directories only, so it could never match. Send include "src/**" instead.`,
    });
  });
});
