import { describe, expect, it } from "vitest";
import { isNonNegativeInteger, isPositiveInteger, nonNegativeInteger, positiveInteger } from "../../../src/util/validate.js";

describe("util/validate", () => {
  it("predicates accept safe integers only", () => {
    expect([1, 2 ** 53 - 1].every(isPositiveInteger)).toBe(true);
    expect([0, -1, 1.5, NaN, Infinity, 2 ** 53, "1", undefined, null].some(isPositiveInteger)).toBe(false);
    expect([0, 7].every(isNonNegativeInteger)).toBe(true);
    expect([-1, 0.5, "0", undefined].some(isNonNegativeInteger)).toBe(false);
  });

  it("positiveInteger returns the value or throws the tool-style message", () => {
    expect(positiveInteger(3, "createReadTool: maxLines")).toBe(3);
    expect(() => positiveInteger(0, "createReadTool: maxLines")).toThrow(new TypeError("createReadTool: maxLines must be a positive integer."));
  });

  it("positiveInteger with got names the value, and can throw another error class", () => {
    expect(() => positiveInteger(1.5, "exec: output.maxBytes", { got: true })).toThrow("exec: output.maxBytes must be a positive integer, got 1.5");
    let thrown: unknown;
    try {
      positiveInteger("5", "Workspace output.keep", { got: true, error: Error });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe('Workspace output.keep must be a positive integer, got "5"');
  });

  it("nonNegativeInteger returns the value or throws", () => {
    expect(nonNegativeInteger(0, "readChunks: byteOffset")).toBe(0);
    expect(() => nonNegativeInteger(-1, "readChunks: byteOffset")).toThrow(new TypeError("readChunks: byteOffset must be a non-negative safe integer"));
    expect(() => nonNegativeInteger(0.5, "x", { got: true })).toThrow("x must be a non-negative safe integer, got 0.5");
  });
});
