/**
 * The filesystem stub's estimate of a result's serialized size
 * (`src/do/rpc-size.ts`), checked against V8's own serializer — the one
 * workerd uses for RPC values — and the `E2BIG` refusal built from it.
 */
import { serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import { checkFsRpcResult, estimateRpcSize, MAX_FS_RPC_RESULT_BYTES } from "../../src/do/rpc-size.js";

const entry = (name: string) => ({ name, size: 1, mtime: 1_700_000_000_000, isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644 });

describe("estimateRpcSize", () => {
  const cases: { label: string; value: unknown }[] = [
    { label: "an ASCII string", value: "n".repeat(100_000) },
    { label: "a Latin-1 string", value: "é".repeat(100_000) },
    { label: "a two-byte string", value: "€".repeat(100_000) },
    { label: "a string with emoji", value: "😀".repeat(50_000) },
    { label: "a listing of long names", value: Array.from({ length: 50 }, (_, i) => entry(`${i}${"n".repeat(10_000)}`)) },
    { label: "a listing of short names", value: Array.from({ length: 5000 }, (_, i) => entry(`f${i}.txt`)) },
    { label: "find entries", value: Array.from({ length: 5000 }, (_, i) => ({ path: `/workspace/src/f${i}.ts`, type: "file" })) },
    {
      label: "grep matches",
      value: Array.from({ length: 200 }, (_, i) => ({ path: `/w/f${i}`, line: i + 1, text: "x".repeat(5000), column: 3, context: [{ line: i, text: "y".repeat(500), isMatch: false }] })),
    },
  ];
  it.each(cases)("is at least V8's serialized size, and within 25% of it: $label", ({ value }) => {
    const real = serialize(value).length;
    const estimate = estimateRpcSize(value);
    expect(estimate).toBeGreaterThanOrEqual(real);
    expect(estimate).toBeLessThanOrEqual(real * 1.25);
  });

  it("stops early past stopAt", () => {
    const big = Array.from({ length: 1000 }, () => "n".repeat(100_000));
    const estimate = estimateRpcSize(big, 1_000_000);
    expect(estimate).toBeGreaterThan(1_000_000);
    expect(estimate).toBeLessThan(1_200_000);
  });

  it("a stream counts as nothing; bytes by their length", () => {
    expect(estimateRpcSize(new ReadableStream())).toBe(1);
    expect(estimateRpcSize(new Uint8Array(1000))).toBe(1009);
  });
});

describe("checkFsRpcResult", () => {
  it("returns a result that fits, and refuses one that does not with E2BIG naming what to do", () => {
    const small = [entry("a")];
    expect(checkFsRpcResult("readdir", "/d", small)).toBe(small);
    const text = "a".repeat(MAX_FS_RPC_RESULT_BYTES);
    let caught: unknown;
    try {
      checkFsRpcResult("readFile", "/big", text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({
      name: "WorkspaceFsError",
      code: "E2BIG",
      syscall: "readFile",
      path: "/big",
      message:
        "E2BIG: the result is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); read it as a stream (readFile without an encoding), or a range at a time with { byteOffset, byteLength }, readFile: /big",
    });
  });
});
