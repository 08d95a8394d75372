/**
 * Which walk each shadowed command asks of the shell's fs adapter
 * (src/backends/worker-shell/walks.ts), and what the adapter's walks do
 * over a Workspace with link cycles (the workerd side is
 * test/workers/attack7/shell-link-cycles.test.ts).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";
import { grepWalk, tarWalk } from "../../../src/backends/worker-shell/walks.js";

describe("grepWalk / tarWalk", () => {
  it("grep: -R (anywhere in a cluster, or --dereference-recursive) lists each directory once; -r skips links; the value of -e/-f/-m/-A/-B/-C is not read as options", () => {
    expect([
      grepWalk(["-r", "x", "."]),
      grepWalk(["-rn", "x"]),
      grepWalk(["--recursive", "x"]),
      grepWalk(["-nR", "x"]),
      grepWalk(["-r", "--dereference-recursive", "x"]),
      grepWalk(["x", "f"]),
      grepWalk(["-e", "-R", "f"]),
      grepWalk(["-eR", "f"]),
      grepWalk(["-C", "2", "-r", "x"]),
      grepWalk(["--", "-r", "f"]),
    ]).toEqual(["skip-links", "skip-links", "skip-links", "once", "once", undefined, undefined, undefined, "skip-links", undefined]);
  });

  it("tar: creating (-c, --create, old-style cf) keeps links as links unless -h/--dereference; listing and extracting walk nothing", () => {
    expect([
      tarWalk(["-cf", "t.tar", "d"]),
      tarWalk(["cf", "t.tar", "d"]),
      tarWalk(["--create", "-f", "t.tar", "d"]),
      tarWalk(["-chf", "t.tar", "d"]),
      tarWalk(["-c", "--dereference", "-f", "t.tar", "d"]),
      tarWalk(["-tf", "t.tar"]),
      tarWalk(["-xf", "t.tar"]),
    ]).toEqual(["links-as-links", "links-as-links", "links-as-links", undefined, undefined, undefined, undefined]);
  });
});

describe("WorkspaceFsAdapter.walking", () => {
  async function tree() {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/w/d", { recursive: true });
    await ws.fs.writeFile("/w/d/f", "hello");
    await ws.fs.symlink(".", "/w/d/self");
    await ws.fs.symlink("..", "/w/d/up");
    return new WorkspaceFsAdapter(ws.fs);
  }
  const names = (entries: { name: string }[]) => entries.map((e) => e.name);

  it("skip-links leaves links out of listings; once lists a directory (by its real path) once; links-as-links makes stat an lstat; all end with the walk", async () => {
    const fs = await tree();
    const skip = await fs.walking("skip-links", async () => names(await fs.readdirWithFileTypes("/w/d")));
    const once = await fs.walking("once", async () => [
      names(await fs.readdirWithFileTypes("/w/d")),
      names(await fs.readdirWithFileTypes("/w/d/self")),
      names(await fs.readdirWithFileTypes("/w/d/up")),
      names(await fs.readdirWithFileTypes("/w/d/up/d")),
    ]);
    const asLinks = await fs.walking("links-as-links", async () => (await fs.stat("/w/d/self")).isSymbolicLink);
    expect({ skip, once, asLinks }).toEqual({ skip: ["f"], once: [["f", "self", "up"], [], ["d"], []], asLinks: true });
    expect(names(await fs.readdirWithFileTypes("/w/d/self"))).toEqual(["f", "self", "up"]);
    expect((await fs.stat("/w/d/self")).isDirectory).toBe(true);
  });
});
