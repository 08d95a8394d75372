/**
 * Fixed in run 40 by fixer f40ct: the scan reports such a link as `"target"` with its stat; the pull lists it as
 *   "link target is not valid UTF-8" and holds back no deletion for it (sibling: test/node/fix40/container-link-target-and-fractional-timeout.test.ts).
 * Issue 20, run 40, attacker f: a container symlink whose NAME is plain ASCII but whose TARGET is not UTF-8
 * (`ln -s "$(printf 'x\351')" weird` — a Latin-1 target, as an old tarball or a Python 2 script leaves) makes every
 * pull hold back every deletion the container made, for as long as the link is there, and reports the link as
 * "name is not valid UTF-8" (its name is `weird`).
 * Reproduction: sync `gone.md` and `keep.md`; run `ln -s "$(printf 'x\351')" weird && rm gone.md`; then `rm keep.md`.
 * Today (2 of 2 runs): both pulls list `{ path: "/workspace/weird", op: "write", reason: "name is not valid UTF-8" }`
 * and `{ path: "/workspace/gone.md" (then keep.md), op: "delete", reason: "the container may have moved it into
 * /workspace/weird, which this pull cannot look into (name is not valid UTF-8): kept, it is not lost" }`; the Workspace
 * still holds both files the container removed (readdir → gone.md, keep.md), and they are forgotten from the
 * manifest, so the Workspace and the container stay apart for good. A link is not a place anything can be moved into,
 * and its name is valid: docs/container.md step 4 lists the places that hold deletions back ("a directory whose name
 * is not UTF-8 holding more than the daemon lists of it, a path past the container's PATH_MAX, or a non-UTF-8 name
 * from a daemon of before run 39"); a link with a Latin-1 target is none of them, and the sibling case of an
 * unrelated Latin-1 FILE beside an `rm` applies the deletion (test/workers/fix39/container-scan-skips-keep-source.test.ts).
 * Reference: on Linux (coreutils 9.1) `ln -s "$(printf 'x\351')" weird && rm gone.md` leaves `weird` and removes
 * gone.md; nothing ties the two.
 * Cause: container/lib/sync.mjs scan — a link whose target does not decode as UTF-8 is `skip(relPath, "encoding")`
 * with no stat; src/runtime/sync.ts #pull then reports it as NOT_UTF8 and #strandSkipped takes the missing stat for
 * a pre-run-39 daemon (`stranded.opaque`), which keeps every deleted file or link of the pull.
 */
import { expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

it("attack40f: a link whose target is not UTF-8 neither holds back unrelated deletions nor is called a bad name", async () => {
  const c = await startContainer();
  await inWorkspace(c, async (ws) => {
    await ws.fs.writeFile("/workspace/gone.md", "gone\n");
    await ws.fs.writeFile("/workspace/keep.md", "keep\n");
    expect((await sh(ws, "true")).exitCode).toBe(0);

    const r = await sh(ws, "ln -s \"$(printf 'x\\351')\" weird && rm gone.md");
    expect(r.exitCode).toBe(0);
    // The link is not applied (its target is not a Workspace string), and it says so — not that its name is bad.
    const weird = r.skipped.find((s) => s.path === "/workspace/weird");
    expect(weird?.op).toBe("write");
    expect(weird?.reason).not.toBe("name is not valid UTF-8");
    // Was: { path: "/workspace/gone.md", op: "delete", reason: "the container may have moved it into /workspace/weird, … kept, it is not lost" }.
    expect(r.skipped.filter((s) => s.op === "delete")).toEqual([]);
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["keep.md"]);

    // And on every later pull while the link is there.
    const r2 = await sh(ws, "rm keep.md");
    expect(r2.exitCode).toBe(0);
    expect(r2.skipped.filter((s) => s.op === "delete")).toEqual([]);
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual([]);
    expect(await c.tree()).toEqual(new Map([["weird", expect.objectContaining({ kind: "symlink" })]]));
  });
});
