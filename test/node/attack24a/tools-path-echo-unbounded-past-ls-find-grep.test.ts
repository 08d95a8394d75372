/**
 * Issue 20, twenty-fourth attack run: the path a tool call gives is echoed whole everywhere but in ls/find/grep's
 * success result — read/write/delete results and every tool's error text carry up to 256 KiB of path, six times
 * that as JSON.
 * Tried: the sibling of attack23a grep-tool-echoes-query-past-max-bytes (fixed by echoedText in ls/find/grep): a path
 * of 250,010 characters — `/workspace` then `/\u0001/..` × 50,000, which normalises back to /workspace (the same
 * path fix23/tools-echo-bounds.test.ts uses) — passed to read, write, edit and delete of the default tool set, and to
 * read, write and ls of a set confined to `root: "/workspace/p"` (so the path is outside it).
 * Held: ls/find/grep success results echo the path cut to 4,096 characters and `[… N characters cut …]`; the
 * operations themselves are right (read reads a.txt, write writes it, delete deletes b.txt, the root refuses).
 * Found (low — the model's context pays twice (×6 for control characters) for a path it sent; 3 of 3 runs): each
 * result below is 500,000+ bytes of JSON: read `{ path: <whole>, content: "one x", … }` (src/tools/core/read.ts),
 * write `{ path: <whole>, bytesWritten }` (write.ts), delete `{ deleted: <whole> }` (delete.ts), edit `Could not find
 * the exact text in <whole>` (edit-apply/edit.ts), read `File not found: <whole>`, and under a root `Path is outside
 * /workspace/p: <whole>` (root.ts) — the last one also from ls, whose success path was just bounded. docs/tools.md
 * says results "echo the path as given" and, since d275189, that ls/find/grep cut it past 4,096 characters.
 * Suggested fix: echo `echoedText(path)` (src/tools/core/paging.ts) in read/write/edit/delete results, and quote the
 * path in the tools' error texts (File not found, Path is outside, Could not find … in, ENOTDIR/EISDIR, …) cut the
 * same way (one helper used by every message that names the caller's path).
 * Fixed: echoedText (src/tools/core/paging.ts) is the one helper for every echo of the caller's path: read's `path`
 * (text, empty file, media `path` and `name`), write's `path`, edit's `path` (and its patch headers), delete's
 * `deleted`, and each message naming the path — File not found, Could not find … in and the other edit refusals,
 * write's unread/stale/twin/half-character refusals, delete's twin refusal, the Unicode sibling hint, read's media
 * errors, `Path is outside <root>: …` and `Path contains a symbolic link: …` (root.ts) — and errorMessage
 * (types.ts) cuts an error's own `path` in its message, so a store's ENOTDIR/EISDIR/ENOENT and publish's share errors
 * are cut too; ws:tools' refusal text and `details.path` likewise (src/modules/tools.ts). Each result below is now the
 * exact text with the path cut to 4,096 characters and `[… N characters cut …]`.
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup } from "../tools/helpers.js";

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");
/** 250,010 characters that normalise to /workspace; each U+0001 is six bytes of JSON (`\u0001`). */
const BASE = "/workspace" + "/\u0001/..".repeat(50_000);
const cut = (path: string) => `${path.slice(0, 4096)}[… ${path.length - 4096} characters cut …]`;
/** A path cut to 4,096 characters is at most 24,576 bytes of JSON (all control characters) plus the marker. */
const BOUND = 32_768;

it("read, write, edit, delete and the root refusal echo a long path cut as ls/find/grep do", async () => {
  const { workspace } = await setup({ "/workspace/a.txt": "one x\n", "/workspace/b.txt": "gone\n", "/workspace/p/in.txt": "in\n" });
  const tools = (root?: string) => {
    const all = buildCoreTools(root ? ({ workspace, root } as never) : { workspace });
    return (name: string, input: Record<string, unknown>) =>
      (all.find((t) => t.name === name)!.execute(input as never, {} as never) as Promise<Record<string, unknown>>).catch((e: Error) => ({ thrown: e.message }));
  };
  const run = tools();
  const inRoot = tools("/workspace/p");

  const out = {
    read: await run("read", { path: `${BASE}/a.txt` }),
    readMissing: await run("read", { path: `${BASE}/nope` }),
    write: await run("write", { path: `${BASE}/c.txt`, content: "z" }),
    edit: await run("edit", { path: `${BASE}/a.txt`, edits: [{ oldText: "zzz", newText: "y" }] }),
    delete: await run("delete", { path: `${BASE}/b.txt` }),
    rootRead: await inRoot("read", { path: `${BASE}/a.txt` }),
    rootWrite: await inRoot("write", { path: `${BASE}/a.txt`, content: "z" }),
    rootLs: await inRoot("ls", { path: BASE }),
  };
  // The operations are right: only the echo is unbounded.
  expect(out.read).toMatchObject({ content: "one x" });
  expect(await workspace.fs.readFile("/workspace/c.txt", "utf8")).toBe("z");
  expect(await workspace.fs.stat("/workspace/b.txt").then(() => "there", (e: { code?: string }) => e.code)).toBe("ENOENT");

  // Found: read 500,104, readMissing 500,043, write 500,044, edit 500,133, delete 500,030, rootRead 500,075,
  // rootWrite 500,058, rootLs 500,052 bytes.
  const sizes = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, bytesOf(v) <= BOUND]));
  expect(sizes).toEqual({ read: true, readMissing: true, write: true, edit: true, delete: true, rootRead: true, rootWrite: true, rootLs: true });
  expect(out.read).toEqual({ path: cut(`${BASE}/a.txt`), content: "one x", startLine: 1, endLine: 1, totalLines: 1, truncated: false });
  expect(out.readMissing).toEqual({ error: `File not found: ${cut(`${BASE}/nope`)}` });
  expect(out.write).toEqual({ path: cut(`${BASE}/c.txt`), bytesWritten: 1 });
  expect(out.edit).toEqual({
    error: `Could not find the exact text in ${cut(`${BASE}/a.txt`)}. The old text must match exactly including all whitespace and newlines.`,
  });
  expect(out.delete).toEqual({ deleted: cut(`${BASE}/b.txt`) });
  expect(out.rootRead).toEqual({ thrown: `Path is outside /workspace/p: ${cut(`${BASE}/a.txt`)}` });
  expect(out.rootWrite).toEqual({ error: `Path is outside /workspace/p: ${cut(`${BASE}/a.txt`)}` });
  expect(out.rootLs).toEqual({ error: `Path is outside /workspace/p: ${cut(BASE)}` });
}, 120_000);
