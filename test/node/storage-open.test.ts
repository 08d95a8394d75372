/** nodeSqliteStorage on a path it cannot open: node:sqlite's code is kept and the message names the path. */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage } from "../../src/index.js";

describe("nodeSqliteStorage(path) that cannot be opened", () => {
  it("keeps ERR_SQLITE_ERROR and says which path and what it needs", () => {
    const path = "/nonexistent-agent-computer-dir/x.db";
    let caught: unknown;
    try {
      nodeSqliteStorage(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as { code?: string }).code).toBe("ERR_SQLITE_ERROR");
    expect((caught as Error).message).toBe(
      "unable to open database file: /nonexistent-agent-computer-dir/x.db (nodeSqliteStorage opens or creates a file there; its directory must exist and be writable)",
    );
  });
});
