/**
 * Fixer SB2 (issue 20, run 23, findings b4/b5): recursive mkdir over symbolic links in real workerd — the shell's
 * `mkdir -p` (src/backends/worker-shell/fs-adapter.ts) against GNU coreutils 9.1 (run on this machine with LC_ALL=C
 * in a temp dir holding the same tree), and the JavaScript backend's node:fs, which refuses links by design (EACCES,
 * unchanged). The provider and `workspace.fs` are in test/node/fix23/mkdir-recursive-links.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import { inWorkspace } from "../runtime/helpers.js";

it("mkdir -p answers as GNU mkdir 9.1 over links to directories, files and dangling links", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/f", "");
    await ws.fs.symlink("d", "/workspace/ld");
    await ws.fs.symlink("ld", "/workspace/lld");
    await ws.fs.symlink("nope", "/workspace/dang");
    await ws.fs.symlink("f", "/workspace/lf");
    const r = await sh(ws, 'for p in ld ld/ ld/. lld lld/ ld/sub/x dang dang/ lf lf/ f f/; do mkdir -p $p 2>&1; echo "$p rc=$?"; done; ls d; mkdir -p ld lld/new; echo rc=$?', { cwd: "/workspace" });
    const kinds: Record<string, string> = {};
    for (const e of await ws.fs.readdir("/workspace")) kinds[e.name] = e.isSymbolicLink ? "l" : e.isDirectory ? "d" : "-";
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, kinds, made: (await ws.fs.readdir("/workspace/d")).map((e) => e.name) };
  });
  expect(out).toEqual({
    stdout: [
      "ld rc=0",
      "ld/ rc=0",
      "ld/. rc=0",
      "lld rc=0",
      "lld/ rc=0",
      "ld/sub/x rc=0",
      "mkdir: cannot create directory 'dang': File exists",
      "dang rc=1",
      "mkdir: cannot create directory 'dang/': File exists",
      "dang/ rc=1",
      "mkdir: cannot create directory 'lf': File exists",
      "lf rc=1",
      "mkdir: cannot create directory 'lf/': File exists",
      "lf/ rc=1",
      "mkdir: cannot create directory 'f': File exists",
      "f rc=1",
      "mkdir: cannot create directory 'f/': File exists",
      "f/ rc=1",
      "sub",
      "rc=0",
      "",
    ].join("\n"),
    stderr: "",
    exitCode: 0,
    // Nothing replaced: the links stay links, and a dangling one still dangles.
    kinds: { d: "d", dang: "l", f: "-", ld: "l", lf: "l", lld: "l" },
    made: ["new", "sub"],
  });
}, 60_000);

it("mkdir without -p of a link to a directory is still File exists, as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.symlink("d", "/workspace/ld");
    const r = await sh(ws, "mkdir ld; echo rc=$?; mkdir ld/; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({
    stdout: "rc=1\nrc=1\n",
    stderr: "mkdir: cannot create directory 'ld': File exists\nmkdir: cannot create directory 'ld/': File exists\n",
  });
}, 60_000);

it("the JavaScript backend's node:fs mkdir refuses a link, recursive or not (EACCES, by design)", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.symlink("d", "/workspace/ld");
    await ws.fs.symlink("nope", "/workspace/dang");
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises"; export default async () => {
        const out = {};
        for (const p of ["ld", "ld/", "ld/sub", "dang", "dang/x"]) {
          try { await fs.mkdir("/workspace/" + p, { recursive: true }); out[p] = "resolved"; } catch (e) { out[p] = e.code + " " + e.message; }
        }
        return out;
      }`,
    );
    return { codes: (await h.result()).value, made: (await ws.fs.readdir("/workspace/d")).length };
  });
  expect(out).toEqual({
    codes: {
      ld: "EACCES cannot traverse symbolic link: /workspace/ld",
      "ld/": "EACCES cannot traverse symbolic link: /workspace/ld",
      "ld/sub": "EACCES cannot traverse symbolic link: /workspace/ld",
      dang: "EACCES cannot traverse symbolic link: /workspace/dang",
      "dang/x": "EACCES cannot traverse symbolic link: /workspace/dang",
    },
    made: 0,
  });
}, 60_000);
