/**
 * isomorphic-git inside real workerd (nodejs_compat): the generated bundle
 * (pako swapped for node:zlib) loads, init/add/commit/log run through the
 * workspace.fs bridge on a Durable Object Workspace, and the node:zlib
 * streaming Inflate drives isomorphic-git's pack parser: a pack made with
 * `packObjects` is indexed (`indexPack`) in a fresh repository and read back.
 *
 * The oids are the ones the real git CLI gives for the same tree, identity
 * and dates (computed with git 2.39: `GIT_AUTHOR_DATE="1700000000 +0000"`).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";
import { expect, it } from "vitest";
import { createWorkspaceFsBridge } from "../../../src/git/fs-bridge.js";
import { loadIsomorphicGit } from "../../../src/git/load.js";
import { Inflate, inflate } from "../../../src/git/zlib-pako.js";
import { Workspace } from "../../../src/index.js";

const FIRST = "bc765021dc54586f2e9134d870a83806524bbee2";
const FIRST_TREE = "613add56e64b58b8a1ebc621d4c3991d3debb103";
const SECOND = "75500656111264719845e54f99a57da13ab8a180";
const author = (timestamp: number) => ({ name: "Smoke", email: "smoke@example.com", timestamp, timezoneOffset: 0 });

it("the node:zlib pako shim works in workerd: exact avail_in after a stream's end, pako-style errors", () => {
  const text = Buffer.from("workerd zlib ".repeat(100));
  const after = Buffer.from("rest of the pack");
  const inf = new Inflate();
  expect(inf.push(Buffer.concat([deflateSync(text), after]), false)).toBe(true);
  expect(Buffer.from(inf.result!).equals(text)).toBe(true);
  expect(inf.strm.avail_in).toBe(after.length);
  const z = deflateSync(text);
  const split = new Inflate();
  split.push(z.subarray(0, 9), false);
  expect(split.result).toBeUndefined();
  split.push(Buffer.concat([z.subarray(9), after]), false);
  expect(split.strm.avail_in).toBe(after.length);
  expect(Buffer.from(split.result!).equals(text)).toBe(true);
  const bad = new Inflate();
  expect(bad.push(Buffer.from("not zlib"), false)).toBe(false);
  expect([bad.err, bad.msg]).toEqual([-3, "incorrect header check"]);
  let thrown: unknown;
  try {
    inflate(Buffer.from("not zlib"));
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBe("incorrect header check");
});

it("isomorphic-git in a Durable Object Workspace: init/add/commit/log; packObjects → indexPack in a fresh repository", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  await runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({ storage: state.storage });
    const { git } = await loadIsomorphicGit();
    expect(typeof git.version()).toBe("string");
    const fs = await createWorkspaceFsBridge(ws);
    const dir = "/repo";
    await ws.fs.mkdir(dir);
    await git.init({ fs, dir, defaultBranch: "main" });
    await ws.fs.writeFile(`${dir}/README.md`, "# smoke\n");
    await ws.fs.mkdir(`${dir}/bin`);
    await ws.fs.writeFile(`${dir}/bin/run.sh`, "#!/bin/sh\necho hi\n", { mode: 0o755 });
    await ws.fs.symlink("README.md", `${dir}/link`);
    await git.add({ fs, dir, filepath: "." });
    expect(await git.commit({ fs, dir, message: "first\n", author: author(1_700_000_000) })).toBe(FIRST);
    await ws.fs.writeFile(`${dir}/two.txt`, "two\n");
    await git.add({ fs, dir, filepath: "two.txt" });
    expect(await git.commit({ fs, dir, message: "second\n", author: author(1_700_000_060) })).toBe(SECOND);
    const log = await git.log({ fs, dir });
    expect(log.map((c) => c.oid)).toEqual([SECOND, FIRST]);
    expect(log[1]!.commit.tree).toBe(FIRST_TREE);
    expect(await git.currentBranch({ fs, dir })).toBe("main");
    expect((await git.statusMatrix({ fs, dir })).map((row) => row.join(" "))).toEqual([
      "README.md 1 1 1",
      "bin/run.sh 1 1 1",
      "link 1 1 1",
      "two.txt 1 1 1",
    ]);
    // A checkout writes the executable bit and the link back through the bridge.
    await ws.fs.rm(`${dir}/bin`, { recursive: true });
    await ws.fs.rm(`${dir}/link`);
    await git.checkout({ fs, dir, ref: "main", force: true });
    expect((await ws.fs.stat(`${dir}/bin/run.sh`)).mode).toBe(0o755);
    expect(await ws.fs.readlink(`${dir}/link`)).toBe("README.md");

    // Every object of both commits, packed by isomorphic-git.
    const oids = new Set<string>();
    const walkTree = async (oid: string): Promise<void> => {
      oids.add(oid);
      for (const entry of (await git.readTree({ fs, dir, oid })).tree) {
        if (entry.type === "tree") await walkTree(entry.oid);
        else oids.add(entry.oid);
      }
    };
    for (const { oid, commit } of log) {
      oids.add(oid);
      await walkTree(commit.tree);
    }
    expect(oids.size).toBe(9); // as `git rev-list --objects --all` counts them
    const { filename, packfile } = await git.packObjects({ fs, dir, oids: [...oids], write: false });
    expect(filename).toMatch(/^pack-[0-9a-f]{40}\.pack$/);
    expect(Buffer.from(packfile!.subarray(0, 4)).toString("latin1")).toBe("PACK");

    const other = "/other";
    await ws.fs.mkdir(other);
    await git.init({ fs, dir: other, defaultBranch: "main" });
    await ws.fs.writeFile(`${other}/.git/objects/pack/${filename}`, packfile!);
    const indexed = await git.indexPack({ fs, dir: other, filepath: `.git/objects/pack/${filename}` });
    expect([...indexed.oids].sort()).toEqual([...oids].sort());
    expect((await ws.fs.stat(`${other}/.git/objects/pack/${filename.replace(/\.pack$/, ".idx")}`)).size).toBeGreaterThan(1000);
    await git.writeRef({ fs, dir: other, ref: "refs/heads/main", value: SECOND });
    expect((await git.log({ fs, dir: other })).map((c) => c.oid)).toEqual([SECOND, FIRST]);
    const { blob } = await git.readBlob({ fs, dir: other, oid: SECOND, filepath: "bin/run.sh" });
    expect(Buffer.from(blob).toString("utf8")).toBe("#!/bin/sh\necho hi\n");
    await git.checkout({ fs, dir: other, ref: "main", force: true });
    expect(await ws.fs.readFile(`${other}/two.txt`, "utf8")).toBe("two\n");
    expect((await ws.fs.stat(`${other}/bin/run.sh`)).mode).toBe(0o755);
    expect(await ws.fs.readlink(`${other}/link`)).toBe("README.md");
    // No loose objects in the fresh repository: every read went through the pack.
    expect((await ws.fs.readdir(`${other}/.git/objects`)).map((e) => e.name).sort()).toEqual(["info", "pack"]);
  });
});
