/**
 * Issue 20, twenty-first attack run: `ln -s TARGET DIR` with DIR an existing directory (or a link to one), written
 * without a trailing `/`, does not make the link inside DIR as GNU ln does: `ln -sf` REMOVES an empty directory and
 * puts the link in its place, fails `Permission denied` on a non-empty one, replaces a link to a directory; `ln -s`
 * fails `File exists`; the multi-target form `ln -s T1 T2 DIR` is `extra operand`.
 * Tried: in /workspace with a.txt, d/f.txt, d/sub, an empty e, ld -> d: `ln -sf ../a.txt e`, `ln -s ../a.txt e`,
 * `ln -sf ../a.txt ld`, `ln -sf ../a.txt d`, `ln -s ../a.txt ../la e`, side by side with GNU coreutils 9.1 (bash 5.2).
 * Held: `ln -sf ../a.txt d/` and `ln -s t d/.` (the directory form, fixed by run 20), `ln -sfn a.txt ld` (replaces
 * the link, as GNU), `ln -s a.txt a.txt` (File exists).
 * Found (medium — an empty directory silently replaced by a link, $? 0; the common `ln -s SRC DIR` form fails or
 * misplaces the link; 2 of 2 runs): `ln -sf ../a.txt e` → rc=0 and e is now a link (e/a.txt: No such file);
 * `ln -s ../a.txt e` → `ln: failed to create symbolic link 'e': File exists`; `ln -sf ../a.txt ld` → ld replaced,
 * no d/a.txt; `ln -sf ../a.txt d` → `ln: cannot remove 'd': Permission denied`; `ln -s ../a.txt ../la e` →
 * `ln: extra operand 'e'`. GNU: e/a.txt (or d/a.txt, e/la) made, `cat` prints a.txt, $? 0.
 * Suggested fix: in the gen-shell ln patch, when the last operand stats (following links, unless -n/-T and it is a
 * link) as a directory, make `<dir>/<basename of each target>` (accept several targets then); never remove a
 * directory to put a link in its place.
 * Fixed: lnCommand (src/backends/worker-shell/isolate/link-operands.ts) takes GNU's forms: when the last operand
 * stats as a directory (following a link, unless -n), each link is made as DIR/<last segment of TARGET>, several
 * targets allowed (`ln: target 'X': Not a directory` otherwise); one operand links into `.`; a directory is never
 * removed (`ln: N: cannot overwrite directory`). A link made through a parent link (`ld/a.txt`) is created in the
 * real directory (the Workspace's symlink needs real parents).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["d/sub", "e"],
  files: { "a.txt": "one\ntwo\n", "d/f.txt": "keep\n" },
  links: { ld: "d", la: "a.txt" },
};

const base = "/workspace /workspace/a.txt /workspace/d /workspace/d/f.txt /workspace/d/sub /workspace/e /workspace/la /workspace/ld";
const cases: [string, string, string][] = [
  ["ln -sf ../a.txt e; echo rc=$?; cat e/a.txt", "/workspace/e/a.txt", "e/a.txt"],
  ["ln -s ../a.txt e; echo rc=$?; cat e/a.txt", "/workspace/e/a.txt", "e/a.txt"],
  ["ln -sf ../a.txt ld; echo rc=$?; cat d/a.txt", "/workspace/d/a.txt", "d/a.txt"],
  ["ln -sf ../a.txt d; echo rc=$?; cat d/a.txt", "/workspace/d/a.txt", "d/a.txt"],
  ["ln -s ../a.txt ../la e; echo rc=$?; cat e/la", "/workspace/e/a.txt /workspace/e/la", "e/la"],
];

function listing(added: string): string {
  return `${[...base.split(" "), ...added.split(" ")].sort().join(" ")} `;
}

it("ln -s TARGET DIR makes DIR/<name> as GNU ln (the directory kept, $? 0)", async () => {
  const out = await shellCases(TREE, cases.map(([command]) => command), {
    wrap: (command) => `(${command}); find /workspace | sort | tr '\\n' ' '`,
    collect: async (ws, _command, r) => ({
      stdout: r.stdout,
      stderr: r.stderr,
      eIsDirectory: (await ws.fs.lstat("/workspace/e")).isDirectory,
    }),
  });
  expect(out).toEqual(
    cases.map(([, added]) => ({
      stdout: `rc=0\none\ntwo\n${listing(added)}`,
      stderr: "",
      eIsDirectory: true,
    })),
  );
});
