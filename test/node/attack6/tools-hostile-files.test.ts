/**
 * Issue 20 sixth attack run, categories 3 and 4: the file tools (pi's
 * execute) over hostile files and hostile targets, angles runs 2–5 did not
 * take: `delete` of `/`, `/workspace`, `.` and `""`; `ls` and `find` of a
 * name holding a newline, a quote and `,]}` (it must not break the JSON the
 * model reads); `grep` and `read` of a 5 MB binary (a NUL every third byte);
 * `read` of one 20,000,000-character line; `grep` with `context: 5` over
 * that line. Each answers in bounded time with a bounded, parseable result
 * and the exact message below; nothing is removed. All withstood.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

describe("attack6: file tools over hostile files", () => {
  it("delete of roots, odd names in ls/find, binary and 20 MB one-line files in grep/read", { timeout: 120_000 }, async () => {
    const { workspace: ws } = await setup({ "/workspace/f.txt": "alpha\n", "/workspace/sub/g.txt": "g\n" });
    const odd = 'n\nl",]}.txt';
    await ws.fs.writeFile(`/workspace/${odd}`, "nl");
    await ws.fs.writeFile("/workspace/bin.dat", new Uint8Array(5_000_000).map((_, i) => (i % 3 === 0 ? 0 : 120)));
    await ws.fs.writeFile("/workspace/wide.txt", "w".repeat(20_000_000));
    const { execute } = createPiTools({ workspace: ws });
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await execute({ id: "x", name, arguments: args });
      return { isError: r.isError, text: (r.content[0] as { text: string }).text };
    };
    expect(await call("delete", { path: "/" })).toEqual({ isError: true, text: "EPERM: cannot remove the root directory, rm: /" });
    expect(await call("delete", { path: "/workspace" })).toEqual({ isError: true, text: "ENOTEMPTY: directory not empty, rm: /workspace" });
    expect(await call("delete", { path: "." })).toEqual({ isError: true, text: "EINVAL: path must be absolute (start with /), rm: ." });
    // Run 21: an empty path is refused by the delete tool itself, before the store (attack21a delete-tool-dot-segment).
    expect(await call("delete", { path: "" })).toEqual({
      isError: true,
      text: "EINVAL: invalid argument, delete: the path is empty; give the path of the file or directory to delete.",
    });

    const ls = await call("ls", { path: "/workspace" });
    expect(ls.isError).toBe(false);
    expect((JSON.parse(ls.text) as { entries: { name: string }[] }).entries.map((e) => e.name)).toEqual(["bin.dat", "f.txt", odd, "sub", "wide.txt"]);
    const find = await call("find", { pattern: "**/*.txt" });
    expect((JSON.parse(find.text) as { entries: { path: string }[] }).entries.map((e) => e.path)).toEqual([
      "/workspace/f.txt",
      `/workspace/${odd}`,
      "/workspace/sub/g.txt",
      "/workspace/wide.txt",
    ]);

    expect(JSON.parse((await call("grep", { path: "/workspace/bin.dat", query: "x" })).text)).toEqual({
      path: "/workspace/bin.dat",
      query: "x",
      count: 0,
      matches: [],
      binarySkipped: 1,
      note: "1 file that looks binary (a NUL byte in the first 8 KiB) was skipped.",
    });
    expect(JSON.parse((await call("read", { path: "/workspace/bin.dat" })).text)).toEqual({
      kind: "binary",
      path: "/workspace/bin.dat",
      name: "bin.dat",
      mediaType: "application/octet-stream",
      sizeBytes: 5_000_000,
      unsupported: true,
    });
    expect(await call("read", { path: "/workspace/wide.txt" })).toEqual({
      isError: true,
      text: "Line 1 exceeds the 262144-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.",
    });
    const grep = await call("grep", { path: "/workspace/wide.txt", query: "w", context: 5 });
    expect(grep.isError).toBe(false);
    expect(grep.text.length).toBeLessThan(4_000);
    expect(JSON.parse(grep.text)).toMatchObject({ count: 1, matches: [{ path: "/workspace/wide.txt", line: 1, clipped: true }] });
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["bin.dat", "f.txt", odd, "sub", "wide.txt"]);
  });
});
