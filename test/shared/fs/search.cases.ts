/**
 * Spec 01 §3.3–§3.6: find, ls, grep (ordering, globs, pagination, pruning,
 * links, and their error rows).
 */
import { describe, expect } from "vitest";
import { CHUNK, expectFsError, expectTypeError, fsIt, type FsHarness, type FsTestContext } from "./harness.js";

const BAD_PAGE_VALUES: readonly unknown[] = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "1"];

/**
 * /w/.env, /w/A.ts, /w/a/{deep/z.ts, x.ts, y.md}, /w/a-b/q.ts, /w/b.ts,
 * /w/lnk -> a, /w/node_modules/m.ts
 */
async function findTree(t: FsTestContext): Promise<void> {
  await t.fs.mkdir("/w/a/deep", { recursive: true });
  await t.fs.mkdir("/w/a-b");
  await t.fs.mkdir("/w/node_modules");
  for (const f of ["/w/b.ts", "/w/a/x.ts", "/w/a/y.md", "/w/a/deep/z.ts", "/w/A.ts", "/w/a-b/q.ts", "/w/node_modules/m.ts", "/w/.env"]) {
    await t.fs.writeFile(f, f);
  }
  await t.fs.symlink("a", "/w/lnk");
}

const ALL = [
  ["/w/.env", "file"],
  ["/w/A.ts", "file"],
  ["/w/a", "dir"],
  ["/w/a/deep", "dir"],
  ["/w/a/deep/z.ts", "file"],
  ["/w/a/x.ts", "file"],
  ["/w/a/y.md", "file"],
  ["/w/a-b", "dir"],
  ["/w/a-b/q.ts", "file"],
  ["/w/b.ts", "file"],
  ["/w/lnk", "symlink"],
  ["/w/node_modules", "dir"],
  ["/w/node_modules/m.ts", "file"],
] as const;

const entries = (paths: readonly (readonly [string, string])[]) => paths.map(([path, type]) => ({ path, type }));
const pick = (...paths: string[]) => entries(ALL.filter(([p]) => paths.includes(p)));

