/**
 * Fixer FA3, issue 20 run 24 (siblings of attack24a tools-path-echo-unbounded-past-ls-find-grep and
 * tools-enametoolong-error-splits-surrogate): every echo of a caller's path by the file tools is cut as ls/find/grep
 * cut it (echoedText: 4,096 characters, then `[… N characters cut …]`) — write's refusals, a store's ENOTDIR through
 * errorMessage, edit's result and patch, read's media result, publish's share error — and every message that quotes
 * the start of a caller's text keeps whole characters (tooLong, delete's refusal, kill signals, ifMatch, contentType,
 * globs, tool-dirs values and names).
 */
import { describe, expect, it } from "vitest";
import { checkContentType } from "../../../src/assets/metadata.js";
import { checkKillSignal } from "../../../src/runtime/errors.js";
import { checkToolParams } from "../../../src/tool-dirs/run.js";
import { show } from "../../../src/tool-dirs/validate.js";
import { publishDefinition } from "../../../src/tools/core/publish.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { headCut } from "../../../src/util/cut.js";
import { setup } from "../tools/helpers.js";

const SMILE = "\u{1F600}";
/** A UTF-16 unit that is half of a pair with no other half beside it. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** 250,010 characters that normalise to /workspace (as the attack test). */
const BASE = "/workspace" + "/\u0001/..".repeat(50_000);
const cut = (path: string) => `${path.slice(0, 4096)}[… ${path.length - 4096} characters cut …]`;
/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

type Run = (name: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;
function toolsOf(options: Record<string, unknown>): Run {
  const all = buildCoreTools(options as never);
  return (name, input) =>
    (all.find((t) => t.name === name)!.execute(input as never, {} as never) as Promise<Record<string, unknown>>).catch((e: Error) => ({ thrown: e.message }));
}

describe("the file tools echo a long path cut", () => {
  it("write's unread refusal and a store's ENOTDIR name the path cut", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const run = toolsOf({ workspace, write: { requireFreshRead: true } });
    expect(await run("write", { path: `${BASE}/a.txt`, content: "z" })).toEqual({
      error: `File has not been read: ${cut(`${BASE}/a.txt`)} already exists. Read it first, then write, so that its current content is not lost.`,
    });
    expect(await run("write", { path: `${BASE}/a.txt/x`, content: "z" })).toEqual({ error: `ENOTDIR: not a directory, writeFile: ${cut(`${BASE}/a.txt/x`)}` });
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("one\n");
  });

  it("edit's result and its patch name the path cut; the file is edited", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const out = await toolsOf({ workspace })("edit", { path: `${BASE}/a.txt`, edits: [{ oldText: "one", newText: "two" }] });
    const shown = cut(`${BASE}/a.txt`);
    expect(out).toMatchObject({ path: shown, editsApplied: 1, diff: "-1 one\n+1 two", firstChangedLine: 1 });
    // The ---/+++ headers quote the cut path as C strings (its control characters escaped): three cut copies in all.
    const patch = String(out.patch);
    expect(patch.startsWith(`Index: ${shown}\n`)).toBe(true);
    expect(patch.endsWith("\n@@ -1,1 +1,1 @@\n-one\n+two\n")).toBe(true);
    expect(patch.split(" 245920 characters cut ").length).toBe(4);
    expect(patch.length).toBeLessThan(3 * 4096 * 4);
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("two\n");
  });

  it("read's media result cuts a long path and a long name", async () => {
    const name = `${"n".repeat(5000)}.png`;
    const { workspace } = await setup({ [`/workspace/${name}`]: PNG });
    const out = await toolsOf({ workspace })("read", { path: `/workspace/${name}` });
    expect(out).toMatchObject({ kind: "image", path: cut(`/workspace/${name}`), name: cut(name), mediaType: "image/png", sizeBytes: PNG.byteLength });
  });

  it("publish's share error names the path cut", async () => {
    const { workspace } = await setup();
    const path = `/workspace/${"d".repeat(5000)}`;
    const tool = publishDefinition({ workspace: { assets: { share: (p: string) => workspace.fs.stat(p).then(() => "https://example.com/x") } } });
    expect(await tool.execute({ path })).toEqual({ ok: false, error: `ENOENT: no such file or directory, stat: ${cut(path)}` });
  });

  it("a path of at most 4,096 characters is echoed whole, as before", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const path = `/workspace/${"q".repeat(4096 - 11)}`;
    const run = toolsOf({ workspace });
    expect(await run("read", { path })).toEqual({ error: `File not found: ${path}` });
    expect(await run("delete", { path })).toEqual({ deleted: path });
  });
});

