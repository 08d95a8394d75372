/**
 * Issue 20, thirty-ninth attack run: computerBundle() ships the WRONG BYTES for a bundled file whose name holds a
 * backslash (legal on Linux/macOS). `import.meta.glob` generates `import("./a\\b.md?raw")` and Vite reads `\` as a
 * path separator, so with `odd/a\b.md` ("backslash\n") beside `odd/a/b.md` ("a/b's bytes\n") the built bundle's
 * `files["./a\\b.md"]()` returns "a/b's bytes\n" (and the mounted `/odd/a\b.md` holds them), while the version the
 * plugin computed hashes `a\b.md`'s own bytes. Without such a neighbour the build fails with Vite's raw
 * `ENOENT: … open '<root>/odd/a/b.md'` (or ENOTDIR when `odd/a` is a file). This is the same class run 38 fixed for
 * `#` and `?` (test/node/fix38/vite-bundle-file-names.test.ts): the plugin's CUT_BY_VITE does not list `\`.
 *
 * Tried: file names with `%`, `%23`, `#`, `{a,b}`, `[1]`, `*`, space, newline, `"`, backtick/`${}`, `!`, `(…)`, `+`,
 * NFD accents, `a.md?raw`, `.json`/`.wasm`/`.css`/`.ts`/`.svg` extensions (which Vite might transform), a `lib.md`
 * beside `lib/index.js`, in a real SSR `vite build`.
 * Held: every one of those shipped its own text under its own key.
 * Found (medium — a file's bytes silently wrong in the shipped bundle, and the version does not describe them;
 * 2 of 2 runs): `\` in a file name is read by Vite as `/`.
 * Suggested fix: src/vite/plugin.ts — add `\\` to CUT_BY_VITE (and a negative glob pattern `!./**\/*\\\\*` /
 * `!./**\/*\\\\*\/**` to bundleModuleCode) so such files are loaded through the plugin's own
 * `computer:bundle-file/<hash>` ids, or refuse them with a message naming the file.
 * Fixed (issue 20, run 39, lead): the spec decides — a WorkerBundle tree reads `\` in a key as `/` (spec 01,
 *   WorkerBundle tree source), so `a\b.md` can never ship under its own name; computerBundle() now fails the build
 *   naming the path (src/vite/scan.ts), and this test, which asked for the bytes to ship, was changed to expect that
 *   refusal instead of shipped bytes (by the lead; the wrong-bytes reproduction is kept as the first assertions'
 *   setup). Siblings: test/node/fix39/vite-backslash-names.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { buildAndImport, createProject, type Project } from "../vite/project.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

it("vite build refuses a\\b.md rather than ship a/b.md's bytes under its name", async () => {
  const p: Project = createProject("computer:bundle/odd");
  cleanups.push(p.dispose);
  p.write("odd/a\\b.md", "backslash\n");
  p.write("odd/a/b.md", "a/b's bytes\n");
  expect(readFileSync(join(p.root, "odd", "a\\b.md"), "utf8")).toBe("backslash\n");
  // Was: the build succeeded and files["./a\\b.md"]() returned "a/b's bytes\n".
  await expect(buildAndImport(p)).rejects.toThrow(
    `computer:bundle/odd: a\\b.md has a backslash in its name, which Vite and a WorkerBundle tree read as "/", so it would ship as "a/b.md" (or clash with it); rename it, or move it out of the bundle directory`,
  );
});
