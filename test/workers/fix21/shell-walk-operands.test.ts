/**
 * Issue 20, twenty-first attack run (scout; fixer S2): start points of the shell's tree walks — find, du, grep -r —
 * as GNU findutils 4.9, coreutils 9.1 and grep 3.8 name and walk them (isolate/walk-operands.ts). Every expected
 * output below is GNU's on the same tree (`d/f.txt`, `d/sub/`, `a.txt`, `ld -> d`, `la -> a.txt`), except find's
 * error line, which keeps just-bash's unquoted form.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function outputs(commands: readonly string[]): Promise<string[]> {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
    await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
    await ws.fs.writeFile("/workspace/a.txt", "one\n");
    await ws.fs.symlink("d", "/workspace/ld");
    await ws.fs.symlink("a.txt", "/workspace/la");
    const results: string[] = [];
    for (const command of commands) results.push((await sh(ws, `(${command}) 2>&1; echo rc=$?`, { cwd: "/workspace" })).stdout);
    return results;
  });
}

it("find: a start point is printed as written, children joined without a second slash, ld/ walked", async () => {
  expect(
    await outputs([
      "find d/ | sort",
      "find d// | sort",
      "find ./ -name f.txt",
      "find ld/. | sort",
      "find ld/ -maxdepth 0 -name ld",
      "find ld/ -printf '[%P]\\n' | sort",
      "find la/",
      "find ld -type l",
      "cp -r d d2 && find d2/ -delete && ls",
    ]),
  ).toEqual([
    "d/\nd/f.txt\nd/sub\nrc=0\n",
    "d//\nd//f.txt\nd//sub\nrc=0\n",
    "./d/f.txt\nrc=0\n",
    "ld/.\nld/./f.txt\nld/./sub\nrc=0\n",
    "ld/\nrc=0\n",
    "[]\n[f.txt]\n[sub]\nrc=0\n",
    "find: la/: Not a directory\nrc=1\n",
    "ld\nrc=0\n",
    "a.txt\nd\nla\nld\nrc=0\n",
  ]);
}, 60_000);

it("du: a line for every operand, ld/ and ld/. walked through the link, names as GNU du", async () => {
  expect(
    await outputs([
      "du -a d/ | cut -f2",
      "du -a d// | cut -f2",
      "du -s la/",
      "du -a ld/. | cut -f2",
      "du -s ld/. | cut -f2",
      "du d a.txt | cut -f2",
      "du -c a.txt d | cut -f2",
    ]),
  ).toEqual([
    "d/f.txt\nd/sub\nd/\nrc=0\n",
    "d/f.txt\nd/sub\nd/\nrc=0\n",
    "du: cannot access 'la/': Not a directory\nrc=1\n",
    "ld/./f.txt\nld/./sub\nld/.\nrc=0\n",
    "ld/.\nrc=0\n",
    "d/sub\nd\na.txt\nrc=0\n",
    "a.txt\nd/sub\nd\ntotal\nrc=0\n",
  ]);
}, 60_000);

it("grep -r: an operand ending in slashes gets one before each child, as GNU grep 3.8", async () => {
  expect(await outputs(["grep -r keep d//", "grep -r keep .// | sort", "grep -rl keep ld//"])).toEqual([
    "d/f.txt:keep\nrc=0\n",
    "./d/f.txt:keep\nrc=0\n",
    "ld/f.txt\nrc=0\n",
  ]);
}, 60_000);
