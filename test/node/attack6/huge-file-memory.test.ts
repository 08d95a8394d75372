/**
 * Issue 20 sixth attack run, categories 2 and 3 (huge files): a 200 MiB file
 * streamed in 1 MiB chunks through workspace.fs on Node, then read through a
 * 16-byte window at its end, grepped for a literal on its last line, and
 * searched by the grep tool and read by the read tool; then removed. What
 * was tried: that none of these holds the file in memory — heap plus array
 * buffers grow by less than 64 MiB (half a Durable Object) during each, and
 * each answers exactly. All withstood.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { makeWorkspace } from "../tools/helpers.js";
import { peak } from "./memory.js";

const MiB = 1 << 20;
const CHUNKS = 200;


describe("attack6: a 200 MiB file", () => {
  it("streams in, reads a window at the end, greps and reads through the tools, and is removed, each with a bounded heap", { timeout: 300_000 }, async () => {
    const ws = await makeWorkspace();
    const line = "z".repeat(1023) + "\n";
    const chunk = new TextEncoder().encode(line.repeat(1024));
    const lastChunk = new TextEncoder().encode(line.repeat(1023) + "NEEDLE".padEnd(1023, ".") + "\n");
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        sent++;
        c.enqueue(sent === CHUNKS ? lastChunk : chunk);
        if (sent === CHUNKS) c.close();
      },
    });
    const write = await peak(() => ws.fs.writeFile("/workspace/huge.txt", stream));
    expect((await ws.fs.stat("/workspace/huge.txt")).size).toBe(CHUNKS * MiB);
    const tail = await peak(() => ws.fs.readFile("/workspace/huge.txt", { encoding: "utf8", byteOffset: CHUNKS * MiB - 1024, byteLength: 16 }));
    expect(tail.value).toBe("NEEDLE..........");
    const grep = await peak(() => ws.fs.grep("NEEDLE", "/workspace/huge.txt"));
    expect(grep.value.map((m) => [m.path, m.line])).toEqual([["/workspace/huge.txt", CHUNKS * 1024]]);
    const { execute } = createPiTools({ workspace: ws });
    const tool = await peak(() => execute({ id: "g", name: "grep", arguments: { path: "/workspace/huge.txt", query: "NEEDLE" } }));
    expect(JSON.parse((tool.value.content[0] as { text: string }).text)).toMatchObject({ count: 1, matches: [{ line: CHUNKS * 1024 }] });
    const read = await peak(() => execute({ id: "r", name: "read", arguments: { path: "/workspace/huge.txt", offset: CHUNKS * 1024, limit: 1 } }));
    expect((read.value.content[0] as { text: string }).text).toContain("NEEDLE");
    const rm = await peak(() => ws.fs.rm("/workspace/huge.txt"));
    expect(await ws.fs.readdir("/workspace")).toEqual([]);
    for (const [name, r] of Object.entries({ write, tail, grep, tool, read, rm })) expect(r.grew, name).toBeLessThan(64 * MiB);
  });
});
