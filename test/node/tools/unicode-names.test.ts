/**
 * Issue 12 §6: names equal up to Unicode normalisation. The Workspace keeps
 * names as given (`workspace.fs` is untouched); the tools name the stored
 * spelling when a lookup misses, and write will not create a twin. Each
 * step runs through every adapter's own loop.
 */
import { describe, expect, it } from "vitest";
import { findEquivalentSibling, mayHaveTwin } from "../../../src/tools/core/unicode-names.js";
import { drivers } from "./adapter-drivers.js";
import { bytes, setup, text } from "./helpers.js";

const NFD = "/workspace/Re\u0301sume\u0301.md";
const NFC = "/workspace/R\u00e9sum\u00e9.md";
const DIR_NFD = "/workspace/Cafe\u0301";
const DIR_NFC = "/workspace/Caf\u00e9";
const hint = (kind: string, path: string, form: string) =>
  `A ${kind} with the same name in another Unicode normalisation exists: ${path} (${form}) — use that path.`;

const names = async (workspace: Awaited<ReturnType<typeof setup>>["workspace"], dir: string) =>
  (await workspace.fs.readdir(dir)).map((e) => e.name);

describe("Unicode-equivalent names (issue 12 §6)", () => {
  for (const driver of drivers()) {
    describe(driver.name, () => {
      it("a file stored as NFD, asked for as NFC: read, edit and delete name the stored spelling; write refuses to make a twin", async () => {
        const { workspace } = await setup({ [NFD]: "cv\n" });
        const tools = driver.build({ workspace });
        expect(NFD).not.toBe(NFC);
        expect(await driver.call(tools, "read", { path: NFC })).toEqual({ isError: true, text: `File not found: ${NFC}. ${hint("file", NFD, "NFD")}` });
        expect(await driver.call(tools, "edit", { path: NFC, edits: [{ oldText: "cv", newText: "CV" }] })).toEqual({
          isError: true,
          text: `File not found: ${NFC}. ${hint("file", NFD, "NFD")}`,
        });
        expect(await driver.call(tools, "write", { path: NFC, content: "new\n" })).toEqual({
          isError: true,
          text: `Not written: ${NFC} would be a new file beside ${NFD} (NFD), a file with the same name in another Unicode normalisation. Write to that path instead.`,
        });
        expect(await driver.call(tools, "delete", { path: NFC })).toEqual({ isError: true, text: `Nothing deleted: ${NFC} does not exist. ${hint("file", NFD, "NFD")}` });
        // Nothing changed: one entry, stored as NFD, with its bytes.
        expect(await names(workspace, "/workspace")).toEqual(["Re\u0301sume\u0301.md"]);
        expect(await bytes(workspace, NFD)).toEqual(new TextEncoder().encode("cv\n"));
        // The stored spelling works for every tool.
        expect(await driver.call(tools, "read", { path: NFD })).toEqual({ isError: false, text: "cv" });
        expect(await driver.call(tools, "write", { path: NFD, content: "cv 2\n" })).toEqual({ isError: false, text: JSON.stringify({ path: NFD, bytesWritten: 5 }) });
        expect(await driver.call(tools, "edit", { path: NFD, edits: [{ oldText: "cv 2", newText: "CV" }] })).toMatchObject({ isError: false });
        expect(await text(workspace, NFD)).toBe("CV\n");
        expect(await driver.call(tools, "delete", { path: NFD })).toEqual({ isError: false, text: JSON.stringify({ deleted: NFD }) });
        expect(await names(workspace, "/workspace")).toEqual([]);
        // With no twin left, the NFC name is an ordinary new file, and a missing path deletes as before.
        expect(await driver.call(tools, "delete", { path: NFC })).toEqual({ isError: false, text: JSON.stringify({ deleted: NFC }) });
        expect(await driver.call(tools, "write", { path: NFC, content: "nfc\n" })).toEqual({ isError: false, text: JSON.stringify({ path: NFC, bytesWritten: 4 }) });
        expect(await names(workspace, "/workspace")).toEqual(["R\u00e9sum\u00e9.md"]);
      });

      it("the other way round (stored NFC, asked as NFD), and a plain miss has no hint", async () => {
        const { workspace } = await setup({ [NFC]: "cv\n" });
        const tools = driver.build({ workspace });
        expect(await driver.call(tools, "read", { path: NFD })).toEqual({ isError: true, text: `File not found: ${NFD}. ${hint("file", NFC, "NFC")}` });
        expect(await driver.call(tools, "read", { path: "/workspace/other.md" })).toEqual({ isError: true, text: "File not found: /workspace/other.md" });
        expect(await driver.call(tools, "write", { path: NFD, content: "x" })).toEqual({
          isError: true,
          text: `Not written: ${NFD} would be a new file beside ${NFC} (NFC), a file with the same name in another Unicode normalisation. Write to that path instead.`,
        });
        expect(await names(workspace, "/workspace")).toEqual(["R\u00e9sum\u00e9.md"]);
      });

      it("under a root, a relative name gets the hint with the stored absolute path, and write refuses the twin", async () => {
        const { workspace } = await setup({ [NFD]: "cv\n", [`${DIR_NFD}/menu.txt`]: "espresso\n" });
        const tools = driver.build({ workspace, root: "/workspace" });
        expect(await driver.call(tools, "read", { path: "R\u00e9sum\u00e9.md" })).toEqual({ isError: true, text: `File not found: R\u00e9sum\u00e9.md. ${hint("file", NFD, "NFD")}` });
        expect(await driver.call(tools, "write", { path: "R\u00e9sum\u00e9.md", content: "x" })).toEqual({
          isError: true,
          text: `Not written: R\u00e9sum\u00e9.md would be a new file beside ${NFD} (NFD), a file with the same name in another Unicode normalisation. Write to that path instead.`,
        });
        expect(await driver.call(tools, "ls", { path: "Caf\u00e9" })).toEqual({
          isError: true,
          text: `ENOENT: no such file or directory, readdir: ${DIR_NFC}. ${hint("directory", DIR_NFD, "NFD")}`,
        });
        expect(await names(workspace, "/workspace")).toEqual(["Cafe\u0301", "Re\u0301sume\u0301.md"]);
      });

      it("a directory stored as NFD: ls, find and grep of the NFC name name it; a write into the NFC name refuses", async () => {
        const { workspace } = await setup({ [`${DIR_NFD}/menu.txt`]: "espresso\n" });
        const tools = driver.build({ workspace });
        expect(await driver.call(tools, "ls", { path: DIR_NFC })).toEqual({
          isError: true,
          text: `ENOENT: no such file or directory, readdir: ${DIR_NFC}. ${hint("directory", DIR_NFD, "NFD")}`,
        });
        expect(await driver.call(tools, "find", { path: DIR_NFC, pattern: "**" })).toEqual({
          isError: true,
          text: `ENOENT: no such file or directory, find: ${DIR_NFC}. ${hint("directory", DIR_NFD, "NFD")}`,
        });
        expect(await driver.call(tools, "grep", { path: DIR_NFC, query: "espresso" })).toEqual({
          isError: true,
          text: `ENOENT: no such file or directory, grep: ${DIR_NFC}. ${hint("directory", DIR_NFD, "NFD")}`,
        });
        expect(await driver.call(tools, "write", { path: DIR_NFC, content: "x" })).toEqual({
          isError: true,
          text: `Not written: ${DIR_NFC} would be a new file beside ${DIR_NFD} (NFD), a directory with the same name in another Unicode normalisation. Write to that path instead.`,
        });
        expect(await names(workspace, "/workspace")).toEqual(["Cafe\u0301"]);
      });
    });
  }
});

