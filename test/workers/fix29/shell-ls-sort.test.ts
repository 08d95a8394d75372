/**
 * Issue 20, run 29, fixer LT — siblings of attack29f/shell-ls-t-and-s-ignore-order: ls's sort order under -t / -S /
 * -r, for a directory's entries, file operands, directory operands, -d, -l, -F and -R, each expectation the exact
 * output of GNU coreutils 9.1 ls in a temp dir whose mtimes were set (touch -d) in the order this test writes the
 * files (the Workspace sets mtime itself, in milliseconds, so the test waits between writes).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const wait = () => new Promise((r) => setTimeout(r, 40));

it("ls -t / -S / -r order entries and operands as GNU ls", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const w = async (path: string, text: string) => {
      await ws.fs.writeFile(`/workspace/${path}`, text);
      await wait();
    };
    await ws.fs.mkdir("/workspace", { recursive: true });
    // Oldest first: a.log, c.log, d1 (with y, then x), b.log, d2 (with q), same1, same0.
    await w("a.log", "aaaa\n");
    await w("c.log", "cccccccc\n");
    await ws.fs.mkdir("/workspace/d1");
    await w("d1/y", "yy\n");
    await w("d1/x", "12345678901\n");
    await w("b.log", "b\n");
    await ws.fs.mkdir("/workspace/d2");
    await w("d2/q", "q\n");
    await w("same1", "zz\n");
    await w("same0", "zz\n");
    const res: [string, string, string, number][] = [];
    for (const c of [
    "ls -t",
    "ls -tr",
    "ls -lt | awk 'NR>1{print $NF}'",
    "ls -1t a.log b.log c.log",
    "ls -t *.log | head -1",
    "ls -t d1 a.log d2 c.log",
    "ls -tr d1 a.log d2 c.log",
    "ls -S *.log same*",
    "ls -Sr *.log same*",
    "ls -S d1",
    "ls -lSr d1 | awk 'NR>1{print $NF}'",
    "ls -dt d1 d2 a.log",
    "ls -dtr d1 d2 a.log",
    "ls -tR",
    "ls -trR",
    "ls -t nope b.log a.log",
    "ls -F -t d1",
    ]) {
      const r = await sh(ws, c, { cwd: "/workspace" });
      res.push([c, r.stdout, r.stderr, r.exitCode]);
    }
    res.push(["bytes", await new Response((await ws.fs.readFile("/workspace/c.log")) as ReadableStream).text(), "", 0]);
    return res;
  });
  expect(out).toEqual([
    ["ls -t", "same0\nsame1\nd2\nb.log\nd1\nc.log\na.log\n", "", 0],
    ["ls -tr", "a.log\nc.log\nd1\nb.log\nd2\nsame1\nsame0\n", "", 0],
    ["ls -lt | awk 'NR>1{print $NF}'", "same0\nsame1\nd2\nb.log\nd1\nc.log\na.log\n", "", 0],
    ["ls -1t a.log b.log c.log", "b.log\nc.log\na.log\n", "", 0],
    ["ls -t *.log | head -1", "b.log\n", "", 0],
    ["ls -t d1 a.log d2 c.log", "c.log\na.log\n\nd2:\nq\n\nd1:\nx\ny\n", "", 0],
    ["ls -tr d1 a.log d2 c.log", "a.log\nc.log\n\nd1:\ny\nx\n\nd2:\nq\n", "", 0],
    ["ls -S *.log same*", "c.log\na.log\nsame0\nsame1\nb.log\n", "", 0],
    ["ls -Sr *.log same*", "b.log\nsame1\nsame0\na.log\nc.log\n", "", 0],
    ["ls -S d1", "x\ny\n", "", 0],
    ["ls -lSr d1 | awk 'NR>1{print $NF}'", "y\nx\n", "", 0],
    ["ls -dt d1 d2 a.log", "d2\nd1\na.log\n", "", 0],
    ["ls -dtr d1 d2 a.log", "a.log\nd1\nd2\n", "", 0],
    ["ls -tR", ".:\nsame0\nsame1\nd2\nb.log\nd1\nc.log\na.log\n\n./d2:\nq\n\n./d1:\nx\ny\n", "", 0],
    ["ls -trR", ".:\na.log\nc.log\nd1\nb.log\nd2\nsame1\nsame0\n\n./d1:\ny\nx\n\n./d2:\nq\n", "", 0],
    ["ls -t nope b.log a.log", "b.log\na.log\n", "ls: nope: No such file or directory\n", 2], // GNU: "ls: cannot access 'nope': …"; just-bash's wording is kept (test/workers/shell/errors.test.ts).
    ["ls -F -t d1", "x\ny\n", "", 0],
    ["bytes", "cccccccc\n", "", 0],
  ]);
}, 60000);
