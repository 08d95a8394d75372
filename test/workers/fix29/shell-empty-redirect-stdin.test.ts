/**
 * Issue 20, run 29 (lead): siblings of attack29f/shell-redirect-from-empty-file-reads-outer-stdin — a command's own
 * stdin redirect that gives nothing (an empty file, an empty here-document) is all the command reads, whatever it is:
 * a function (and `read` inside it), a subshell, `bash -c`, a command after which the group's stdin is still there
 * for the next one. Each expected output is real bash 5.2.15's (run side by side in a temp dir). Fix:
 * emptyRedirectedStdin() in isolate/shell-options.ts, patch "empty redirected stdin (LD)" in scripts/gen-shell.mjs.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "a.txt": "1\n2\n3\n", "e.txt": "" } };
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("an empty redirect hides the loop's or group's stdin from every kind of command, as bash", async () => {
  const out = await shellCases(tree, [
    "f() { cat; }; printf 'x\\ny\\n' | while read -r l; do f < e.txt; echo \"[$l]\"; done",
    "printf 'x\\ny\\n' | while read -r l; do (cat) < e.txt; echo \"[$l]\"; done",
    "printf 'x\\ny\\n' | while read -r l; do bash -c 'cat' < e.txt; echo \"[$l]\"; done",
    "printf 'x\\ny\\n' | while read -r l; do cat <<EOF\nEOF\necho \"[$l]\"; done",
    "printf 'x\\ny\\n' | while read -r l; do f() { read -r z; echo \"z=$z\"; }; f < e.txt; echo \"[$l]\"; done",
    "printf 'x\\ny\\n' | { cat < e.txt; cat; }",
    "printf 'x\\ny\\n' | while read -r l; do wc -l < a.txt; echo \"[$l]\"; done",
  ], { collect });
  expect(out).toEqual([
    ["f() { cat; }; printf 'x\\ny\\n' | while read -r l; do f < e.txt; echo \"[$l]\"; done", "[x]\n[y]\n", "", 0],
    ["printf 'x\\ny\\n' | while read -r l; do (cat) < e.txt; echo \"[$l]\"; done", "[x]\n[y]\n", "", 0],
    ["printf 'x\\ny\\n' | while read -r l; do bash -c 'cat' < e.txt; echo \"[$l]\"; done", "[x]\n[y]\n", "", 0],
    ["printf 'x\\ny\\n' | while read -r l; do cat <<EOF\nEOF\necho \"[$l]\"; done", "[x]\n[y]\n", "", 0],
    ["printf 'x\\ny\\n' | while read -r l; do f() { read -r z; echo \"z=$z\"; }; f < e.txt; echo \"[$l]\"; done", "z=\n[x]\nz=\n[y]\n", "", 0],
    ["printf 'x\\ny\\n' | { cat < e.txt; cat; }", "x\ny\n", "", 0],
    ["printf 'x\\ny\\n' | while read -r l; do wc -l < a.txt; echo \"[$l]\"; done", "3\n[x]\n3\n[y]\n", "", 0],
  ]);
}, 60_000);
