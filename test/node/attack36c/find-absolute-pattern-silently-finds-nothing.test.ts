/**
 * Issue 20, thirty-sixth attack run: the find tool matches `pattern` against paths relative to `path`, so a pattern
 * written as an absolute path — `{ path: "/workspace", pattern: "/workspace/src/**\/*.ts" }`, the form every other
 * path the tools take and return has (find's own results are absolute) — can never match anything, and the tool
 * answers a plain `{ count: 0, entries: [] }` with no note and no error. The agent is told there are no such files
 * and acts on it (creates a second copy, reports a file missing, skips a migration).
 * Tried: find with `*.ts`, `**\/*.ts`, `src/**`, `src/**\/*.ts`, `{a,b}.ts`, `[ab].ts`, `?.ts`, `**`, `*`, `src/*`,
 * `**\/b.*`, `x\[1\].ts`, `**\/deep`, `*\/**\/*.ts`, `[!a].ts`, `**\/*.{ts,js}`, `src/**\/`, `./a.ts` and an absolute
 * pattern over a tree with dot-files, a dot-directory and `x[1].ts`, against bash 5.2.15 (`shopt -s globstar dotglob`)
 * and GNU find 4.9 (`find /workspace -path '/workspace/src/*.ts'` lists `/workspace/src/a.ts`).
 * Held: everything else as bash or as documented in docs/filesystem.md (brackets literal, `a/**` without `a`, a
 * leading `./` dropped, `{a,b}` expanded); grep's `include` with an absolute glob also finds nothing, as GNU grep's
 * `--include=/abs/*.ts` (status 1) — not reported.
 * Found (medium — a wrong result the agent acts on: "no files" for files that exist, with nothing in the result
 * saying the pattern cannot match; 2 of 2 runs): `find { path: "/workspace", pattern: "/workspace/src/**\/*.ts" }` and
 * `"/workspace/src/*.ts"` → `{"path":"/workspace","pattern":…,"count":0,"entries":[]}` with `/workspace/src/a.ts`
 * present.
 * Suggested fix: src/tools/core/find.ts — a pattern starting with `/`: when it starts with `path` + `/`, match the
 * rest relative to `path` (as GNU find's `-path` takes the start point's own spelling); otherwise (outside `path`)
 * answer `{ error }` saying the pattern is relative to `path`. If the fixer prefers the error for both, change the
 * expectation below to that error text.
 * Fixed: src/tools/core/relative-glob.ts (called by find.ts and grep.ts) — an absolute glob under `path` is matched
 * relative to it; one outside `path`, a find pattern or grep include ending in `/`, is an error result naming what
 * to send instead; an exclude ending in `/` names the directory (issue 20, run 36, fixer TL).
 * Siblings: test/node/fix36/tools-find-absolute.test.ts.
 */
import { expect, it } from "vitest";
import { findDefinition } from "../../../src/tools/core/find.js";
import { setup } from "../tools/helpers.js";

it("an absolute find pattern under path finds the files (GNU find -path), not a silent count 0", async () => {
  const { workspace } = await setup({ "/workspace/src/a.ts": "foo\n", "/workspace/src/deep/b.ts": "bar\n" });
  const find = findDefinition({ workspace });
  // Was: {"path":"/workspace","pattern":"/workspace/src/**/*.ts","count":0,"entries":[]}
  expect(await find.execute({ path: "/workspace", pattern: "/workspace/src/**/*.ts" })).toEqual({
    path: "/workspace",
    pattern: "/workspace/src/**/*.ts",
    count: 2,
    entries: [
      { path: "/workspace/src/a.ts", type: "file" },
      { path: "/workspace/src/deep/b.ts", type: "file" },
    ],
  });
  // Was: {"path":"/workspace","pattern":"/workspace/src/*.ts","count":0,"entries":[]}
  expect(await find.execute({ path: "/workspace", pattern: "/workspace/src/*.ts" })).toEqual({
    path: "/workspace",
    pattern: "/workspace/src/*.ts",
    count: 1,
    entries: [{ path: "/workspace/src/a.ts", type: "file" }],
  });
});
