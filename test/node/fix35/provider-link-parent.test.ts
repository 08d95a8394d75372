/**
 * Issue 20, run 35, fixer SL: every call of the node:fs-style provider that creates an entry, with a symbolic link
 * (or a chain of them) among the new path's parents, against node:fs on Linux (test/node/fs/linux-oracle.ts runs the
 * same code on a temp dir and on a fresh Workspace under `/w`). symlink(2), mkdir(2), open(2) with O_CREAT,
 * rename(2)'s new path (and so copyFile) all resolve the parent of the new name through its links; a
 * dangling parent link is ENOENT, one to a file ENOTDIR, a loop ELOOP, and an existing name EEXIST — naming the path
 * as given. Attacker's test: test/node/attack35f/provider-symlink-through-linked-parent.test.ts.
 */
import { expect, it } from "vitest";
import { onLinuxAndProvider, type NodeFsPromises } from "../fs/linux-oracle.js";

/** `run`'s outcome: "ok" or `CODE: message` with the base directory shown as `$B`. */
async function outcome(base: string, run: () => Promise<unknown>): Promise<string> {
  return run().then(
    () => "ok",
    (e: NodeJS.ErrnoException) => `${e.code}: ${e.message.split(base).join("$B")}`,
  );
}

/** Every entry under `dir` (links not followed) with its kind and, for a link, its target (`base` shown as `$B`); a file's text. */
async function tree(fs: NodeFsPromises, dir: string, prefix = "", base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await fs.readdir(dir)).sort()) {
    const path = `${dir}/${name}`;
    const st = await fs.lstat(path);
    if (st.isSymbolicLink()) out.push(`${prefix}${name} -> ${(await fs.readlink(path)).split(base).join("$B")}`);
    else if (st.isDirectory()) out.push(`${prefix}${name}/`, ...(await tree(fs, path, `${prefix}${name}/`, base)));
    else out.push(`${prefix}${name} = ${await fs.readFile(path, "utf8")}`);
  }
  return out;
}

async function layout(fs: NodeFsPromises, base: string): Promise<void> {
  await fs.mkdir(`${base}/real/sub`, { recursive: true });
  await fs.writeFile(`${base}/real/t.txt`, "T");
  await fs.symlink("real", `${base}/lnk`);
  await fs.symlink("lnk", `${base}/chain`); // a link to a link
  await fs.symlink(`${base}/real`, `${base}/abs`); // absolute target
  await fs.symlink("..", `${base}/real/sub/up`); // relative target ".." (leads back to real)
  await fs.symlink("nowhere", `${base}/dangling`);
  await fs.symlink("real/t.txt", `${base}/tofile`);
  await fs.symlink("loop", `${base}/loop`);
}

it("symlink through linked parents makes the link in the real directory; failures as Linux", async () => {
  const { linux, provider } = await onLinuxAndProvider(async (fs, base) => {
    await layout(fs, base);
    const results: Record<string, string> = {};
    for (const [name, path] of [
      ["lnk", "lnk/a"],
      ["chain", "chain/b"],
      ["abs", "abs/c"],
      ["up", "real/sub/up/d"],
      ["deep", "chain/sub/e"],
      ["exists", "lnk/t.txt"],
      ["dangling", "dangling/x"],
      ["tofile", "tofile/x"],
      ["loop", "loop/x"],
      ["missing", "lnk/nope/x"],
    ]) {
      results[name] = await outcome(base, () => fs.symlink("t.txt", `${base}/${path}`));
    }
    results.readThrough = await fs.readFile(`${base}/lnk/a`, "utf8").catch((e: NodeJS.ErrnoException) => String(e.code));
    return { results, tree: await tree(fs, base) };
  });
  expect(linux.results).toEqual({
    lnk: "ok",
    chain: "ok",
    abs: "ok",
    up: "ok",
    deep: "ok",
    exists: "EEXIST: EEXIST: file already exists, symlink 't.txt' -> '$B/lnk/t.txt'",
    dangling: "ENOENT: ENOENT: no such file or directory, symlink 't.txt' -> '$B/dangling/x'",
    tofile: "ENOTDIR: ENOTDIR: not a directory, symlink 't.txt' -> '$B/tofile/x'",
    loop: "ELOOP: ELOOP: too many symbolic links encountered, symlink 't.txt' -> '$B/loop/x'",
    missing: "ENOENT: ENOENT: no such file or directory, symlink 't.txt' -> '$B/lnk/nope/x'",
    readThrough: "T",
  });
  expect(provider).toEqual(linux);
});

it("mkdir, writeFile, appendFile, open, rename and copyFile through linked parents, as Linux", async () => {
  const { linux, provider } = await onLinuxAndProvider(async (fs, base) => {
    await layout(fs, base);
    await fs.writeFile(`${base}/m.txt`, "M");
    await fs.writeFile(`${base}/n.txt`, "N");
    const results: Record<string, string> = {};
    results.mkdir = await outcome(base, () => fs.mkdir(`${base}/lnk/d1`));
    results.mkdirChain = await outcome(base, () => fs.mkdir(`${base}/chain/sub/d2`));
    results.mkdirP = await outcome(base, () => fs.mkdir(`${base}/abs/p/q`, { recursive: true }));
    results.mkdirDangling = await outcome(base, () => fs.mkdir(`${base}/dangling/d`));
    results.writeFile = await outcome(base, () => fs.writeFile(`${base}/lnk/w.txt`, "W"));
    results.writeUp = await outcome(base, () => fs.writeFile(`${base}/real/sub/up/w2.txt`, "W2"));
    results.append = await outcome(base, () => fs.appendFile(`${base}/chain/ap.txt`, "A"));
    results.open = await outcome(base, async () => (await fs.open(`${base}/lnk/o.txt`, "wx")).close());
    results.rename = await outcome(base, () => fs.rename(`${base}/m.txt`, `${base}/lnk/moved.txt`));
    results.renameUp = await outcome(base, () => fs.rename(`${base}/n.txt`, `${base}/real/sub/up/sub/n2.txt`));
    results.renameTofile = await outcome(base, () => fs.rename(`${base}/real/t.txt`, `${base}/tofile/x`));
    results.copyFile = await outcome(base, () => fs.copyFile(`${base}/real/t.txt`, `${base}/chain/c.txt`));
    return { results, tree: await tree(fs, base) };
  });
  expect(linux.results).toEqual({
    mkdir: "ok",
    mkdirChain: "ok",
    mkdirP: "ok",
    mkdirDangling: "ENOENT: ENOENT: no such file or directory, mkdir '$B/dangling/d'",
    writeFile: "ok",
    writeUp: "ok",
    append: "ok",
    open: "ok",
    rename: "ok",
    renameUp: "ok",
    renameTofile: "ENOTDIR: ENOTDIR: not a directory, rename '$B/real/t.txt' -> '$B/tofile/x'",
    copyFile: "ok",
  });
  expect(provider).toEqual(linux);
});
