/**
 * Issue 20, twenty-second attack run, fixer SH1: siblings of the glob, find -path, rm -f and error-reason fixes
 * (test/workers/attack22b/shell-*), each compared with GNU bash 5.2 / coreutils 9.1 / findutils 4.9 on a Linux
 * machine: a glob ending in two slashes, a trailing-slash glob with no directory match (left as written, nullglob, failglob),
 * GLOBIGNORE against the slashed name, `.*` `/` (never `./` or `../`, bash 5.2's globskipdots), `rm -f` of a missing name below a file (ENOTDIR, ignored as GNU), find
 * -path with -delete, and the ELOOP reason of `<`, pushd, tail and chmod.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

it("trailing-slash globs: /. suffix, no match, GLOBIGNORE, nullglob and failglob as bash", async () => {
  const script = [
    "echo *//",
    "echo d*/",
    "echo *.txt/",
    "echo */*/",
    "echo /work*/",
    "echo .*/; mkdir .h; echo .*/; rmdir .h",
    "GLOBIGNORE=e/; echo */; unset GLOBIGNORE",
    "shopt -s nullglob; echo x *.txt/ y; shopt -u nullglob",
    "shopt -s failglob; echo *.txt/",
  ].join("\n");
  const [out] = await shellCases(
    { dirs: ["d/e", "d/k"], files: { "d/f.txt": "hi\n", "d/e/g.md": "hi\n" }, links: { "d/le": "e", "d/lf": "f.txt" } },
    [script],
    { cwd: "/workspace/d", collect: (_ws, _c, r) => ({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }) },
  );
  expect(out.stdout).toBe("e/ k/ le/\nd*/\n*.txt/\n*/*/\n/workspace/\n.*/\n.h/\nk/ le/\nx y\n");
  expect(out.stderr).toContain("no match: *.txt/");
});

it("find -path -delete removes what the pattern names below a start point", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/tmp/x", { recursive: true });
    await ws.fs.writeFile("/workspace/d/tmp/x/a", "a\n");
    await ws.fs.writeFile("/workspace/d/keep", "k\n");
    const r = await sh(ws, "find d -path 'd/tmp/*' -delete; echo rc=$?; find d | sort", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=0\nd\nd/keep\nd/tmp\n", stderr: "" });
});

it("rm -f still ignores a missing operand and one below a file (ENOTDIR), as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.ready();
    await ws.fs.writeFile("/workspace/f.txt", "x\n");
    const r = await sh(ws, "rm -f nosuch f.txt/x; echo rc=$?; rm -rf ro/nosuch; echo rc=$?; rm -f ro/sub/g.txt; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr, kept: (await ws.fs.find("/workspace/ro")).length };
  }, { workspace: { mounts: { "/workspace/ro": WorkerBundle({ "f.txt": "abc\n", "sub/g.txt": "g\n" }) } } });
  expect(out.stdout).toBe("rc=0\nrc=0\nrc=1\n");
  expect(out.stderr).toBe("rm: cannot remove 'ro/sub/g.txt': Read-only file system\n");
  expect(out.kept).toBe(3);
});

it("<, pushd, tail and chmod name a link loop ELOOP, as bash and GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "ln -s loop loop; cat < loop; pushd loop; tail -1 loop; chmod 644 loop; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, lines: r.stderr.split("\n").filter((line) => line !== "") };
  });
  expect(out.stdout).toBe("rc=1\n");
  expect(out.lines).toEqual([
    "bash: loop: Too many levels of symbolic links",
    "bash: pushd: loop: Too many levels of symbolic links",
    "tail: loop: Too many levels of symbolic links",
    "chmod: cannot access 'loop': Too many levels of symbolic links",
  ]);
});
