import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../src/index.js";

// Bad arguments get a clear error and change nothing.
it("rejects options of the wrong type, out-of-range modes and empty link targets", async () => {
  const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
  await fs.mkdir("/w");
  await fs.writeFile("/w/keep", "old", { mode: 0o600 });
  const bad = [
    [fs.readdir("/w", 5 as never), TypeError, /readdir: options must be an object, got number/],
    [fs.find("/w", "*", "x" as never), TypeError, /find: options must be an object/],
    [fs.grep("x", "/w", [] as never), TypeError, /grep: options must be an object, got an array/],
    [fs.mkdir("/w/d", 1 as never), TypeError, /mkdir: options must be an object/],
    [fs.rm("/w/keep", { force: "yes" } as never), TypeError, /rm: options.force must be a boolean, got string/],
    [fs.writeFile("/w/keep", "new", { exclusive: "yes" } as never), TypeError, /writeFile: options.exclusive must be a boolean/],
    [fs.writeFile("/w/keep", "new", { mode: 1e20 }), Error, /EINVAL: mode must be a non-negative integer, got 100000000000000000000, writeFile: \/w\/keep$/],
    [fs.chmod("/w/keep", 2 ** 60), Error, /EINVAL: mode must be a non-negative integer/],
    [fs.readFile("/w/keep", { byteOffset: -1 }), Error, /EINVAL: byteOffset must be a non-negative safe integer \(bytes\), got -1, readFile: \/w\/keep$/],
    [fs.readFile("/w/keep", [] as never), Error, /EINVAL: options must be "utf8" or an object/],
    [fs.symlink("", "/w/empty"), Error, /ENOENT: link target is empty, symlink: \/w\/empty$/],
  ] as const;
  for (const [promise, type, message] of bad) {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
  }
  expect(await fs.readFile("/w/keep", "utf8")).toBe("old");
  expect((await fs.stat("/w/keep")).mode).toBe(0o600);
  expect(await fs.readdir("/w")).toHaveLength(1);
  // Node's encoding argument is accepted by writeFile: strings are UTF-8 anyway.
  await fs.writeFile("/w/utf8", "é", "utf8" as never);
  expect(await fs.readFile("/w/utf8", "utf8")).toBe("é");
});
