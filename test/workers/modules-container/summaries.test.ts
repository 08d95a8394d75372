/**
 * The two pure pieces of `ws:container` (spec 02 §4.3) on inputs the shell
 * backend cannot produce: a pending sync (remote-store backends) with many
 * skipped paths and a long multi-byte error, and tails of output with
 * multi-byte characters at the cut.
 */
import { describe, expect, it } from "vitest";
import { summarizeExecSync, tailOutput } from "../../../src/modules/container.js";

describe("summarizeExecSync", () => {
  it("complete: paths only, at most 100, the count of all; no error key", () => {
    const skipped = Array.from({ length: 150 }, (_, i) => ({ path: `/ro/f${i}`, reason: "read-only mount" }));
    const out = summarizeExecSync({ sync: { status: "complete", applied: 3, skipped } });
    expect(out.status).toBe("complete");
    expect(out.skipped).toEqual(skipped.slice(0, 100).map((s) => s.path));
    expect(out.skippedCount).toBe(150);
    expect("error" in out).toBe(false);
    expect(summarizeExecSync({ sync: { status: "complete", applied: 0, skipped: [] } })).toEqual({ status: "complete", skipped: [], skippedCount: 0 });
  });

  it("pending: the error cut to 1024 UTF-8 bytes without splitting a character; absent when there is none", () => {
    // 1023 ASCII bytes then "é" (2 bytes): byte 1024 would split it, so the cut keeps 1023 bytes.
    const long = `${"x".repeat(1023)}é and more`;
    const out = summarizeExecSync({ sync: { status: "pending", applied: 0, skipped: [{ path: "/a", reason: "r" }], error: long, backend: "container-shell" } });
    expect(out).toEqual({ status: "pending", skipped: ["/a"], skippedCount: 1, error: "x".repeat(1023) });
    const euro = "€".repeat(400); // 3 bytes each: 341 whole characters fit in 1024 bytes
    expect(summarizeExecSync({ sync: { status: "pending", applied: 0, skipped: [], error: euro } }).error).toBe("€".repeat(341));
    expect(summarizeExecSync({ sync: { status: "pending", applied: 0, skipped: [], error: "short" } }).error).toBe("short");
    expect(summarizeExecSync({ sync: { status: "pending", applied: 0, skipped: [] } })).toEqual({ status: "pending", skipped: [], skippedCount: 0 });
  });
});

describe("tailOutput", () => {
  it("leaves output within the limits alone and prefixes a cut with the line range", () => {
    expect(tailOutput("a\nb\n", 10, 2)).toBe("a\nb\n");
    expect(tailOutput("", 1, 1)).toBe("");
    expect(tailOutput("1\n2\n3\n4", 100, 2)).toBe("[truncated, showing lines 3-4 of 4]\n3\n4");
    // By bytes: "ü" lines are 3 bytes each with the newline; 10 bytes keep 3 whole lines.
    expect(tailOutput("ü\n".repeat(6), 10, 100)).toBe(`[truncated, showing lines 4-6 of 6]\n${"ü\n".repeat(3)}`);
  });

  it("keeps the end of one over-long line from a character boundary", () => {
    expect(tailOutput(`start\n${"€".repeat(10)}`, 8, 100)).toBe(`[truncated, showing the last 6 bytes of line 2]\n€€`);
  });
});