describe("which names need a listing", () => {
  it("only ASCII names with K, ; or ` can have an NFC twin among ASCII names; every other name may", async () => {
    // Every code point whose NFC form is ASCII but is not itself ASCII.
    const toAscii: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (c.normalize("NFC") !== c && /^[\x00-\x7f]*$/.test(c.normalize("NFC"))) toAscii.push(`U+${cp.toString(16).toUpperCase()} -> ${c.normalize("NFC")}`);
    }
    expect(toAscii).toEqual(["U+37E -> ;", "U+1FEF -> `", "U+212A -> K"]);
    expect([mayHaveTwin("notes.md"), mayHaveTwin("Makefile"), mayHaveTwin("KEYS"), mayHaveTwin("a;b"), mayHaveTwin("R\u00e9sum\u00e9.md")]).toEqual([false, false, true, true, true]);
    // The Kelvin sign: "\u212Aey" stored, "Key" asked for.
    const { workspace } = await setup({ "/workspace/\u212Aey": "k" });
    const readdir = (p: string, o: { limit: number; offset: number }) => workspace.fs.readdir(p, o);
    expect(await findEquivalentSibling(readdir, "/workspace/Key")).toEqual({ path: "/workspace/\u212Aey", form: "neither NFC nor NFD", kind: "file" });
  });
});
