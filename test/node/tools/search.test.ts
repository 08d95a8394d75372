import { describe, expect, it } from "vitest";
import { findDefinition } from "../../../src/tools/core/find.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { listDefinition } from "../../../src/tools/core/ls.js";
import { setup } from "./helpers.js";

async function tree() {
  const { workspace } = await setup({
    "/workspace/README.md": "TODO readme\n",
    "/workspace/node_modules/pkg/index.ts": "// TODO pkg\n",
    "/workspace/src/a.ts": "export const a = 1;\n",
    "/workspace/src/b.ts": "alpha\nTODO one\nbeta\ngamma\nTODO two\ndelta\n",
  });
  await workspace.fs.symlink("README.md", "/workspace/link.md");
  return {
    workspace,
    ls: listDefinition({ workspace }),
    find: findDefinition({ workspace }),
    grep: grepDefinition({ workspace }),
  };
}

describe("ls (spec 03 §4.2)", () => {
  it("pages in name order with nextOffset; six keys per entry", async () => {
    const { ls } = await tree();
    const first = (await ls.execute({ path: "/workspace", limit: 2 })) as unknown as { entries: Array<Record<string, unknown>>; nextOffset?: number; count: number };
    expect(first.entries.map((e) => e.name)).toEqual(["README.md", "link.md"]);
    expect(first.nextOffset).toBe(2);
    expect(first.count).toBe(2);
    expect(Object.keys(first.entries[0]!)).toEqual(["name", "size", "mtime", "isFile", "isDirectory", "isSymbolicLink"]);
    expect(first.entries[1]).toMatchObject({ isFile: false, isDirectory: false, isSymbolicLink: true });
    const rest = (await ls.execute({ path: "/workspace", limit: 2, offset: 2 })) as { entries: Array<{ name: string }>; nextOffset?: number };
    expect(rest.entries.map((e) => e.name)).toEqual(["node_modules", "src"]);
    expect("nextOffset" in rest).toBe(false);
    expect(await ls.execute({ path: "/workspace", offset: 50 })).toEqual({ path: "/workspace", count: 0, entries: [] });
    expect(await ls.execute({ path: "/workspace/nope" })).toEqual({ error: expect.stringMatching(/^ENOENT: .*\/workspace\/nope$/) });
    expect(await ls.execute({ path: "/workspace/README.md" })).toEqual({ error: expect.stringContaining("ENOTDIR") });
  });
});

describe("find (spec 03 §4.3)", () => {
  it("globs, excludes and pages", async () => {
    const { find } = await tree();
    const paths = async (input: object) =>
      ((await find.execute({ path: "/workspace", ...input } as never)) as { entries: Array<{ path: string; type: string }> }).entries.map((e) => e.path);
    expect(await paths({ pattern: "**/*.ts" })).toEqual(["/workspace/node_modules/pkg/index.ts", "/workspace/src/a.ts", "/workspace/src/b.ts"]);
    expect(await paths({ pattern: "**/*.ts", exclude: ["node_modules", "node_modules/**"] })).toEqual(["/workspace/src/a.ts", "/workspace/src/b.ts"]);
    expect(await paths({ pattern: "**/*.ts", exclude: "node_modules/**" })).toEqual(["/workspace/src/a.ts", "/workspace/src/b.ts"]);
    expect(await paths({ pattern: "**/*.ts", exclude: ["  "] })).toHaveLength(3);
    expect(await find.execute({ path: "/workspace", pattern: "**", limit: 3 })).toEqual({
      path: "/workspace",
      pattern: "**",
      count: 3,
      entries: [
        { path: "/workspace/README.md", type: "file" },
        { path: "/workspace/link.md", type: "symlink" },
        { path: "/workspace/node_modules", type: "dir" },
      ],
      nextOffset: 3,
    });
    expect(await find.execute({ path: "/workspace", pattern: "**", limit: 3, offset: 3 })).toMatchObject({
      entries: [
        { path: "/workspace/node_modules/pkg", type: "dir" },
        { path: "/workspace/node_modules/pkg/index.ts", type: "file" },
        { path: "/workspace/src", type: "dir" },
      ],
      nextOffset: 6,
    });
  });
});

describe("grep (spec 03 §4.4)", () => {
  it("context, literal vs regex, paging, include, invalid regex", async () => {
    const { grep } = await tree();
    const b = "/workspace/src/b.ts";
    const withContext = (await grep.execute({ path: b, query: "TODO", context: 1 })) as { matches: unknown[] };
    expect(JSON.stringify(withContext.matches[0])).toBe(
      `{"path":"${b}","line":2,"text":"TODO one","context":[{"line":1,"text":"alpha","isMatch":false},{"line":2,"text":"TODO one","isMatch":true},{"line":3,"text":"beta","isMatch":false}]}`,
    );
    expect(await grep.execute({ path: b, query: "T.DO" })).toMatchObject({ count: 0, matches: [] });
    expect(await grep.execute({ path: b, query: "T.DO", regex: true })).toMatchObject({ count: 2 });
    expect(await grep.execute({ path: b, query: "todo", ignoreCase: true })).toMatchObject({ count: 2 });
    const paged = (await grep.execute({ path: "/workspace", query: "TODO", limit: 2 })) as { matches: Array<{ path: string; line: number }>; nextOffset: number };
    expect(paged.matches.map((m) => `${m.path}:${m.line}`)).toEqual(["/workspace/README.md:1", "/workspace/node_modules/pkg/index.ts:1"]);
    expect(paged.nextOffset).toBe(2);
    const included = (await grep.execute({ path: "/workspace", query: "TODO", include: ["src/**", "*.md"] })) as { matches: Array<{ path: string }> };
    expect(included.matches.map((m) => m.path)).toEqual(["/workspace/README.md", b, b]);
    const excluded = (await grep.execute({ path: "/workspace", query: "TODO", exclude: ["node_modules", "node_modules/**"] })) as { count: number };
    expect(excluded.count).toBe(3);
    const bad = (await grep.execute({ path: "/workspace", query: "(", regex: true })) as { error: string };
    expect(bad.error).toMatch(/^Invalid regular expression: .*Unterminated group/);
  });
});
