/**
 * Fixer FJS, issue 20 run 22 (siblings of attack22a js-node-fs-readfile-utf8-drops-bom and
 * js-node-fs-rm-directory-without-recursive): the JavaScript backend's node:fs decodes "utf8" as Node's Buffer does
 * (a leading BOM kept, invalid bytes U+FFFD) through every import of it, and `rm` without `recursive` refuses a
 * directory as Node 22 on Linux does (checked: each message below is Node 22.23's), whatever path leads to it —
 * while a link to a directory, a file, and `recursive` removals work as before.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const hex = `(s) => [...s].map((c) => c.codePointAt(0).toString(16)).join(" ")`;

it("readFile utf8 keeps every BOM as text through node:fs, node:fs/promises and fs.promises", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/only.txt", new Uint8Array([0xef, 0xbb, 0xbf]));
    await ws.fs.writeFile("/workspace/two.txt", new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61]));
    await ws.fs.writeFile("/workspace/bad.txt", new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0x61, 0xe2, 0x82]));
    await ws.fs.writeFile("/workspace/plain.txt", "a\uFEFFb");
    const h = await ws.runtime.exec(
      `import fsDefault, { readFile as named, promises } from "node:fs";
       import { readFile } from "node:fs/promises";
       const hex = ${hex};
       export default async () => ({
         only: hex(await readFile("/workspace/only.txt", "utf8")),
         two: hex(await named("/workspace/two.txt", { encoding: "utf-8" })),
         bad: hex(await promises.readFile("bad.txt", "utf-8")),
         plain: hex(await fsDefault.promises.readFile("/workspace/plain.txt", { encoding: "utf8" })),
         viaDefault: hex(await fsDefault.readFile("/workspace/only.txt", "utf8")),
         bytes: [...(await readFile("/workspace/only.txt"))],
       });`,
    );
    return (await h.result()).value;
  });
  expect(out).toEqual({
    only: "feff",
    two: "feff feff 61",
    bad: "feff fffd 61 fffd",
    plain: "61 feff 62",
    viaDefault: "feff",
    bytes: [0xef, 0xbb, 0xbf],
  });
}, 120_000);

it("rm without recursive refuses a directory by any path to it; links, files and recursive removals still go", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
    await ws.fs.mkdir("/workspace/target", { recursive: true });
    await ws.fs.writeFile("/workspace/target/keep.txt", "k");
    await ws.fs.writeFile("/workspace/f.txt", "f");
    await ws.fs.symlink("/workspace/target", "/workspace/ln");
    await ws.fs.symlink("/workspace/target", "/workspace/ln2");
    await ws.fs.mkdir("/workspace/gone/inner", { recursive: true });
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises";
       const r = (p, o) => fs.rm(p, o).then(() => "resolved", (e) => e.code + " " + e.message);
       export default async () => [
         await r("d"),
         await r("/workspace/d/"),
         await r("/workspace/d/.", { force: true }),
         await r("/workspace/d/.."),
         await r("/workspace/d/sub/"),
         await r("/workspace/ln/"),
         await r("/workspace"),
         await r("."),
         await r("/workspace/missing"),
         await r("/workspace/missing", { force: true }),
         await r("/workspace/ln2"),
         await r("/workspace/f.txt"),
         await r("/workspace/gone", { recursive: true }),
         await r("/workspace/d/.", { recursive: true }),
       ];`,
    );
    const value = (await h.result()).value;
    const left = (await ws.fs.readdir("/workspace")).map((e) => e.name).sort();
    const kept = (await ws.fs.readdir("/workspace/target")).map((e) => e.name);
    const sub = (await ws.fs.readdir("/workspace/d")).map((e) => e.name);
    return { value, left, kept, sub };
  });
  const eisdir = (p: string) => `ERR_FS_EISDIR Path is a directory: rm returned EISDIR (is a directory) ${p}`;
  expect(out.value).toEqual([
    eisdir("d"),
    eisdir("/workspace/d/"),
    eisdir("/workspace/d/."),
    eisdir("/workspace/d/.."),
    eisdir("/workspace/d/sub/"),
    "EACCES cannot traverse symbolic link: /workspace/ln", // the sandbox's rule (a link is never followed), as before
    eisdir("/workspace"),
    eisdir("."),
    "ENOENT ENOENT: no such file or directory, rm: /workspace/missing", // as before
    "resolved",
    "resolved",
    "resolved",
    "resolved",
    `EINVAL EINVAL: invalid argument, rm '/workspace/d' (a path ending in ".")`,
  ]);
  expect(out).toMatchObject({ left: ["d", "ln", "target"], kept: ["keep.txt"], sub: ["sub"] });
}, 120_000);
