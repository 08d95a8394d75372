/**
 * Issue 20, thirty-third attack run: the grep tool (and `workspace.fs.grep` under it) holds the whole of each line it
 * scans in memory, however long — `carry` in src/fs/grep.ts's `scanMatches` and `scanLines` grows by every piece of a
 * line until its `\n` — so one file in the tree with a long line (a 64 MiB one-line JSON dump, a minified bundle, a
 * base64 blob, a log without newlines) makes a plain `grep { query: "TODO", path: "/workspace" }` grow the heap by about
 * twice that line, though the answer is a few hundred bytes (lines are cut to `maxLineLength`, 500). In a Durable
 * Object (128 MB an isolate) a 64 MiB line is past the limit: the isolate is reset and the agent's loop with it.
 * Tried: a file of one 64 MiB line and a second line holding `TODO`, written as a stream through `workspace.fs`; the grep
 * tool (pi's execute) with a literal query, with `context: 2`, and with a regex; heap + array buffers sampled every 5 ms
 * (test/node/attack6/memory.ts), against attack6's bar for a 200 MiB file of short lines (growth under 64 MiB, half a
 * Durable Object). GNU grep 3.8 keeps a buffer of the line too, but it runs on a machine, not in a 128 MB isolate.
 * Held: the results are exact (line 2, `second line TODO`) and small; the read tool refuses the long line with the
 * documented message in 0.8 MB; `read` with `offset: 2` skips it in 1.4 MB; edit refuses it by size; a 200 MiB file
 * of short lines greps in bounded memory (attack6).
 * Found (medium — memory unbounded in a file an agent plausibly has, a whole-tree grep resets the Durable Object; 3 of 3
 * runs): 96 MiB line: literal grep +181 MB, `context: 2` +101 MB; 64 MiB line: literal +131–138 MB.
 * Suggested fix: in src/fs/grep.ts keep at most a bounded part of a line in `carry`: for a literal, the head that
 * `maxLineLength` shows (plus what `clipLine` needs around the first match) and the last `pattern.length - 1`
 * characters to find a match spanning two pieces, with the count of characters dropped; for a regex or context line,
 * its test over the bounded window or a streaming match (the RE2-semantics engine can run over pieces), reporting the
 * line as `clipped`.
 * Fixed: src/fs/grep.ts holds a line past LONG_LINE (1,048,576 characters plus twice the width and the literal's
 * length) as a `LongLine` — length, head, tail, the text around its first match, a literal found across pieces by
 * keeping its last `span - 1` characters — when the page cuts lines (`lineWidth`, the tool's 500); src/fs/clip.ts
 * `clipView` cuts such a line exactly as `clipLine` cuts a whole one. A regex is tested on the first 1,048,576
 * characters of such a line (documented). This test: +131–138 MB → about +3 MB (issue 20, run 33, fixer GL).
 * Siblings: test/node/fix33/grep-long-line-memory.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { peak } from "../attack6/memory.js";
import { makeWorkspace } from "../tools/helpers.js";

const MiB = 1 << 20;

describe("attack33f: the grep tool over a file with one long line", () => {
  it("answers with a heap growth bounded like a file of short lines", { timeout: 120_000 }, async () => {
    const ws = await makeWorkspace();
    const piece = new Uint8Array(MiB).fill(0x78); // "x"
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 64) return c.enqueue(piece);
        c.enqueue(new TextEncoder().encode("\nsecond line TODO\n"));
        c.close();
      },
    });
    await ws.fs.writeFile("/workspace/dump.json", stream);
    await ws.fs.writeFile("/workspace/notes.md", "TODO: ship\n");
    expect((await ws.fs.stat("/workspace/dump.json")).size).toBe(64 * MiB + 18);
    const { execute } = createPiTools({ workspace: ws });
    const grep = await peak(() => execute({ id: "g", name: "grep", arguments: { path: "/workspace", query: "TODO" } }));
    expect(JSON.parse((grep.value.content[0] as { text: string }).text)).toEqual({
      path: "/workspace",
      query: "TODO",
      count: 2,
      matches: [
        { path: "/workspace/dump.json", line: 2, text: "second line TODO" },
        { path: "/workspace/notes.md", line: 1, text: "TODO: ship" },
      ],
    });
    // Was: 131–138 MB (about twice the 64 MiB line) — past a Durable Object's 128 MB.
    expect(grep.grew).toBeLessThan(64 * MiB);
  });
});
