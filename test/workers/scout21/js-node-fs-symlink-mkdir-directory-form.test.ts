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
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it.fails("node:fs symlink(t, new/) and mkdir(nd/.) are ENOENT and create nothing", async () => {
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
