/**
 * Issue 20, twenty-first attack run: a glob's `\{`, `\,` and `\}` are still read as an alternation.
 * Tried: the find tool (pi tool set → workspace.fs.find) and `ws.fs.find` itself on a Workspace over the Durable
 * Object's storage, with files `{a,b}.txt`, `a.txt`, `c.txt`, and globs escaping the braces and the comma;
 * docs/filesystem.md: "`\` escapes the next character (as in picomatch)", and picomatch/bash read `\{a,b\}.txt` as
 * the literal name `{a,b}.txt`.
 * Held: `{a,b}.txt` finds `a.txt` (b.txt is absent); `?a,b?.txt` finds `{a,b}.txt`.
 * Found (low–medium — wrong results, and no glob can name such a file exactly; 3 of 3 runs): `expand()`
 * (src/fs/glob.ts) looks for `{`, `,` and `}` without skipping escaped ones, so `\{a,b\}.txt` becomes the two
 * alternatives `\a.txt` and `\b\.txt` — it finds `a.txt` and never `{a,b}.txt`; `\{a\,b\}.txt` does the same, and
 * `{c,\{a\,b\}}.txt` finds `a.txt` and `c.txt`. The grep tool's `include`/`exclude` go through the same expansion.
 * Suggested fix: in expand(), skip the character after a `\` when scanning for `{`, `,` and `}` (as picomatch's
 * braces does), and keep the backslashes in the alternatives so parse() reads them as literals.
 * Fixed: expand() in src/fs/glob.ts skips the character after a `\` when it looks for `{`, `,` and `}`, and the
 * backslash stays in the alternative for parse() to read as a literal: `\{a,b\}.txt` is the name `{a,b}.txt`,
 * `{c,\{a\,b\}}.txt` the alternatives `c.txt` and `\{a\,b\}.txt`. One expansion serves find's pattern, grep's
 * include and every exclude (the tools' and `fs.find`/`fs.grep`'s), so all of them read escapes alike.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("an escaped brace or comma is literal: \\{a,b\\}.txt finds the file {a,b}.txt only", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      for (const name of ["{a,b}.txt", "a.txt", "c.txt"]) await ws.fs.writeFile(`/workspace/${name}`, "hit\n");
      const { execute } = createPiTools({ workspace: ws });
      const found: Record<string, unknown> = {};
      for (const pattern of ["\\{a,b\\}.txt", "\\{a\\,b\\}.txt", "{c,\\{a\\,b\\}}.txt"]) {
        const r = await execute({ id: pattern, name: "find", arguments: { path: "/workspace", pattern } });
        found[pattern] = (r.details as { entries: { path: string }[] }).entries.map((e) => e.path).sort();
      }
      found["fs.find"] = (await ws.fs.find("/workspace", "\\{a,b\\}.txt")).map((e) => e.path);
      return found;
    } finally {
      await ws.close();
    }
  });
  // Found: ["/workspace/a.txt"] for the first two and fs.find, ["/workspace/a.txt", "/workspace/c.txt"] for the third.
  expect(out).toEqual({
    "\\{a,b\\}.txt": ["/workspace/{a,b}.txt"],
    "\\{a\\,b\\}.txt": ["/workspace/{a,b}.txt"],
    "{c,\\{a\\,b\\}}.txt": ["/workspace/c.txt", "/workspace/{a,b}.txt"],
    "fs.find": ["/workspace/{a,b}.txt"],
  });
}, 60_000);
