/**
 * Issue 20, run 32, fixer JB: the JavaScript backend's `node:fs` hands bytes to agent code as Node does — a `Buffer`
 * under `nodejs_compat` (the default), a plain `Uint8Array` without it — on every route that gives bytes: `readFile`
 * without an encoding (each options form, each import of it), `readlink`/`readdir` with the `"buffer"` encoding;
 * `readlink`/`readdir` take Node's other encodings too, and `fs.constants` is Node's object. The expected values of the
 * first test are real Node 22's on the same tree (a temp dir). Sibling tests of
 * attack32a/js-node-fs-readfile-returns-plain-uint8array.test.ts.
 */
import { expect, it } from "vitest";
import { collect, inWorkspace } from "../runtime/helpers.js";

/** Run as written here by Node 22 in a temp dir holding the same tree (its `export default` called), and as the entry here. */
const SNIP = `import fs, { readFile, readlink, readdir, writeFile, constants } from "node:fs/promises";
import * as nfs from "node:fs";
export default async () => {
  const forms = [await readFile("t.txt"), await readFile("t.txt", {}), await readFile("t.txt", { encoding: null }), await readFile("t.txt", null),
    await fs.readFile("t.txt"), await nfs.promises.readFile("t.txt"), await nfs.default.promises.readFile("t.txt")];
  const bin = await readFile("bin");
  await writeFile("copy", bin);
  const errs = [];
  for (const f of [() => readlink("l", "bogus"), () => readdir(".", { encoding: "bogus" }), () => readFile("t.txt", "buffer")]) {
    try { await f(); errs.push("none"); } catch (e) { errs.push(e.code + " " + e.message); }
  }
  const dirents = await readdir("d", { encoding: "buffer", withFileTypes: true });
  return {
    forms: forms.map((b) => [Buffer.isBuffer(b), b instanceof Uint8Array, b.toString()]),
    bin: [Buffer.isBuffer(bin), bin.length, bin.toString("hex"), [...bin]],
    copy: (await readFile("copy")).toString("base64"),
    links: [Buffer.isBuffer(await readlink("l", "buffer")), String(await readlink("l", { encoding: "buffer" })), await readlink("lé", "hex"),
      await readlink("l", "utf8"), await readlink("l", {}), await readlink("l", "base64")],
    names: (await readdir(".", "buffer")).map((n) => [Buffer.isBuffer(n), n.toString()]).sort(),
    hex: (await readdir("d", { encoding: "hex" })).sort(),
    dirents: dirents.map((d) => [Buffer.isBuffer(d.name), String(d.name), d.parentPath, d.isDirectory()]).sort(),
    errs,
    constants: [constants.F_OK, constants.R_OK, constants.W_OK, constants.X_OK, constants.O_CREAT, constants.S_IFMT, constants.COPYFILE_EXCL,
      constants === nfs.constants, constants === nfs.promises.constants, nfs.default.constants === constants, fs.constants === constants,
      Object.getPrototypeOf(constants), Object.keys(constants).length],
  };
};`;

/** What Node 22 returned for {@link SNIP}. */
const NODE = {"forms": [[true, true, "hé\nx\n"], [true, true, "hé\nx\n"], [true, true, "hé\nx\n"], [true, true, "hé\nx\n"], [true, true, "hé\nx\n"], [true, true, "hé\nx\n"], [true, true, "hé\nx\n"]], "bin": [true, 3, "ff00fe", [255, 0, 254]], "copy": "/wD+", "links": [true, "t.txt", "642f652f662e747874", "t.txt", "t.txt", "dC50eHQ="], "names": [[true, "bin"], [true, "copy"], [true, "d"], [true, "l"], [true, "lé"], [true, "t.txt"]], "hex": ["65"], "dirents": [[true, "e", "d", true]], "errs": ["ERR_INVALID_ARG_VALUE The argument 'encoding' is invalid encoding. Received 'bogus'", "ERR_INVALID_ARG_VALUE The argument 'encoding' is invalid encoding. Received 'bogus'", "ERR_UNKNOWN_ENCODING Unknown encoding: buffer"], "constants": [0, 4, 2, 1, 64, 61440, 1, true, true, true, true, null, 56]};

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  return (await collect(stream)).flatMap((c) => [...c]);
}

