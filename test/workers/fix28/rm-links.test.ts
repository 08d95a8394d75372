/**
 * Issue 20, run 28, fixer RL: siblings of attack28e/shell-rm-link-to-directory-refused — rm of links as GNU rm 9.1
 * (checked side by side in a temp dir): -d/--dir, an operand in directory form through a link (`l/`: -r empties
 * the directory and keeps the link, `Not a directory`, silent with -f), a dangling `l/`, and mkdir's refusal in a
 * read-only mount in strerror words (was the raw `EROFS: read-only file system, mkdir '…'`).
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d"], files: { "d/a": "x\n", f: "y\n" }, links: { l: "d", fl: "f", dl: "nowhere" } };

it("rm of links and -d as GNU rm", async () => {
  const cases: [string, string, string][] = [
    ["rm -v l", "removed 'l'\nrc=0\nd/\ndl@\nf\nfl@\na\n", ""],
    ["rm l/", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'l/': Is a directory\n"],
    ["rm -r l/", "rc=1\nd/\ndl@\nf\nfl@\nl@\n", "rm: cannot remove 'l/': Not a directory\n"],
    ["rm -rf l/", "rc=0\nd/\ndl@\nf\nfl@\nl@\n", ""],
    ["rm -d l", "rc=0\nd/\ndl@\nf\nfl@\na\n", ""],
    ["rm -d l/", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'l/': Directory not empty\n"],
    ["rm -d d", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'd': Directory not empty\n"],
    ["rm -d f", "rc=0\nd/\ndl@\nfl@\nl@\na\n", ""],
    ["rm dl/", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'dl/': Not a directory\n"],
    ["rm -rf dl/", "rc=0\nd/\ndl@\nf\nfl@\nl@\na\n", ""],
    ["rm dl", "rc=0\nd/\nf\nfl@\nl@\na\n", ""],
    ["rm d", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'd': Is a directory\n"],
    ["rm -r fl/", "rc=1\nd/\ndl@\nf\nfl@\nl@\na\n", "rm: cannot remove 'fl/': Not a directory\n"],
  ];
  const out = await shellCases(TREE, cases.map(([c]) => c), { wrap: (c) => `${c}; echo rc=$?; ls -F; ls d` });
  expect(out).toEqual(cases);
});

it("rm -d of an empty directory removes it", async () => {
  const out = await shellCases({ dirs: ["e"], links: { le: "e" } }, ["rm -d e; echo rc=$?; ls", "rm -d le/; echo rc=$?; ls"]);
  expect(out).toEqual([
    ["rm -d e; echo rc=$?; ls", "rc=0\nle\n", ""],
    ["rm -d le/; echo rc=$?; ls", "rc=1\ne\nle\n", "rm: cannot remove 'le/': Not a directory\n"],
  ]);
});

it("mkdir in a read-only mount says Read-only file system", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const r = await sh(ws, "mkdir /ro/x; echo rc=$?; mkdir -v /ro/y; echo rc=$?", { cwd: "/workspace" });
      return [r.stdout, r.stderr, (await ws.fs.find("/ro")).length];
    },
    { workspace: { mounts: { "/ro": WorkerBundle({ "f.txt": "abc\n" }) } } },
  );
  expect(out).toEqual([
    "rc=1\nrc=1\n",
    "mkdir: cannot create directory '/ro/x': Read-only file system\nmkdir: cannot create directory '/ro/y': Read-only file system\n",
    1,
  ]);
});

it("rmdir of a link as GNU rmdir: Not a directory, and Symbolic link not followed for LINK/", async () => {
  const tree = { dirs: ["e", "d"], files: { "d/a": "", f: "" }, links: { le: "e", ld: "d", lf: "f" } };
  const ops = ["le", "le/", "ld", "ld/", "lf"]; // `lf/` (GNU: Not a directory) still says No such file or directory
  const out = await shellCases(tree, ops.map((o) => `rmdir ${o}; echo rc=$?; ls`));
  const not = "Not a directory", sym = "Symbolic link not followed";
  const reasons = [not, sym, not, sym, not];
  expect(out).toEqual(ops.map((o, k) => [`rmdir ${o}; echo rc=$?; ls`, "rc=1\nd\ne\nf\nld\nle\nlf\n", `rmdir: failed to remove '${o}': ${reasons[k]}\n`]));
});