describe("quotes of a caller's text keep whole characters", () => {
  it("delete's refusal of a path ending in .. cuts before a pair that straddles unit 200", async () => {
    const { workspace } = await setup();
    // "/workspace/" is 11 units: unit 199 is the first half of the 95th 😀.
    const path = `/workspace/${SMILE.repeat(200)}/..`;
    const out = (await toolsOf({ workspace })("delete", { path })) as { error: string };
    expect(out).toEqual({
      error: `EINVAL: invalid argument, delete: refusing to delete a path ending in ".." (${JSON.stringify(`/workspace/${SMILE.repeat(94)}`)}…[${path.length - 199} more characters]); name the file or directory itself, without a last "." or "..".`,
    });
  });

  it("a link target too long names its start without half a pair", async () => {
    const { workspace } = await setup();
    const target = `/${SMILE.repeat(65_536)}`;
    const error = await workspace.fs.symlink(target, "/workspace/l").then(() => null, (e: Error & { code?: string }) => e);
    expect(error?.code).toBe("ENAMETOOLONG");
    expect(LONE.test(error!.message)).toBe(false);
    expect(error!.message).toContain(`use a shorter target: /${SMILE.repeat(29)}…`);
  });

  it("writeFile's ifMatch, a kill signal and a contentType are quoted by whole characters", async () => {
    const { workspace } = await setup();
    const ifMatch = await workspace.fs.writeFile("/workspace/x", "x", { ifMatch: `a${SMILE.repeat(100)}` }).then(() => "written", (e: Error) => e.message);
    expect(ifMatch).toBe(`writeFile: options.ifMatch must be a SHA-256 as 64 lowercase hex digits, got ${JSON.stringify(`a${SMILE.repeat(39)}`)}`);
    const signal = (() => {
      try {
        checkKillSignal(`X${SMILE.repeat(100)}`, "killExec");
        return "accepted";
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(signal).toBe(`killExec: signal must be one of SIGTERM, SIGKILL, SIGINT, SIGHUP (got ${JSON.stringify(`X${SMILE.repeat(31)}`)})`);
    expect(() => checkContentType(`a${SMILE.repeat(40)}`, "share")).toThrow(
      `share: contentType must be a header value — printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF; got ${JSON.stringify(`a${SMILE.repeat(31)}`)}`,
    );
  });

  it("find's glob too long quotes its first 40 units without half a pair", async () => {
    const { workspace } = await setup();
    const pattern = `x${SMILE.repeat(3000)}`;
    expect(await toolsOf({ workspace })("find", { path: "/workspace", pattern })).toEqual({
      error: `glob too long: 6001 characters, at most 4096: ${JSON.stringify(`x${SMILE.repeat(19)}`)}…`,
    });
  });

  it("tool-dirs: an input's complaint masks the whole value, then cuts it by whole characters; show() too", () => {
    const tool = { name: "t", inputs: { n: { type: "number", description: "a number" } } } as never;
    const masked = checkToolParams(tool, { n: `${"a".repeat(75)}SECRETVALUE` }, (t) => t.replaceAll("SECRETVALUE", "***"));
    expect(masked).toEqual({ ok: false, error: expect.stringContaining(`got string: "${"a".repeat(75)}***"`) });
    const emoji = checkToolParams(tool, { n: `x${SMILE.repeat(100)}` });
    // The JSON's first 79 units would end on half of the 39th 😀: 78 units, then the mark.
    expect(emoji).toEqual({ ok: false, error: expect.stringContaining(`got string: "x${SMILE.repeat(38)}…`) });
    expect(LONE.test((emoji as { error: string }).error)).toBe(false);
    expect(show(`x${SMILE.repeat(100)}`)).toBe(`"x${SMILE.repeat(18)}…`);
  });

  it("headCut keeps whole characters and cuts nothing it need not", () => {
    expect([headCut("abc", 5), headCut("abc", 2), headCut(`a${SMILE}`, 2), headCut(`a${SMILE}`, 3), headCut(SMILE, 1), headCut("abc", 0)]).toEqual([
      "abc",
      "ab",
      "a",
      `a${SMILE}`,
      "",
      "",
    ]);
  });
});
