import { describe, expect, it } from "vitest";
import { basename, dirname, isUnder, normalizePath } from "../../../src/util/path.js";

describe("util/path", () => {
  it("normalizePath drops empty and . segments and applies .. without leaving /", () => {
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("")).toBe("/");
    expect(normalizePath("/a//b/./c/../d/")).toBe("/a/b/d");
    expect(normalizePath("/../../x")).toBe("/x");
    expect(normalizePath("/a/..")).toBe("/");
    expect(normalizePath("a/b")).toBe("/a/b");
  });

  it("normalizePath resolves a relative path against base", () => {
    expect(normalizePath("src/./x.ts", "/workspace")).toBe("/workspace/src/x.ts");
    expect(normalizePath("../other", "/workspace/app")).toBe("/workspace/other");
    expect(normalizePath("/abs", "/workspace")).toBe("/abs");
  });

  it("isUnder is true for the root itself and below it, never for a sibling prefix", () => {
    expect(isUnder("/workspace", "/workspace")).toBe(true);
    expect(isUnder("/workspace/a/b", "/workspace")).toBe(true);
    expect(isUnder("/workspaces", "/workspace")).toBe(false);
    expect(isUnder("/", "/workspace")).toBe(false);
    expect(isUnder("/anything", "/")).toBe(true);
    expect(isUnder("/", "/")).toBe(true);
  });

  it("basename is the last segment after one trailing slash", () => {
    expect(basename("/workspace/out/chart.png")).toBe("chart.png");
    expect(basename("/workspace/out/")).toBe("out");
    expect(basename("name")).toBe("name");
    expect(basename("/")).toBe("");
    expect(basename("/a/.")).toBe(".");
  });

  it("dirname is everything before the last slash, / at the top", () => {
    expect(dirname("/a/b/c")).toBe("/a/b");
    expect(dirname("/a")).toBe("/");
    expect(dirname("/")).toBe("/");
    expect(dirname("file")).toBe("/");
  });
});
