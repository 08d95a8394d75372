/**
 * Issue 20 seventh attack run, category 3 (hostile files) in git: a
 * `.git/index` written by hand (as code with write access to the repository
 * can), holding an entry whose path leaves the working tree —
 * `../../outside/victim` and `sub/../../../outside/victim` — then status,
 * diff, ls-files, add -u, commit -a, checkout -- ., reset --hard, stash and
 * clean. Real git refuses such an index ("invalid path"). Withstood: every
 * command that walks the index fails with `git <cmd>: The filepath "<p>"
 * contains unsafe character sequences` (exit 1), `rm --cached <p>` says the
 * path is outside the repository; the outside file is never read into any
 * output, changed or removed, and nothing is made outside the repository.
 * (Issue 15's attack-tree.test.ts covers the same names in TREES.)
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

/** A version-2 index of regular-file entries, names as given (no checks), with its SHA-1 trailer. */
function rawIndex(entries: { name: string; oid: string; size: number }[]): Uint8Array {
  const head = Buffer.alloc(12);
  head.write("DIRC", 0);
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(entries.length, 8);
  const parts: Buffer[] = [head];
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const fixed = Buffer.alloc(62);
    fixed.writeUInt32BE(0o100644, 24);
    fixed.writeUInt32BE(e.size, 36);
    Buffer.from(e.oid, "hex").copy(fixed, 40);
    fixed.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    parts.push(fixed, name, Buffer.alloc(8 - ((62 + name.length) % 8)));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
const COMMANDS = [["status", "--porcelain"], ["diff"], ["ls-files"], ["add", "-u"], ["commit", "-a", "-m", "c"], ["checkout", "--", "."], ["reset", "--hard"], ["stash"], ["clean", "-fd"]];

describe("attack7: an index entry whose path leaves the working tree", () => {
  for (const name of ["../../outside/victim", "sub/../../../outside/victim"]) {
    it(`${name}: every command refuses it; the outside file is untouched and never printed`, { timeout: 30_000 }, async () => {
      const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
      await ws.fs.mkdir("/w/repo/sub", { recursive: true });
      await ws.fs.mkdir("/outside", { recursive: true });
      await ws.fs.writeFile("/outside/victim", "TOKEN=hunter2\n");
      await ws.git!.init({ dir: "/w/repo" });
      await ws.fs.writeFile("/w/repo/a", "a\n");
      await ws.git!.add({ dir: "/w/repo", paths: ["a"] });
      await ws.git!.commit({ dir: "/w/repo", message: "base" });
      await ws.fs.writeFile("/w/repo/.git/index", rawIndex([{ name, oid: EMPTY_BLOB, size: 0 }]));
      for (const argv of COMMANDS) {
        const r = await ws.git!.cli({ argv, cwd: "/w/repo" });
        expect(r, argv.join(" ")).toEqual({ stdout: "", stderr: `git ${argv[0]}: The filepath "${name}" contains unsafe character sequences\n`, exitCode: 1 });
      }
      expect(await ws.git!.cli({ argv: ["rm", "--cached", name], cwd: "/w/repo" })).toEqual({ stdout: "", stderr: `git rm: path '${name}' is outside the repository at /w/repo\n`, exitCode: 1 });
      expect(await ws.fs.readFile("/outside/victim", "utf8")).toBe("TOKEN=hunter2\n");
      expect((await ws.fs.find("/", "**")).map((e) => e.path).filter((p) => !p.startsWith("/w/"))).toEqual(["/outside", "/outside/victim", "/w"]);
      expect((await ws.git!.log({ dir: "/w/repo" })).map((c) => c.message)).toEqual(["base\n"]);
    });
  }
});
