/**
 * Issue 20, run 28, fixer DT: tar -x refused every link member whose target held a `..` (`tar: x: unsafe symlink
 * target`, status 2) — npm's `node_modules/.bin/x -> ../pkg/cli.js`, a repository's `docs/README -> ../README`; GNU
 * tar 1.34 extracts them all.
 * Tried (GNU tar 1.34 in a temp dir, the same members built with `ln -s` and `tar -c`): `node_modules/.bin/x ->
 * ../pkg/cli.js`, `d/ok -> ../x`, `d/e/ok2 -> ../../d/ok`, `up -> ../x`, `d/esc -> ../../outside`, `abs ->
 * /etc/passwd`, `mid -> a/../../b`, `--strip-components=1`, and a chain `a/b -> ..`, `p -> a/b`, `q -> p/..`:
 * GNU extracts every one (status 0).
 * Fixed: src/backends/worker-shell/isolate/archive.ts (`symlinkLeaves`, called by tarExtractMember): a link
 * member's target may start with `..`, no more of them than the link's directory (every link on its path resolved)
 * lies below the extraction directory, then names; refused as before (`tar: up: unsafe symlink target`, status 2):
 * a target that leads out (`up -> ../x`, `d/esc -> ../../outside`), an absolute one, and one with a `..` after a
 * name (`mid -> a/../../b`, and `q -> p/..` where p leads to o through a/b -> .., which read lexically stays in o
 * but leads to o's parent); `-P` makes them all as written. So no chain of links an archive makes leads out of
 * the extraction directory.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, resetTree, sh } from "../shell/helpers.js";
import { ustar, type UstarMember } from "../attack23b/ustar.js";

const link = (name: string, linkname: string): UstarMember => ({ name, type: "2", linkname, mode: 0o777 });

const ARCHIVES: Record<string, UstarMember[]> = {
  "npm.tar": [
    { name: "node_modules/", type: "5" },
    { name: "node_modules/pkg/", type: "5" },
    { name: "node_modules/pkg/cli.js", content: "hi\n" },
    { name: "node_modules/.bin/", type: "5" },
    link("node_modules/.bin/x", "../pkg/cli.js"),
  ],
  "b.tar": [link("up", "../x"), link("d/esc", "../../outside"), link("abs", "/etc/passwd"), link("mid", "a/../../b"), link("d/ok", "../x"), link("d/e/ok2", "../../d/ok")],
  "c.tar": [link("top/.bin/x", "../pkg/cli.js"), link("top/esc", "../x")],
  "e.tar": [link("a/b", ".."), link("p", "a/b"), link("q", "p/.."), link("r", "p/../x")],
  "f.tar": [link("d", "."), link("d/l", "../x"), link("n/m/deep", "../../n/k"), link("n/in", "k/../j")],
};

const TREE = { dirs: ["outside"], files: { x: "X\n", "outside/secret": "S\n" } };

async function cases(commands: readonly string[]): Promise<[string, string, string][]> {
  return inShellWorkspace(async (ws) => {
    const out: [string, string, string][] = [];
    for (const command of commands) {
      await resetTree(ws, TREE);
      for (const [name, members] of Object.entries(ARCHIVES)) await ws.fs.writeFile(`/workspace/${name}`, ustar(members));
      const r = await sh(ws, command, { cwd: "/workspace" });
      out.push([command, r.stdout, r.stderr]);
    }
    return out;
  });
}

it("tar -x makes a link whose target stays in the extraction directory, refuses one that leaves it", async () => {
  const expected: [string, string, string][] = [
    // GNU tar 1.34: the same.
    ["mkdir o; tar -xf npm.tar -C o; echo rc=$?; readlink o/node_modules/.bin/x; cat o/node_modules/.bin/x", "rc=0\n../pkg/cli.js\nhi\n", ""],
    ["tar -xf npm.tar; echo rc=$?; cat node_modules/.bin/x", "rc=0\nhi\n", ""],
    // GNU tar 1.34: rc=0 and every link made (o/up -> ../x, o/d/esc -> ../../outside, o/abs -> /etc/passwd, o/mid).
    [
      "mkdir o; tar -xf b.tar -C o; echo rc=$?; find o -type l -printf '%p -> %l\\n' | sort",
      "rc=2\no/d/e/ok2 -> ../../d/ok\no/d/ok -> ../x\n",
      "tar: up: unsafe symlink target\ntar: d/esc: unsafe symlink target\ntar: abs: unsafe symlink target\ntar: mid: unsafe symlink target\n",
    ],
    // -P (--absolute-names) makes them as written, as GNU.
    ["mkdir o; tar -xPf b.tar -C o; echo rc=$?; readlink o/up o/d/esc o/mid; cat o/up", "rc=0\n../x\n../../outside\na/../../b\nX\n", ""],
    // GNU tar 1.34: rc=0, o/.bin/x -> ../pkg/cli.js and o/esc -> ../x.
    ["mkdir o; tar -xf c.tar -C o --strip-components=1; echo rc=$?; find o -type l -printf '%p -> %l\\n'", "rc=2\no/.bin/x -> ../pkg/cli.js\n", "tar: esc: unsafe symlink target\n"],
    // GNU tar 1.34: rc=0, q -> p/.. and r -> p/../x made: through p and a/b they lead out of o (to /workspace/x).
    ["mkdir o; tar -xf e.tar -C o; echo rc=$?; find o -type l -printf '%p -> %l\\n' | sort", "rc=2\no/a/b -> ..\no/p -> a/b\n", "tar: q: unsafe symlink target\ntar: r: unsafe symlink target\n"],
    // GNU tar 1.34: rc=0, all made; d/l is o/l (d -> .), so ../x would be /workspace/x. A `..` after a name is refused.
    ["mkdir o; tar -xf f.tar -C o; echo rc=$?; find o -type l -printf '%p -> %l\\n' | sort", "rc=2\no/d -> .\no/n/m/deep -> ../../n/k\n", "tar: d/l: unsafe symlink target\ntar: n/in: unsafe symlink target\n"],
  ];
  expect(await cases(expected.map(([command]) => command))).toEqual(expected);
});
