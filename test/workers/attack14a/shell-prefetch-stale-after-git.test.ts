/**
 * Issue 20, fourteenth attack run: the shell's listing prefetch (WorkspaceFsAdapter `listWithContents`,
 * src/backends/worker-shell/fs-adapter.ts) outlives a change made by the shell's own `git` built-in.
 *
 * Tried: a glob (`echo *.txt`, which lists the directory through readdirWithFileTypes and so brings the
 * contents of its small files along for PREFETCH_TTL_MS = 250 ms), then `git checkout -- a.txt` (the host's
 * git restores the committed bytes, not through the adapter), then a read of a.txt in the same script.
 *
 * Found (medium): the read after the checkout is served from the prefetched copy taken BEFORE it: `cat a.txt`
 * prints the discarded working-tree text, and `sed -i` writes that stale text back over the restored file —
 * the checkout is silently undone (data loss: the committed content the agent asked for is gone, exit 0). The
 * adapter drops prefetched contents only on changes made through itself (`#beforeChange`); the `git`,
 * `artifacts` and custom built-ins change the Workspace on the host without dropping them. docs/runtime.md's
 * "another writer" window does not cover a command of the same script that ran in between.
 * Suggested fix: drop the adapter's prefetched contents before/after every built-in host command (git,
 * artifacts, assets, customCommands) — e.g. a `forgetPrefetched()` the command wrappers call — or key the
 * prefetch by the listing's generation and bump it on any host call that may write.
 * Fixed: the shell runtime (src/backends/worker-shell/worker.ts) wraps the `git`, `artifacts`, `assets` and
 * custom commands so the adapter's `forgetPrefetched()` drops every listed content (and whatever a listing in
 * flight then brings) before and after each; the adapter keeps at most PREFETCH_KEPT_BYTES (4 MiB) /
 * PREFETCH_KEPT_FILES (1,024) of them at once (test/node/shell/prefetch-bound.test.ts).
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@example.com" } } };

describe("attack14a: shell prefetch after the git built-in", () => {
  it("a read after `git checkout -- f` in the same script sees the restored bytes; sed -i does not undo the checkout", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/r/a.txt", "old\n");
      const setup = await sh(ws, "git init -q && git add a.txt && git commit -q -m one && echo new > a.txt && echo ok", { cwd: "/workspace/r" });
      const cat = await sh(ws, "echo *.txt; git checkout -- a.txt; cat a.txt", { cwd: "/workspace/r" });
      await ws.fs.writeFile("/workspace/r/a.txt", "new\n");
      const sed = await sh(ws, "echo *.txt; git checkout -- a.txt; sed -i 's/o/0/' a.txt; echo rc=$?", { cwd: "/workspace/r" });
      return { setup: setup.stdout, cat: cat.stdout, sed: sed.stdout, file: await ws.fs.readFile("/workspace/r/a.txt", "utf8") };
    }, withGit);
    expect(r.setup).toBe("ok\n");
    expect(r.sed).toBe("a.txt\nrc=0\n");
    // Correct: the checkout restored "old"; cat prints it, and sed edits it.
    expect({ cat: r.cat, file: r.file }).toEqual({ cat: "a.txt\nold\n", file: "0ld\n" });
  });
});
