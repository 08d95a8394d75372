/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes, links out of a
 * root) and category 6 (concurrency) on the container backend's pull, with
 * a real, unmodified daemon (local host): a background process the command
 * leaves behind, still at work while the pull walks (docs/container.md
 * allows for one: "a background process at work").
 *
 * FIXED — src/runtime/sync.ts: the container link g -> /host is refused
 * ("link leads outside /workspace", skipped); and whatever the link, a
 * child is applied only after every Workspace parent under /workspace was
 * lstat-ed (`#parents`): a link or file where the container now has a
 * directory is replaced by a directory first, never written through.
 *
 * DEFECT (high) — reproduction (inside the object, TestBackend "box"; /host is
 * the host's data outside /workspace):
 *   await ws.fs.writeFile("/host/config.json", '{"admin":false}');
 *   // the command: 4,999 files f0000..f4998 and a link g -> /host (sorts last: entry 5,000 = SCAN_PAGE),
 *   // and a background process that waits until the pull READS f0005 (its atime moves), then
 *   // swaps the link for a directory:
 *   await sh(ws, `seq -f 'f%04g' 0 4998 | xargs -n1 sh -c 'head -c 65536 /dev/zero > "$0"' && ln -s /host g &&
 *     A=$(stat -c %x f0005) && ( while [ "$(stat -c %x f0005)" = "$A" ]; do sleep 0.002; done;
 *     rm g && mkdir g && echo '{"admin":true}' > g/config.json ) >/dev/null 2>&1 &`);
 *   await ws.fs.readFile("/host/config.json", "utf8")   // → '{"admin":true}\n'
 * (That long form is a sketch; the 5,000-entry page was reproduced with the
 * swap made from the test. The test makes page 1 end at g with fewer entries: a page also ends past
 * 512 KiB of paths, so 180 files under ten nested 250-byte directory names,
 * then g; `sync: "defer"` then `workspace.pull()` — the same as the
 * command's own pull.)
 * Page 1 of the walk lists g as a symlink (applied: the Workspace link
 * /workspace/g -> /host, its target taken verbatim); page 2 resumes after the
 * cursor "g", which is a directory by then, so the daemon lists its children
 * (sync.mjs `walk(…, below)` descends into the cursor entry). The pull
 * writes `/workspace/g/config.json` with `workspace.fs.writeFile`, which
 * follows the link in the parent: the container's bytes land in
 * /host/config.json. Nothing checks that the Workspace parent is the
 * directory the container has (the lstat of the entry follows parent links
 * too), nor that a child's parent was not reported as a link earlier.
 * Expected: nothing outside /workspace changes — the pull never writes
 * through a link on the Workspace side (a child whose Workspace parent is a
 * link is skipped, or the link is first replaced by the directory the
 * container has); /host/config.json keeps '{"admin":false}'.
 * Impact: high — the model's code in the container (an ordinary background
 * process: `(sleep 1; rm g; mkdir g; cp x g/) >/dev/null 2>&1 &`, the window
 * is the seconds the pull takes to apply a 5,000-entry page) overwrites or
 * creates any file of the Workspace outside /workspace, e.g. host
 * configuration, another root's files; the recommended setup (JavaScript
 * confined to /workspace plus ws:container) has no other way out.
 * Fix proposal: in `#pullEntry`, resolve the Workspace parent of
 * `/workspace/<path>` without following links (lstat each component under
 * /workspace; a link or file on the way → skip the entry as `{ op, reason:
 * "parent is not a directory in the Workspace" }`, the next pull sees the
 * container as it is then), or write through a no-follow API of the
 * filesystem; and in the daemon, do not descend into the cursor entry on
 * resume unless it was a directory on the page that returned it (send its
 * kind with the cursor).
 *
 * Noted, not filed (a design question): a link the container makes is
 * pulled with its target verbatim — `ln -s /host/config.json esc` or
 * `ln -s ../host esc` in the container becomes /workspace/esc leading to
 * /host in the Workspace (not to the container's /host), which the host
 * code or tools without `root` then follow. The JavaScript backend stores
 * its links so they cannot leave its root (docs/runtime.md); the container
 * has no such rule. (Not pinned by a test, so a fix may change it:
 * observed `readlink("/workspace/abs") === "/host/config.json"` and
 * `readlink("/workspace/up") === "../host"`, sync applied 2, skipped none.)
 *
 * Withstood: the same race on ONE page (the link and the directory cannot
 * both be listed: the walk lstats, a link is never entered); a directory
 * replaced by a link between two commands (the next pull removes the
 * Workspace directory first, then makes the link; nothing under it is
 * written through) — below.
 */
import { describe, expect, it } from "vitest";
import { drain, inWorkspace, sh, startContainer } from "../container/helpers.js";


describe("attack8: container pull and links on the Workspace side", () => {
  it("a directory that replaces a link between two scan pages is not written through the Workspace link", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host", { recursive: true });
      await ws.fs.writeFile("/host/config.json", '{"admin":false}');
      // A page also ends past 512 KiB of paths (sync.mjs SCAN_MAX_BYTES; an entry costs its path's bytes + 64):
      // ten nested 250-byte directories (14,435 bytes), 180 files (64 KiB) of 250-byte names in the deepest
      // (2,825 each: 522,935 in all), then g (2,581) crosses it — g is the last entry of page 1.
      // The background process is the container's own clock: it waits until the pull READS f005 (its
      // atime moves: relatime), i.e. page 1 is being applied, then swaps g — long before the other
      // 175 files are applied and page 2 is scanned.
      const made = await sh(
        ws,
        `D=$(head -c 250 /dev/zero | tr '\\0' d) && P="$D/$D/$D/$D/$D/$D/$D/$D/$D/$D" && mkdir -p "$P" && cd "$P" && ` +
          `F=$(head -c 246 /dev/zero | tr '\\0' x) && for i in $(seq -w 0 179); do head -c 65536 /dev/zero > "f$i$F"; done && ln -s /host g && ` +
          `A=$(stat -c %x "f005$F") && ( while [ "$(stat -c %x "f005$F")" = "$A" ]; do sleep 0.002; done; ` +
          `rm g && mkdir g && echo '{"admin":true}' > g/config.json ) >/dev/null 2>&1 &`,
        { sync: "defer" },
      );
      expect(made.exitCode).toBe(0);
      expect(made.stderr).toBe("");
      const P = Array(10).fill("d".repeat(250)).join("/");
      const progress = await drain(ws.pull());
      expect(progress.at(-1)).toMatchObject({ complete: true });
      // The swap happened in the container (g is a directory there now).
      expect((await c.tree()).get(`${P}/g`)?.kind).toBe("directory");
      expect(await ws.fs.readFile("/host/config.json", "utf8")).toBe('{"admin":false}');
    });
  });

  it("a directory replaced by a link between two commands: the Workspace directory goes, nothing is written through the link", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host", { recursive: true });
      await ws.fs.writeFile("/host/config.json", '{"admin":false}');
      const one = await sh(ws, "mkdir d && echo a > d/x");
      expect(one.sync).toEqual({ status: "complete", applied: 2, skipped: [] });
      const two = await sh(ws, "rm -r d && ln -s /host d");
      expect(two.exitCode).toBe(0);
      const three = await sh(ws, "rm d && mkdir d && echo '{\"admin\":true}' > d/config.json");
      expect(three.exitCode).toBe(0);
      expect((await ws.fs.lstat("/workspace/d")).isDirectory).toBe(true);
      expect(await ws.fs.readFile("/workspace/d/config.json", "utf8")).toBe('{"admin":true}\n');
      expect(await ws.fs.readFile("/host/config.json", "utf8")).toBe('{"admin":false}');
    });
  });
});
