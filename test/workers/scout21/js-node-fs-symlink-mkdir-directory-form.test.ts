/**
 * Issue 20, twenty-first attack run (scout of fixes): JS node:fs symlink and mkdir ignore a directory-form tail.
 * Tried: c6e6498 ("" ENOENT; f.txt/ and f.txt/. ENOTDIR in readFile, writeFile, stat, lstat, access, chmod, rm,
 * readlink) — the two node:fs calls it left on the plain resolver: `symlink(target, "new/")` and `mkdir("nd/.")`,
 * in the JS backend (ws.runtime.exec, real workerd). Node 22 on Linux, checked on this machine:
 * `symlinkSync("t", "new/")` → `ENOENT: no such file or directory, symlink 't' -> 'new/'`;
 * `mkdirSync("nd/.")` → `ENOENT: no such file or directory, mkdir 'nd/.'`; neither creates anything.
 * Held: `""` is ENOENT for both (c6e6498); the shell's fs adapter already answers ENOENT for both forms
 * (fs-adapter.ts symlink and mkdir check directoryForm).
 * Found (low — node:fs divergence, creates what Node refuses; deterministic): both resolve; the Workspace then holds
 * a link `/workspace/new` and a directory `/workspace/nd`.
 * Suggested fix: in RunCapabilities.#fs_ (bridge.ts), symlink: a link path in directory form is ENOENT when nothing
 * is there (EEXIST otherwise); mkdir without recursive: a path in "dot" form is ENOENT when missing, as the shell's
 * adapter does — message `ENOENT: no such file or directory, <syscall> '<path as written>'`.
 * Fixed: the bridge (src/backends/worker-javascript/bridge.ts, #fs_) reads a directory-form path as Linux does:
 * symlink to `new/` or `new/.` creates nothing — `EEXIST` when something is there, else `ENOENT` (`symlink 't' ->
 * 'new/'`); mkdir of `nd/.` is `ENOENT` when `nd` is missing, `f/.` of a file (and `f/` or `f/.` with recursive)
 * `ENOTDIR`; `n/` and recursive `n/.` still create the directory. Each checked against Node 22 on Linux.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs symlink(t, new/) and mkdir(nd/.) are ENOENT and create nothing", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises"; export default async () => {
        const out = [];
        for (const f of [() => fs.symlink("t", "/workspace/new/"), () => fs.mkdir("/workspace/nd/.")]) {
          try { await f(); out.push("resolved"); } catch (e) { out.push(e.code); }
        }
        return out;
      }`,
    );
    const codes = (await h.result()).value;
    const left = (await ws.fs.find("/workspace", "**")).map((e) => e.path).sort();
    return { codes, left };
  });
  // Found: { codes: ["resolved", "resolved"], left: ["/workspace/nd", "/workspace/new"] }.
  expect(out).toEqual({ codes: ["ENOENT", "ENOENT"], left: [] });
}, 60_000);

it("node:fs symlink and mkdir in directory form answer what Node 22 on Linux answers", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/f", "x");
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises"; export default async () => {
        const out = {};
        const calls = {
          "symlink new/.": () => fs.symlink("t", "/workspace/new/."),
          "symlink d/": () => fs.symlink("t", "/workspace/d/"),
          "symlink f/": () => fs.symlink("t", "/workspace/f/"),
          "mkdir d/.": () => fs.mkdir("/workspace/d/."),
          "mkdir f/.": () => fs.mkdir("/workspace/f/."),
          "mkdir -p f/": () => fs.mkdir("/workspace/f/", { recursive: true }),
          "mkdir -p f/.": () => fs.mkdir("/workspace/f/.", { recursive: true }),
          "mkdir n2/": () => fs.mkdir("/workspace/n2/"),
          "mkdir -p n3/.": () => fs.mkdir("/workspace/n3/.", { recursive: true }),
          "symlink new/ message": () => fs.symlink("t", "/workspace/new/"),
          "mkdir nd/. message": () => fs.mkdir("/workspace/nd/."),
        };
        for (const [name, f] of Object.entries(calls)) {
          try { await f(); out[name] = "resolved"; } catch (e) { out[name] = name.endsWith("message") ? e.message : e.code; }
        }
        return out;
      }`,
    );
    const codes = (await h.result()).value;
    const left = (await ws.fs.find("/workspace", "**")).map((e) => e.path).sort();
    return { codes, left };
  });
  expect(out).toEqual({
    codes: {
      "symlink new/.": "ENOENT",
      "symlink d/": "EEXIST",
      "symlink f/": "EEXIST",
      "mkdir d/.": "EEXIST",
      "mkdir f/.": "ENOTDIR",
      "mkdir -p f/": "ENOTDIR",
      "mkdir -p f/.": "ENOTDIR",
      "mkdir n2/": "resolved",
      "mkdir -p n3/.": "resolved",
      "symlink new/ message": "ENOENT: no such file or directory, symlink 't' -> '/workspace/new/'",
      "mkdir nd/. message": "ENOENT: no such file or directory, mkdir '/workspace/nd/.'",
    },
    left: ["/workspace/d", "/workspace/f", "/workspace/n2", "/workspace/n3"],
  });
}, 60_000);
