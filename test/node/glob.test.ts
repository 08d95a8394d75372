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
