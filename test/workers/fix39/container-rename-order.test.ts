/**
 * Issue 20, run 39, fixer CR: any order of Workspace renames, removals, creations and writes between two pushes (and
 * container-side `mv -T` / `rm -r` / `mkdir` / writes between them) leaves the container as `mv`, `rm -r` and `mkdir`
 * leave a real tree — what only the container holds (ignored `node_modules`, installed by a command) moving with its
 * directory. A differential fuzzer (attacker a's, run 39): a test-local model of the tree, where container-only
 * node_modules move with their directory; names a, b, s, t, a-b, a.b (so `-` and `.` sort between a name and its
 * children); 40 fixed seeds x 12 rounds; after each push the container tree (kinds, bytes) and the Workspace tree are
 * compared with the model, and `skipped` must be empty. Bounded by work: at most 12 rounds of at most 6 ops a seed.
 * Before the fix 4 seeds failed (e.g. `mv a/u a/x; mv a b`: `a/u → b/x` sent first made `b`, blocking `a → b`).
 * Sibling of test/workers/attack39a/container-subdir-renamed-then-parent-renamed-loses-ignored.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

type Node = { kind: "dir"; children: Map<string, Node>; nm?: boolean } | { kind: "file"; text: string };
const W = (p: string) => `/workspace/${p}`;
const NAMES = ["a", "b", "s", "a-b", "a.b", "t"];

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

function list(root: Node, withNm: boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (n: Node, p: string) => {
    if (n.kind !== "dir") return;
    for (const [k, c] of n.children) {
      if (c.kind === "dir" && c.nm && !withNm) continue;
      const path = p ? `${p}/${k}` : k;
      out.set(path, c.kind === "file" ? `file:${c.text}` : "dir");
      walk(c, path);
    }
  };
  walk(root, "");
  return out;
}

function entries(root: Node): { path: string; node: Node; parent: Node & { kind: "dir" }; name: string }[] {
  const out: { path: string; node: Node; parent: Node & { kind: "dir" }; name: string }[] = [];
  const walk = (n: Node & { kind: "dir" }, p: string) => {
    for (const [k, c] of n.children) {
      if (c.kind === "dir" && c.nm) continue;
      const path = p ? `${p}/${k}` : k;
      out.push({ path, node: c, parent: n, name: k });
      if (c.kind === "dir") walk(c, path);
    }
  };
  walk(root as Node & { kind: "dir" }, "");
  return out;
}

const SEEDS = 40;
const BASE = 100;

describe("fix39: container rename order (differential fuzz)", () => {
  for (let seed = BASE; seed < BASE + SEEDS; seed++) {
    it(`seed ${seed}`, async () => {
      const r = rng(seed * 7919);
      const pick = <T,>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
      const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
      const log: string[] = [];
      await inWorkspace(c, async (ws) => {
        const root: Node = { kind: "dir", children: new Map() };
        let n = 0;
        for (let round = 0; round < 12; round++) {
          // container install
          const dirs = [{ path: "", node: root }, ...entries(root).filter((e) => e.node.kind === "dir")].filter((d) => d.node.kind === "dir" && !(d.node as any).children.has("node_modules"));
          if (round > 0 && r() < 0.6 && dirs.length > 0) {
            const d = pick(dirs);
            const p = d.path ? `${d.path}/node_modules` : "node_modules";
            const res = await sh(ws, `mkdir '${p}' && echo n${n} > '${p}/n'`);
            log.push(`container: mkdir ${p}; echo n${n} > ${p}/n`);
            expect(res.exitCode).toBe(0);
            (d.node as any).children.set("node_modules", { kind: "dir", nm: true, children: new Map([["n", { kind: "file", text: `n${n}\n` }]]) });
            n++;
          }
          const inC = r() < 0.35;
          const cmds: string[] = [];
          const ops = 1 + Math.floor(r() * 6);
          for (let i = 0; i < ops; i++) {
            const all = entries(root);
            const dirsNow = [{ path: "", node: root as Node, parent: undefined as any, name: "" }, ...all.filter((e) => e.node.kind === "dir")];
            const kind = r();
            if (kind < 0.4 && all.length > 0) {
              const src = pick(all);
              const targets = dirsNow.filter((d) => d.path !== src.path && !d.path.startsWith(`${src.path}/`));
              const d = pick(targets);
              const name = pick(NAMES);
              const dn = d.node as Node & { kind: "dir" };
              const existing = dn.children.get(name);
              if (existing && !(existing.kind === "file" && src.node.kind === "file")) continue;
              const to = d.path ? `${d.path}/${name}` : name;
              if (to === src.path) continue;
              log.push(`${inC ? "C:" : ""}mv ${src.path} ${to}`);
              if (inC) cmds.push(`mv -T '${src.path}' '${to}'`); else await ws.fs.rename(W(src.path), W(to));
              src.parent.children.delete(src.name);
              dn.children.set(name, src.node);
            } else if (kind < 0.55 && all.length > 0) {
              const e = pick(all);
              log.push(`${inC ? "C:" : ""}rm -r ${e.path}`);
              if (inC) cmds.push(`rm -r '${e.path}'`); else await ws.fs.rm(W(e.path), { recursive: true });
              e.parent.children.delete(e.name);
            } else if (kind < 0.8) {
              const d = pick(dirsNow);
              const dn = d.node as Node & { kind: "dir" };
              const name = pick(NAMES);
              if (dn.children.has(name)) continue;
              const to = d.path ? `${d.path}/${name}` : name;
              log.push(`${inC ? "C:" : ""}mkdir ${to}`);
              if (inC) cmds.push(`mkdir '${to}'`); else await ws.fs.mkdir(W(to));
              dn.children.set(name, { kind: "dir", children: new Map() });
            } else {
              const d = pick(dirsNow);
              const dn = d.node as Node & { kind: "dir" };
              const name = pick(NAMES);
              const ex = dn.children.get(name);
              if (ex && ex.kind !== "file") continue;
              const to = d.path ? `${d.path}/${name}` : name;
              const text = `f${n++}`;
              log.push(`${inC ? "C:" : ""}echo ${text} > ${to}`);
              if (inC) cmds.push(`printf %s ${text} > '${to}'`); else await ws.fs.writeFile(W(to), text);
              dn.children.set(name, { kind: "file", text });
            }
          }
          if (inC && cmds.length > 0) {
            const cr = await sh(ws, `set -e; ${cmds.join("; ")}`);
            expect([cr.exitCode, cr.stderr, cr.skipped], "CLOG: " + log.join("; ")).toEqual([0, "", []]);
          }
          const res = await sh(ws, "true");
          log.push("push");
          const ctree = await c.tree();
          const got = new Map<string, string>();
          for (const [p, e] of ctree) got.set(p, e.kind === "file" ? `file:${await c.text(p)}` : e.kind === "directory" ? "dir" : e.kind);
          const want = list(root, true);
          const sort = (m: Map<string, string>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, v]) => `${p}=${v}`);
          expect({ skipped: res.skipped, tree: sort(got) }, "LOG: " + log.join("; ")).toEqual({ skipped: [], tree: sort(want) });
          // workspace equals model without nm
          const wsl = new Map<string, string>();
          for (const e of await ws.fs.find("/workspace")) {
            const rel = e.path.slice("/workspace/".length);
            const st = await ws.fs.lstat(e.path);
            wsl.set(rel, st.isDirectory ? "dir" : `file:${await ws.fs.readFile(e.path, "utf8")}`);
          }
          expect(sort(wsl), "WSLOG: " + log.join("; ")).toEqual(sort(list(root, false)));
        }
      });
    });
  }
});