export function defineSearchCases(h: FsHarness): void {
  describe("find", () => {
    fsIt(h, "DFS pre-order, siblings by byte order, links reported as 'symlink' and not descended", async (t) => {
      await findTree(t);
      expect(await t.fs.find("/w")).toEqual(entries(ALL));
      expect(await t.fs.find("/w", "")).toEqual(entries(ALL));
      expect(await t.fs.find("/w", undefined, {})).toEqual(entries(ALL));
    });

    fsIt(h, "pattern is tested on the path relative to the directory (§3.4 globs)", async (t) => {
      await findTree(t);
      expect(await t.fs.find("/w", "*.ts")).toEqual(pick("/w/A.ts", "/w/b.ts"));
      expect(await t.fs.find("/w", "**/*.ts")).toEqual(
        pick("/w/A.ts", "/w/a/deep/z.ts", "/w/a/x.ts", "/w/a-b/q.ts", "/w/b.ts", "/w/node_modules/m.ts"),
      );
      expect(await t.fs.find("/w", "a")).toEqual(pick("/w/a"));
      expect(await t.fs.find("/w", "a/**")).toEqual(pick("/w/a/deep", "/w/a/deep/z.ts", "/w/a/x.ts", "/w/a/y.md"));
      expect(await t.fs.find("/w", "*")).toEqual(pick("/w/.env", "/w/A.ts", "/w/a", "/w/a-b", "/w/b.ts", "/w/lnk", "/w/node_modules"));
      expect(await t.fs.find("/w", "?.ts")).toEqual(pick("/w/A.ts", "/w/b.ts"));
      expect(await t.fs.find("/w", "{a,b}.ts")).toEqual(pick("/w/b.ts"));
      expect(await t.fs.find("/w", "a/{x,y}.{ts,md}")).toEqual(pick("/w/a/x.ts", "/w/a/y.md"));
      expect(await t.fs.find("/w", "**")).toEqual(entries(ALL));
      expect(await t.fs.find("/w", "**/deep/*")).toEqual(pick("/w/a/deep/z.ts"));
      expect(await t.fs.find("/w", "a/**/z.ts")).toEqual(pick("/w/a/deep/z.ts"));
      expect(await t.fs.find("/w", ".env")).toEqual(pick("/w/.env"));
      expect(await t.fs.find("/w", "lnk/*")).toEqual([]);
      expect(await t.fs.find("/w", "*.TS")).toEqual([]);
      expect(await t.fs.find("/w", "a?x.ts")).toEqual([]); // ? never matches '/'
      expect(await t.fs.find("/w", "a*")).toEqual(pick("/w/a", "/w/a-b")); // * never crosses '/'
      expect(await t.fs.find("/w", "a*/*.ts")).toEqual(pick("/w/a/x.ts", "/w/a-b/q.ts"));
    });

    fsIt(h, "glob literals: [ ] . and unbalanced/comma-less braces are literal", async (t) => {
      await t.fs.mkdir("/g");
      for (const f of ["[x].md", "x.md", "xamd", "{a}", "a", "{a,b", "a.ts", "b.ts", "c.ts", "(p)+$.ts", "p.ts", "^a|b"]) await t.fs.writeFile(`/g/${f}`, "");
      const paths = async (pattern: string) => (await t.fs.find("/g", pattern)).map((e) => e.path);
      expect(await paths("[x].md")).toEqual(["/g/[x].md"]);
      expect(await paths("x.md")).toEqual(["/g/x.md"]);
      expect(await paths("{a}")).toEqual(["/g/{a}"]);
      expect(await paths("{a,b")).toEqual(["/g/{a,b"]);
      expect(await paths("{a,{b,c}}.ts")).toEqual(["/g/a.ts", "/g/b.ts", "/g/c.ts"]);
      expect(await paths("(p)+$.ts")).toEqual(["/g/(p)+$.ts"]);
      expect(await paths("^a|b")).toEqual(["/g/^a|b"]);
      expect(await paths("x?md")).toEqual(["/g/x.md", "/g/xamd"]);
    });

    fsIt(h, "exclude: tested first on the relative path, prunes directories, X/** prunes X, '' ignored", async (t) => {
      await findTree(t);
      expect(await t.fs.find("/w", undefined, { exclude: ["node_modules"] })).toEqual(
        entries(ALL.filter(([p]) => !p.startsWith("/w/node_modules"))),
      );
      expect(await t.fs.find("/w", "**/*.ts", { exclude: ["a"] })).toEqual(pick("/w/A.ts", "/w/a-b/q.ts", "/w/b.ts", "/w/node_modules/m.ts"));
      expect(await t.fs.find("/w", undefined, { exclude: ["a/**"] })).toEqual(
        entries(ALL.filter(([p]) => !p.startsWith("/w/a/"))),
      );
      expect(await t.fs.find("/w", undefined, { exclude: ["*.md", "*.ts"] })).toEqual(
        entries(ALL.filter(([p]) => !["/w/A.ts", "/w/b.ts"].includes(p))),
      );
      expect(await t.fs.find("/w", undefined, { exclude: ["**/*.md", "**/deep"] })).toEqual(
        entries(ALL.filter(([p]) => p !== "/w/a/y.md" && !p.startsWith("/w/a/deep"))),
      );
      expect(await t.fs.find("/w", undefined, { exclude: [""] })).toEqual(entries(ALL));
      expect(await t.fs.find("/w", undefined, { exclude: [] })).toEqual(entries(ALL));
      expect(await t.fs.find("/w", "*", { exclude: ["lnk"] })).toEqual(pick("/w/.env", "/w/A.ts", "/w/a", "/w/a-b", "/w/b.ts", "/w/node_modules"));
    });

    fsIt(h, "offset/limit count matches; limit 0 → []; bad values → TypeError", async (t) => {
      await findTree(t);
      expect(await t.fs.find("/w", "**/*.ts", { offset: 1, limit: 2 })).toEqual(pick("/w/a/deep/z.ts", "/w/a/x.ts"));
      expect(await t.fs.find("/w", undefined, { offset: 12 })).toEqual(pick("/w/node_modules/m.ts"));
      expect(await t.fs.find("/w", undefined, { offset: 13 })).toEqual([]);
      expect(await t.fs.find("/w", undefined, { limit: 0 })).toEqual([]);
      expect(await t.fs.find("/w", undefined, { limit: 3 })).toEqual(entries(ALL.slice(0, 3)));
      for (const bad of BAD_PAGE_VALUES) {
        await expectTypeError(t.fs.find("/w", undefined, { limit: bad as number }));
        await expectTypeError(t.fs.find("/w", "*", { offset: bad as number }));
      }
    });

    fsIt(h, "large directories are walked completely and in order (paged children)", async (t) => {
      await t.fs.mkdir("/big/mid", { recursive: true });
      const names = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, "0")}`);
      for (const n of names) await t.fs.writeFile(`/big/${n}`, "");
      for (const n of names.slice(0, 150)) await t.fs.writeFile(`/big/mid/${n}`, "");
      const found = await t.fs.find("/big");
      const expected = [
        ...names.map((n) => `/big/${n}`),
        "/big/mid",
        ...names.slice(0, 150).map((n) => `/big/mid/${n}`),
      ];
      expect(found.map((e) => e.path)).toEqual(expected);
      expect((await t.fs.find("/big", undefined, { offset: 299, limit: 3 })).map((e) => e.path)).toEqual(expected.slice(299, 302));
      expect((await t.fs.find("/big", "mid/*", { offset: 140 })).map((e) => e.path)).toEqual(expected.slice(301 + 140));
    });

    fsIt(h, "start directory: links followed, paths from the given path, error rows in check order", async (t) => {
      await findTree(t);
      await t.fs.symlink("/w/a", "/la");
      await t.fs.writeFile("/f", "");
      await t.fs.symlink("/nowhere", "/dangling");
      expect(await t.fs.find("/la")).toEqual([
        { path: "/la/deep", type: "dir" },
        { path: "/la/deep/z.ts", type: "file" },
        { path: "/la/x.ts", type: "file" },
        { path: "/la/y.md", type: "file" },
      ]);
      expect((await t.fs.find("/w/a/")).map((e) => e.path)).toEqual(["/w/a/deep", "/w/a/deep/z.ts", "/w/a/x.ts", "/w/a/y.md"]);
      expect((await t.fs.find("/", "*")).map((e) => e.path)).toEqual(["/dangling", "/f", "/la", "/w"]);
      await expectFsError(t.fs.find("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.find("/dangling"), "ENOENT");
      await expectFsError(t.fs.find("/f"), "ENOTDIR", "/f");
      await expectFsError(t.fs.find("/missing", "*", { limit: -1 }), "ENOENT");
      await expectFsError(t.fs.find("/f", "*", { limit: -1 }), "ENOTDIR");
      await expectFsError(t.fs.find("", "*", { limit: -1 }), "EINVAL");
    });
  });

  describe("ls", () => {
    async function lsTree(t: FsTestContext): Promise<void> {
      await t.fs.mkdir("/notes/sub", { recursive: true });
      await t.fs.mkdir("/notes-old");
      await t.fs.mkdir("/a");
      await t.fs.mkdir("/a-b");
      await t.fs.mkdir("/p_q");
      await t.fs.mkdir("/pxq");
      await t.fs.mkdir("/empty");
      for (const f of ["/notes/a.txt", "/notes/sub/b.txt", "/notes-old/x", "/notes.txt", "/a-b/x", "/a/x", "/p_q/1", "/pxq/2", "/zz"]) {
        await t.fs.writeFile(f, f);
      }
      await t.fs.symlink("a.txt", "/notes/l");
      await t.fs.symlink("/notes/sub", "/notes/dirlink");
      await t.fs.symlink("/notes", "/nlink");
    }

    fsIt(h, "regular files at or under prefix, full-path byte order, segment-aware", async (t) => {
      await lsTree(t);
      expect(await t.fs.ls("/")).toEqual([
        "/a-b/x",
        "/a/x",
        "/notes-old/x",
        "/notes.txt",
        "/notes/a.txt",
        "/notes/sub/b.txt",
        "/p_q/1",
        "/pxq/2",
        "/zz",
      ]);
      expect(await t.fs.ls("/notes")).toEqual(["/notes/a.txt", "/notes/sub/b.txt"]);
      expect(await t.fs.ls("/notes/")).toEqual(["/notes/a.txt", "/notes/sub/b.txt"]);
      expect(await t.fs.ls("/a")).toEqual(["/a/x"]);
      expect(await t.fs.ls("/p_q")).toEqual(["/p_q/1"]);
      expect(await t.fs.ls("/notes/a.txt")).toEqual(["/notes/a.txt"]);
      expect(await t.fs.ls("/notes/./sub/../a.txt")).toEqual(["/notes/a.txt"]);
    });

    fsIt(h, "missing, through a file, or through any link → []; only EINVAL rejects", async (t) => {
      await lsTree(t);
      for (const p of ["/missing", "/missing/x", "/notes.txt/x", "/notes/l", "/notes/dirlink", "/notes/dirlink/b.txt", "/nlink", "/nlink/a.txt", "/empty", "/not"]) {
        expect(await t.fs.ls(p), p).toEqual([]);
      }
      await t.fs.symlink("/loop", "/loop");
      expect(await t.fs.ls("/loop")).toEqual([]);
      expect(await t.fs.ls("/loop/x")).toEqual([]);
      for (const bad of ["", "rel", "/..", "/a\0"]) await expectFsError(t.fs.ls(bad), "EINVAL");
    });
  });

  describe("grep", () => {
    async function grepTree(t: FsTestContext): Promise<void> {
      await t.fs.mkdir("/g/sub", { recursive: true });
      await t.fs.writeFile("/g/a.txt", "foo\nbar\nFoo baz\nfoo\n");
      await t.fs.writeFile("/g/b.md", "xfoo\r\nno\n");
      await t.fs.writeFile("/g/sub/c.txt", "line1\nfoo");
      await t.fs.symlink("a.txt", "/g/lnk");
      await t.fs.symlink("sub", "/g/sublink");
    }

    fsIt(h, "literal, case-sensitive by default; discovery order then line order; \\r kept; links not read", async (t) => {
      await grepTree(t);
      expect(await t.fs.grep("foo", "/g")).toEqual([
        { path: "/g/a.txt", line: 1, text: "foo" },
        { path: "/g/a.txt", line: 4, text: "foo" },
        { path: "/g/b.md", line: 1, text: "xfoo\r" },
        { path: "/g/sub/c.txt", line: 2, text: "foo" },
      ]);
      expect(await t.fs.grep("Foo", "/g")).toEqual([{ path: "/g/a.txt", line: 3, text: "Foo baz" }]);
      expect(await t.fs.grep("a.c", "/g")).toEqual([]);
      expect(await t.fs.grep("(", "/g")).toEqual([]);
      expect(await t.fs.grep("o b", "/g")).toEqual([{ path: "/g/a.txt", line: 3, text: "Foo baz" }]);
    });

    fsIt(h, "ignoreCase, regex, invalid regex → TypeError, limit 0 → [] without compiling", async (t) => {
      await grepTree(t);
      expect((await t.fs.grep("FOO", "/g", { ignoreCase: true })).map((m) => `${m.path}:${m.line}`)).toEqual([
        "/g/a.txt:1",
        "/g/a.txt:3",
        "/g/a.txt:4",
        "/g/b.md:1",
        "/g/sub/c.txt:2",
      ]);
      expect(await t.fs.grep("^fo+$", "/g", { regex: true })).toEqual([
        { path: "/g/a.txt", line: 1, text: "foo" },
        { path: "/g/a.txt", line: 4, text: "foo" },
        { path: "/g/sub/c.txt", line: 2, text: "foo" },
      ]);
      expect(await t.fs.grep("foo\\r$", "/g", { regex: true })).toEqual([{ path: "/g/b.md", line: 1, text: "xfoo\r" }]);
      expect((await t.fs.grep("^F", "/g", { regex: true, ignoreCase: true })).map((m) => m.line)).toEqual([1, 3, 4, 2]);
      expect(await t.fs.grep("a.c", "/g", { regex: true })).toEqual([]);
      await expectTypeError(t.fs.grep("(", "/g", { regex: true }), /Invalid regular expression/);
      await expectTypeError(t.fs.grep("[", "/g/a.txt", { regex: true }), /Invalid regular expression/);
      expect(await t.fs.grep("(", "/g", { regex: true, limit: 0 })).toEqual([]);
      expect(await t.fs.grep("foo", "/g", { limit: 0 })).toEqual([]);
    });

    fsIt(h, "regexes run in linear time (issue 12 §1): the (x+x+)+y reproduction, and constructs that need backtracking are named", async (t) => {
      const hostile = "x".repeat(40) + "!";
      await t.fs.writeFile("/x.txt", `${hostile}\nfoobar\n`);
      const started = Date.now();
      expect(await t.fs.grep("(x+x+)+y", "/x.txt", { regex: true })).toEqual([]);
      expect(await t.fs.grep("(x+x+)+!", "/x.txt", { regex: true, ignoreCase: true })).toEqual([{ path: "/x.txt", line: 1, text: hostile }]);
      expect(Date.now() - started).toBeLessThan(5000);
      const suffix = "is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)";
      const backref = await expectTypeError(t.fs.grep("(o)\\1", "/x.txt", { regex: true }));
      expect(backref.message).toBe(`Invalid regular expression: /(o)\\1/: backreference \\1 ${suffix}`);
      const lookahead = await expectTypeError(t.fs.grep("foo(?=bar)", "/x.txt", { regex: true }));
      expect(lookahead.message).toBe(`Invalid regular expression: /foo(?=bar)/: lookahead (?=…) ${suffix}`);
      // An inline modifier group: refused by grep where V8 accepts it (newer V8s), a syntax error where it does not (Node 20).
      const modifier = await expectTypeError(t.fs.grep("(?i:foo)", "/x.txt", { regex: true }));
      expect([`Invalid regular expression: /(?i:foo)/: modifier group (?i:…) ${suffix}`, "Invalid regular expression: /(?i:foo)/: Invalid group"]).toContain(modifier.message);
      expect(await t.fs.grep("(o)\\1", "/x.txt")).toEqual([]); // literal mode: just text
    });

    fsIt(h, "literal patterns escape regex syntax, also with ignoreCase", async (t) => {
      await t.fs.writeFile("/s", "a.c\nabc\ncost $5\nback\\slash\n(x)+\nA.C\n");
      expect((await t.fs.grep("A.C", "/s", { ignoreCase: true })).map((m) => m.line)).toEqual([1, 6]);
      expect((await t.fs.grep("$5", "/s")).map((m) => m.text)).toEqual(["cost $5"]);
      expect((await t.fs.grep("\\", "/s")).map((m) => m.text)).toEqual(["back\\slash"]);
      expect((await t.fs.grep("(x)+", "/s")).map((m) => m.line)).toEqual([5]);
      expect((await t.fs.grep("^a", "/s")).map((m) => m.line)).toEqual([]);
      expect((await t.fs.grep("^a", "/s", { regex: true })).map((m) => m.line)).toEqual([1, 2]);
    });

    fsIt(h, "'' matches every line; a final newline adds no line; lines numbered from 1", async (t) => {
      await grepTree(t);
      expect(await t.fs.grep("", "/g/a.txt")).toEqual([
        { path: "/g/a.txt", line: 1, text: "foo" },
        { path: "/g/a.txt", line: 2, text: "bar" },
        { path: "/g/a.txt", line: 3, text: "Foo baz" },
        { path: "/g/a.txt", line: 4, text: "foo" },
      ]);
      expect(await t.fs.grep("", "/g/sub/c.txt")).toEqual([
        { path: "/g/sub/c.txt", line: 1, text: "line1" },
        { path: "/g/sub/c.txt", line: 2, text: "foo" },
      ]);
      await t.fs.writeFile("/blank", "\n\nx\n\n");
      expect((await t.fs.grep("", "/blank")).map((m) => [m.line, m.text])).toEqual([
        [1, ""],
        [2, ""],
        [3, "x"],
        [4, ""],
      ]);
      await t.fs.writeFile("/empty", "");
      expect(await t.fs.grep("", "/empty")).toEqual([]);
    });

    fsIt(h, "a file path: only that file, include/exclude ignored; a link path is followed", async (t) => {
      await grepTree(t);
      const a = [
        { path: "/g/a.txt", line: 1, text: "foo" },
        { path: "/g/a.txt", line: 4, text: "foo" },
      ];
      expect(await t.fs.grep("foo", "/g/a.txt", { include: "*.md" })).toEqual(a);
      expect(await t.fs.grep("foo", "/g/a.txt", { exclude: ["a.txt", "**"] })).toEqual(a);
      expect(await t.fs.grep("foo", "/g/lnk")).toEqual(a.map((m) => ({ ...m, path: "/g/lnk" })));
      expect((await t.fs.grep("foo", "/g/sublink")).map((m) => m.path)).toEqual(["/g/sublink/c.txt"]);
    });

    fsIt(h, "include/exclude follow find() over the directory", async (t) => {
      await grepTree(t);
      expect((await t.fs.grep("foo", "/g", { include: "*.md" })).map((m) => m.path)).toEqual(["/g/b.md"]);
      expect((await t.fs.grep("foo", "/g", { include: "**/*.txt" })).map((m) => `${m.path}:${m.line}`)).toEqual([
        "/g/a.txt:1",
        "/g/a.txt:4",
        "/g/sub/c.txt:2",
      ]);
      expect((await t.fs.grep("foo", "/g", { include: "*.txt" })).map((m) => m.path)).toEqual(["/g/a.txt", "/g/a.txt"]);
      expect((await t.fs.grep("foo", "/g", { exclude: ["sub"] })).map((m) => m.path)).toEqual(["/g/a.txt", "/g/a.txt", "/g/b.md"]);
      expect((await t.fs.grep("foo", "/g", { exclude: ["*.txt"] })).map((m) => m.path)).toEqual(["/g/b.md", "/g/sub/c.txt"]);
    });

    fsIt(h, "offset skips matching lines across files; limit caps; bad options → TypeError", async (t) => {
      await grepTree(t);
      expect(await t.fs.grep("foo", "/g", { offset: 1, limit: 2 })).toEqual([
        { path: "/g/a.txt", line: 4, text: "foo" },
        { path: "/g/b.md", line: 1, text: "xfoo\r" },
      ]);
      expect(await t.fs.grep("foo", "/g", { offset: 3 })).toEqual([{ path: "/g/sub/c.txt", line: 2, text: "foo" }]);
      expect(await t.fs.grep("foo", "/g", { offset: 4 })).toEqual([]);
      for (const bad of BAD_PAGE_VALUES) {
        await expectTypeError(t.fs.grep("foo", "/g", { limit: bad as number }));
        await expectTypeError(t.fs.grep("foo", "/g", { offset: bad as number }));
        await expectTypeError(t.fs.grep("foo", "/g", { context: bad as number }));
      }
    });

    fsIt(h, "context windows: up to N before/after, cut at file bounds, not merged, absent for 0", async (t) => {
      const lines = Array.from({ length: 10 }, (_, i) => `L${String(i + 1).padStart(2, "0")}`);
      await t.fs.writeFile("/c.txt", `${lines.join("\n")}\n`);
      const ctx = (from: number, to: number, match: number) =>
        Array.from({ length: to - from + 1 }, (_, i) => ({ line: from + i, text: lines[from + i - 1], isMatch: from + i === match }));
      expect(await t.fs.grep("L05", "/c.txt", { context: 2 })).toEqual([{ path: "/c.txt", line: 5, text: "L05", context: ctx(3, 7, 5) }]);
      expect(await t.fs.grep("L01", "/c.txt", { context: 2 })).toEqual([{ path: "/c.txt", line: 1, text: "L01", context: ctx(1, 3, 1) }]);
      expect(await t.fs.grep("L10", "/c.txt", { context: 3 })).toEqual([{ path: "/c.txt", line: 10, text: "L10", context: ctx(7, 10, 10) }]);
      expect(await t.fs.grep("L05", "/c.txt", { context: 100 })).toEqual([{ path: "/c.txt", line: 5, text: "L05", context: ctx(1, 10, 5) }]);
      const zero = await t.fs.grep("L05", "/c.txt", { context: 0 });
      expect(zero).toEqual([{ path: "/c.txt", line: 5, text: "L05" }]);
      expect(Object.keys(zero[0]).sort()).toEqual(["line", "path", "text"]);
      // overlapping windows are reported separately (not merged)
      const two = await t.fs.grep("L0[45]", "/c.txt", { context: 1, regex: true });
      expect(two.map((m) => [m.line, m.context?.map((c) => c.line)])).toEqual([
        [4, [3, 4, 5]],
        [5, [4, 5, 6]],
      ]);
      expect(two[0].context?.[1]).toEqual({ line: 4, text: "L04", isMatch: true });
      expect(two[0].context?.[0].isMatch).toBe(false);
      // offset skips matching lines; context still comes from the file
      expect((await t.fs.grep("L0[45]", "/c.txt", { context: 1, regex: true, offset: 1 })).map((m) => [m.line, m.context?.map((c) => c.line)])).toEqual([
        [5, [4, 5, 6]],
      ]);
      // a page ending in a match still gets its trailing context
      expect(await t.fs.grep("L05", "/c.txt", { context: 1, limit: 1 })).toEqual([{ path: "/c.txt", line: 5, text: "L05", context: ctx(4, 6, 5) }]);
    });

    fsIt(h, "streaming decode: bad bytes → U+FFFD, lines and characters spanning chunk boundaries", async (t) => {
      await t.fs.writeFile("/bad", new Uint8Array([0x66, 0xff, 0x0a, 0x67]));
      expect(await t.fs.grep("f", "/bad")).toEqual([{ path: "/bad", line: 1, text: "f\uFFFD" }]);
      const big = new Uint8Array(CHUNK * 2 + 100).fill(0x78); // 'x'
      const enc = new TextEncoder();
      big.set(enc.encode("\nneedle"), CHUNK - 3); // "needle" spans the first boundary
      big.set(enc.encode("\né marker\n"), 2 * CHUNK - 2); // 'é' straddles the second boundary
      await t.fs.writeFile("/big", big);
      const needle = await t.fs.grep("needle", "/big");
      expect(needle.map((m) => m.line)).toEqual([2]);
      expect(needle[0].text.startsWith("needle")).toBe(true);
      expect(needle[0].text.length).toBe(CHUNK * 2 - 2 - (CHUNK - 3) - 1);
      expect(await t.fs.grep("é marker", "/big")).toEqual([{ path: "/big", line: 3, text: "é marker" }]);
      expect((await t.fs.grep("\uFFFD", "/big")).length).toBe(0);
    });

    fsIt(h, "error rows in check order", async (t) => {
      await grepTree(t);
      await t.fs.symlink("/nowhere", "/dangling");
      await t.fs.symlink("/loop", "/loop");
      await expectFsError(t.fs.grep("x", ""), "EINVAL");
      await expectFsError(t.fs.grep("x", "rel"), "EINVAL");
      await expectFsError(t.fs.grep("x", "/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.grep("x", "/dangling"), "ENOENT");
      await expectFsError(t.fs.grep("x", "/g/a.txt/x"), "ENOENT");
      await expectFsError(t.fs.grep("x", "/loop"), "ELOOP");
      await expectFsError(t.fs.grep("(", "/missing", { regex: true }), "ENOENT");
      await expectFsError(t.fs.grep("x", "/missing", { limit: -1 }), "ENOENT");
      await expectTypeError(t.fs.grep("(", "/g", { regex: true, context: -1 }));
      expect(await t.fs.grep("x", "/", { limit: 0 })).toEqual([]);
    });
  });
}
