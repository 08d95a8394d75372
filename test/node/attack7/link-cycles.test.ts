/**
 * Issue 20 seventh attack run, category 3 (symlink loops) on Node: a tree
 * /w/d holding `f`, `self -> .` and `up -> ..` (two cycles, ~2^40 paths for
 * a walker that follows links — the shell's grep -r never ends on it, see
 * test/workers/attack7/shell-link-cycles.test.ts), under workspace.fs
 * (find, grep, ls), the file tools (grep, find, ls and read THROUGH the
 * links, delete of the link) and git (status, add -A, commit, ls-files,
 * clean -n). Withstood: every walker lists the links as links and walks
 * the tree once, reads through a chain of the links resolve, delete removes
 * only the link, git records the links as links.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

async function tree() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
  await ws.fs.mkdir("/w/d", { recursive: true });
  await ws.fs.writeFile("/w/d/f", "hello\n");
  await ws.fs.symlink(".", "/w/d/self");
  await ws.fs.symlink("..", "/w/d/up");
  return ws;
}
const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");

describe("attack7: two link cycles under the Workspace's own walkers", () => {
  it("workspace.fs find, grep and ls walk the tree once", { timeout: 30_000 }, async () => {
    const ws = await tree();
    expect((await ws.fs.find("/w", "**")).map((e) => e.path)).toEqual(["/w/d", "/w/d/f", "/w/d/self", "/w/d/up"]);
    expect((await ws.fs.grep("hello", "/w")).map((m) => m.path)).toEqual(["/w/d/f"]);
    expect(await ws.fs.ls("/w")).toEqual(["/w/d/f"]);
  });

  it("the file tools: grep and find once, ls and read through a chain of the links, delete removes only the link", { timeout: 30_000 }, async () => {
    const ws = await tree();
    const { execute } = createPiTools({ workspace: ws });
    const call = (name: string, args: Record<string, unknown>) => execute({ id: name, name, arguments: args });
    expect(JSON.parse(text(await call("grep", { path: "/w", query: "hello" })))).toEqual({ path: "/w", query: "hello", count: 1, matches: [{ path: "/w/d/f", line: 1, text: "hello" }] });
    expect(JSON.parse(text(await call("find", { path: "/w", pattern: "**/f" })))).toEqual({ path: "/w", pattern: "**/f", count: 1, entries: [{ path: "/w/d/f", type: "file" }] });
    const ls = JSON.parse(text(await call("ls", { path: "/w/d/self/self/up/d" }))) as { entries: { name: string; isSymbolicLink: boolean }[] };
    expect(ls.entries.map((e) => [e.name, e.isSymbolicLink])).toEqual([["f", false], ["self", true], ["up", true]]);
    expect(text(await call("read", { path: "/w/d/self/up/d/self/f" }))).toBe("hello");
    expect(text(await call("delete", { path: "/w/d/self", recursive: true }))).toBe('{"deleted":"/w/d/self"}');
    expect((await ws.fs.readdir("/w/d")).map((e) => e.name)).toEqual(["f", "up"]);
    expect(await ws.fs.readFile("/w/d/f", "utf8")).toBe("hello\n");
  });

  it("git: status, add -A, commit, ls-files and clean -n record the links as links", { timeout: 30_000 }, async () => {
    const ws = await tree();
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/w" });
    await cli("init");
    expect(await cli("status", "--porcelain=v1")).toEqual({ stdout: "?? d/\n", stderr: "", exitCode: 0 });
    expect(await cli("add", "-A")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await cli("commit", "-m", "c")).exitCode).toBe(0);
    expect(await cli("ls-files")).toEqual({ stdout: "d/f\nd/self\nd/up\n", stderr: "", exitCode: 0 });
    expect(await cli("clean", "-n")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await cli("cat-file", "-p", "HEAD:d/self")).stdout).toBe(".");
  });
});
