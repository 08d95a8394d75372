/**
 * Issue 20, twenty-first attack run: grep's `include` list is joined into one `{a,b}` glob without escaping or bounds.
 * Tried: the grep tool (pi tool set; src/tools/core/grep.ts joins two or more includes as `{${includes.join(",")}}`)
 * on a Workspace over the Durable Object's storage, files `a,b.txt`, `b.txt`, `x.txt`, `y.md` each holding "hit";
 * include lists whose globs hold a comma, and a list of 100 globs (MAX_GLOBS) with `{…}` alternations.
 * Held: a single include (`["a,b.txt"]`, `["*.{md,txt}"]`) finds exactly its files; `exclude` lists are parsed glob
 * by glob.
 * Found (medium — silent wrong results the model cannot tell from "no match"; 3 of 3 runs):
 * - `include: ["x.txt", "a,b.txt"]` becomes `{x.txt,a,b.txt}`: it searches `b.txt` (never included) and skips
 *   `a,b.txt`; escaping the comma (`a\,b.txt`) gives the same (expand() ignores `\`).
 * - `include: [99 × "d<i>/*.{md,txt,ts}", "*.{md,txt}"]` (each glob alone valid) joins to 299 alternatives, past
 *   MAX_EXPANSIONS (256), so the whole joined glob is read literally and grep answers count 0 — while the last glob
 *   alone finds all four files. Nothing says the include was not understood.
 * Suggested fix: let fs.grep take `include` as a list (parsed glob by glob, as `exclude` is, under the same
 * MAX_GLOB_SIZE), or have the tool escape top-level commas/braces and refuse (TypeError) a joined glob past
 * MAX_EXPANSIONS instead of matching it literally.
 * Fixed: `fs.grep`'s `include` takes a glob or a list of globs (src/fs/glob.ts compileInclude): each glob of a
 * list is expanded and parsed alone, a path matching any of them is searched, and the list together is held to
 * MAX_GLOB_SIZE (4096 characters expanded; past it `include globs too long: …`, a TypeError the tool reports).
 * The grep tool (src/tools/core/grep.ts) passes its list as a list and never joins. With src/fs/glob.ts's escape
 * fix (find-escaped-brace-glob-expands), `a\,b.txt` is the literal name `a,b.txt` too.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("each include glob means what it means alone", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      for (const name of ["a,b.txt", "b.txt", "x.txt", "y.md"]) await ws.fs.writeFile(`/workspace/${name}`, "hit\n");
      const { execute } = createPiTools({ workspace: ws });
      const grep = async (include: string[]) => {
        const r = await execute({ id: "g", name: "grep", arguments: { path: "/workspace", query: "hit", include } });
        return (r.details as { matches: { path: string }[] }).matches.map((m) => m.path).sort();
      };
      const many = [...Array.from({ length: 99 }, (_, i) => `d${i}/*.{md,txt,ts}`), "*.{md,txt}"];
      return { comma: await grep(["x.txt", "a,b.txt"]), escaped: await grep(["x.txt", "a\\,b.txt"]), many: await grep(many) };
    } finally {
      await ws.close();
    }
  });
  // Found: comma and escaped ["/workspace/b.txt", "/workspace/x.txt"]; many [].
  expect(out).toEqual({
    comma: ["/workspace/a,b.txt", "/workspace/x.txt"],
    escaped: ["/workspace/a,b.txt", "/workspace/x.txt"],
    many: ["/workspace/a,b.txt", "/workspace/b.txt", "/workspace/x.txt", "/workspace/y.md"],
  });
}, 60_000);
