/**
 * Issue 20 sixth attack run, category 2 (resource exhaustion, git objects):
 * a zlib bomb — one loose blob of 150,000,000 zero bytes, ~146 KB on disk —
 * put in a branch's tree next to an ordinary file (as a malicious remote
 * would serve it to `clone`/`fetch`), then read with `cat-file -t/-s`,
 * `diff --stat` and checked out.
 *
 * DEFECT (high), FIXED by the parent session in fcaf0e9 (objects inflating
 * past GIT_MAX_OBJECT_BYTES, 64 MiB, are refused; a loose object's header
 * is read before its body); this file is now its regression test.
 * Reproduction: `writeLoose(ws, "/repo", "blob", new
 * Uint8Array(150e6))`, a commit on branch `bomb` holding it as `z.bin`, then
 * `git.cli({ argv: ["checkout", "bomb"], cwd: "/repo" })`. The checkout
 * inflates the whole object into memory and copies it more than once: with
 * 300 MB the heap plus array buffers grew by ~900 MB and the checkout took
 * 52 s (Node); a Durable Object has 128 MB, so there the object is reset
 * mid checkout — and again on every retry — by 150 KB of input. `cat-file
 * -s` also inflates everything just to print the size (13 s for 300 MB).
 * Impact: high (a repository from the network can take the object down;
 * nothing an agent can do about it from inside).
 * Fix proposal: read the size from the object header without inflating the
 * body (cat-file -s/-t, status, diff --stat); refuse to inflate an object
 * past a documented limit (for example 64 MiB, `GitError` code `ETOOBIG`
 * naming the object and the limit) in checkout, reset, merge, stash, clone
 * and fetch — before any working-tree file is replaced — or stream the
 * inflated bytes straight into `fs.writeFile` in chunks.
 *
 * Before the fix cat-file -t/-s and diff --stat answered exactly with a
 * bounded heap but inflated everything (13 s for 300 MB). Now all four
 * refuse with the message below. Low, fidelity only: real git answers
 * `cat-file -t/-s` of such an object from its header; ours refuses them too.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";
import { writeCommit, writeLoose } from "../git/attack-helpers.js";
import { peak } from "./memory.js";

afterAll(cleanupScratch);

const SIZE = 150_000_000;


async function bombRepo() {
  const disk = committedRepo({ "a.txt": "a\n" });
  const t = await workspaceCopy(disk);
  const base = realGit(disk, "rev-parse", "HEAD").trim();
  const aBlob = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
  const big = await writeLoose(t.ws, t.dir, "blob", new Uint8Array(SIZE));
  await writeCommit(t.ws, t.dir, "bomb", [{ mode: "100644", name: "a.txt", oid: aBlob }, { mode: "100644", name: "z.bin", oid: big }], base);
  const stored = (await t.ws.fs.stat(`${t.dir}/.git/objects/${big.slice(0, 2)}/${big.slice(2)}`)).size;
  return { ...t, big, stored };
}

describe("attack6: a zlib-bomb blob in git", () => {
  it("cat-file -t/-s, diff --stat and checkout refuse the object with a bounded heap; the work tree, status and log are intact", { timeout: 300_000 }, async () => {
    const t = await bombRepo();
    expect(t.stored).toBeLessThan(200_000);
    const refused = (op: string) => ({
      stdout: "",
      stderr: `git ${op}: object too large: it inflates to ${SIZE} bytes, over the limit of 67108864 bytes (GIT_MAX_OBJECT_BYTES); the Workspace's git does not read objects this large\n`,
      exitCode: 1,
    });
    const runs = {
      type: await peak(() => t.git.cli({ argv: ["cat-file", "-t", t.big], cwd: t.dir })),
      size: await peak(() => t.git.cli({ argv: ["cat-file", "-s", t.big], cwd: t.dir })),
      diff: await peak(() => t.git.cli({ argv: ["diff", "HEAD", "bomb", "--stat"], cwd: t.dir })),
      checkout: await peak(() => t.git.cli({ argv: ["checkout", "bomb"], cwd: t.dir })),
    };
    expect(runs.type.value).toEqual(refused("cat-file"));
    expect(runs.size.value).toEqual(refused("cat-file"));
    expect(runs.diff.value).toEqual(refused("diff"));
    expect(runs.checkout.value).toEqual(refused("checkout"));
    // never more than half a Durable Object's memory for 150 KB of input
    for (const [name, r] of Object.entries(runs)) expect(r.grew, name).toBeLessThan(64_000_000);
    expect(await t.ws.fs.readFile(`${t.dir}/a.txt`, "utf8")).toBe("a\n");
    await expect(t.ws.fs.stat(`${t.dir}/z.bin`)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await t.git.cli({ argv: ["status", "--porcelain"], cwd: t.dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const log = await t.git.cli({ argv: ["log", "--oneline", "bomb"], cwd: t.dir });
    expect(log.stdout).toMatch(/^[0-9a-f]{7} evil\n[0-9a-f]{7} base\n$/);
  });
});
