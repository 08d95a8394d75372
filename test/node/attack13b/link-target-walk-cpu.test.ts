/**
 * Issue 20, thirteenth attack run: the CPU cost of following symbolic links with long targets
 * (src/fs/nodes.ts resolve; docs/filesystem.md "Symbolic links": targets up to 256 KiB, at most 40
 * expansions per operation).
 *
 * Tried: a link whose target is `x/../` × 52,000 + `f` (260,001 bytes: within the 256 KiB target limit;
 * `x` a real directory; `..` in a target is physical, so each pair is two real steps), and chains of
 * such links (l_i → `x/../` × 52,000 + `l_{i−1}`), each well inside the 40-expansion ELOOP bound.
 * Measured on Node (node:sqlite, in memory): symlink 9 ms; readFile through ONE such link 1.9 s;
 * through a chain of 10, 22.7 s — about 2 s per expansion, so a chain of 40 (≈10 MB of targets) is
 * ≈80 s for ONE call. Every call resolving the path pays it (stat, readFile, writeFile, the file
 * tools, the shell), synchronously (node:sqlite; Durable Object SQLite is synchronous too).
 * (Held: the walk itself — find/grep — does not follow links, so a tree walk does not pay it.)
 *
 * Found (medium-high): a few symlink calls (any backend that can make links: the shell's `ln -s`,
 * node:fs in the JavaScript backend, the provider) make a path whose every resolution freezes the
 * object for a minute; the 40-expansion bound limits the count of links, not the work per link.
 * Linux bounds the work with PATH_MAX (4,096) per target.
 * Reproduction (Node):
 *   await fs.mkdir("/x"); await fs.writeFile("/f", "hi");
 *   await fs.symlink("x/../".repeat(52_000) + "f", "/l0");
 *   for (let i = 1; i < 20; i++) await fs.symlink("x/../".repeat(52_000) + `l${i - 1}`, `/l${i}`);
 *   await fs.readFile("/l19", "utf8");   // ≈40 s of CPU
 * Fixed: MAX_LINK_SEGMENTS (16,384) segments from link targets per resolution, each directory read once.
 * Suggested fix: bound the segments one resolution may walk (e.g. 40 × 4,096, ELOOP/ENAMETOOLONG
 * past it), or cap link targets at PATH_MAX (4,096 bytes) as Linux does.
 *
 * The call runs in a worker thread (worker-run.ts) so the bounded wait can see the freeze.
 */
import { describe, expect, it } from "vitest";
import { runInWorker } from "./worker-run.js";

describe("attack13b: resolving links with 256 KiB targets", () => {
  it("readFile through a chain of 20 links with `x/../` × 52,000 targets settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/x");
await ws.fs.writeFile("/f", "hi");
await ws.fs.symlink("x/../".repeat(52_000) + "f", "/l0");
for (let i = 1; i < 20; i++) await ws.fs.symlink("x/../".repeat(52_000) + "l" + (i - 1), "/l" + i);
post("links made");
const text = await ws.fs.readFile("/l19", "utf8").then((t) => t, (e) => "error: " + String(e.code ?? e.message));
post({ text });`,
      15_000,
    );
    expect(run.messages[0]).toBe("links made");
    expect(run.settled).toBe(true);
    // A resolution whose link targets add more than MAX_LINK_SEGMENTS (16,384) segments is refused as ELOOP.
    expect(run.messages).toEqual(["links made", { text: "error: ELOOP" }]);
  });

  it("a chain within the bound resolves (each directory read once)", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/x");
await ws.fs.writeFile("/f", "hi");
await ws.fs.symlink("x/../".repeat(4_000) + "f", "/l0");
await ws.fs.symlink("x/../".repeat(4_000) + "l0", "/l1");
await ws.fs.symlink("x/../".repeat(4_000) + "l1", "/l2");
post(await ws.fs.readFile("/l1", "utf8"));
post(await ws.fs.readFile("/l2", "utf8").then((t) => t, (e) => "error: " + String(e.code)));`,
      15_000,
    );
    // l1: 8,000 + 1 + 8,000 + 1 segments; l2 adds 8,001 more: past 16,384.
    expect(run.messages).toEqual(["hi", "error: ELOOP"]);
  });
});
