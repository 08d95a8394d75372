import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../src/index.js";

it("alternations of ** globs match top-level files too (spec 01 §3.4)", async () => {
  const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
  await fs.mkdir("/w/src", { recursive: true });
  for (const path of ["/w/a.txt", "/w/b.md", "/w/c.ts", "/w/src/d.txt", "/w/src/e.md", "/w/x1", "/w/x{1..2}"]) await fs.writeFile(path, "two\n");
  const paths = async (pattern: string) => (await fs.find("/w", pattern)).map((entry) => entry.path);
  expect(await paths("{**/*.txt,**/*.md}")).toEqual(["/w/a.txt", "/w/b.md", "/w/src/d.txt", "/w/src/e.md"]);
  expect(await paths("**/*.{txt,md}")).toEqual(["/w/a.txt", "/w/b.md", "/w/src/d.txt", "/w/src/e.md"]);
  expect(await paths("{src/**,*.ts}")).toEqual(["/w/c.ts", "/w/src/d.txt", "/w/src/e.md"]);
  expect(await paths("x{1..2}")).toEqual(["/w/x{1..2}"]);
  expect((await fs.grep("two", "/w", { include: "{**/*.txt,**/*.md}" })).map((m) => m.path)).toEqual([
    "/w/a.txt", "/w/b.md", "/w/src/d.txt", "/w/src/e.md",
  ]);
  expect(await fs.find("/w", undefined, { exclude: ["{src/**,*.md}"] })).toEqual([
    { path: "/w/a.txt", type: "file" },
    { path: "/w/c.ts", type: "file" },
    { path: "/w/src", type: "dir" },
    { path: "/w/x1", type: "file" },
    { path: "/w/x{1..2}", type: "file" },
  ]);
});

it("expands nested and repeated alternations; unclosed or comma-less braces stay literal", async () => {
  const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
  await fs.mkdir("/g");
  for (const name of ["a.ts", "b.ts", "c.ts", "a.md", "{a}", "{a,b", "ab", "{x}y,z"]) await fs.writeFile(`/g/${name}`, "");
  const paths = async (pattern: string) => (await fs.find("/g", pattern)).map((entry) => entry.path.slice(3)).sort();
  expect(await paths("{a,{b,c}}.ts")).toEqual(["a.ts", "b.ts", "c.ts"]);
  expect(await paths("{a,b}.{ts,md}")).toEqual(["a.md", "a.ts", "b.ts"]);
  expect(await paths("{a}")).toEqual(["{a}"]);
  expect(await paths("{a,b")).toEqual(["{a,b"]);
  expect(await paths("{a,{b}")).toEqual([]);
  expect(await paths("{{x}y,z}")).toEqual([]);
  expect(await paths("a{,b}")).toEqual(["ab"]);
});