it("every bytes route gives a Buffer, names take Node's encodings, constants is Node's — as Node 22", async () => {
  const { value, copy } = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/e", { recursive: true });
    await ws.fs.writeFile("/workspace/t.txt", "hé\nx\n");
    await ws.fs.writeFile("/workspace/bin", new Uint8Array([0xff, 0x00, 0xfe]));
    await ws.fs.writeFile("/workspace/d/e/f.txt", "q");
    const links = await ws.runtime.exec(
      `import { symlink } from "node:fs/promises";
       export default async () => { await symlink("t.txt", "l"); await symlink("d/e/f.txt", "lé"); }`,
    );
    expect((await links.result()).exitCode).toBe(0);
    const r = await (await ws.runtime.exec(SNIP)).result();
    expect(r.exitCode).toBe(0);
    return { value: r.value, copy: await bytesOf(await ws.fs.readFile("/workspace/copy")) };
  });
  expect(value).toEqual(NODE);
  expect(copy).toEqual([255, 0, 254]);
}, 120_000);

it("node:fs's promise readFile (named, default) gives a Buffer too; recursive readdir encodes each relative name", async () => {
  const value = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/e", { recursive: true });
    await ws.fs.writeFile("/workspace/d/e/f.txt", "q");
    const h = await ws.runtime.exec(
      `import fs, { readFile, readdir } from "node:fs";
       export default async () => {
         const a = await readFile("d/e/f.txt"), b = await fs.readFile("d/e/f.txt");
         const dirents = await readdir("d", { recursive: true, withFileTypes: true, encoding: "buffer" });
         return {
           named: [Buffer.isBuffer(a), a.toString()], dflt: [Buffer.isBuffer(b), b.toString()],
           hex: await readdir("d", { recursive: true, encoding: "hex" }),
           dirents: dirents.map((d) => [Buffer.isBuffer(d.name), d.name.toString(), d.parentPath]),
           x: fs.constants.X_OK,
         };
       }`,
    );
    const r = await h.result();
    expect(r.exitCode).toBe(0);
    return r.value;
  });
  expect(value).toEqual({
    named: [true, "q"],
    dflt: [true, "q"],
    hex: ["65", "652f662e747874"], // "e", "e/f.txt"
    dirents: [[true, "e", "d"], [true, "f.txt", "d/e"]],
    x: 1,
  });
}, 120_000);

it("without nodejs_compat (no Buffer) the same routes give a plain Uint8Array of the same bytes", async () => {
  const value = await inWorkspace(
    async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/t.txt", "hé");
      const h = await ws.runtime.exec(
        `import { readFile, readlink, readdir, symlink, constants } from "node:fs/promises";
         export default async () => {
           await symlink("t.txt", "l");
           const bytes = await readFile("t.txt"), link = await readlink("l", "buffer"), names = await readdir(".", "buffer");
           const plain = (b) => [typeof Buffer, Object.getPrototypeOf(b) === Uint8Array.prototype, [...b]];
           return { bytes: plain(bytes), link: plain(link), names: names.map(plain), text: await readFile("t.txt", "utf8"), f: constants.F_OK };
         }`,
      );
      const r = await h.result();
      expect(r.exitCode).toBe(0);
      return r.value;
    },
    { backend: { compatibilityFlags: [] } },
  );
  expect(value).toEqual({
    bytes: ["undefined", true, [104, 195, 169]],
    link: ["undefined", true, [116, 46, 116, 120, 116]],
    names: [["undefined", true, [108]], ["undefined", true, [116, 46, 116, 120, 116]]],
    text: "hé",
    f: 0,
  });
}, 120_000);

it("the backend's description still lists the 11 functions (constants is not one)", async () => {
  const { jsBackend } = await import("../runtime/helpers.js");
  const line = jsBackend().description.split("\n").find((l) => l.includes("node:fs/promises"));
  expect(line).toBe(
    "- `node:fs/promises` (also `node:fs`): readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access; promise API only, no sync or callback functions.",
  );
});
