import { expect, it } from "vitest";
import { nodeSqliteStorage } from "../../src/storage/index.js";

it("runs node:sqlite on Node 22", () => {
  const storage = nodeSqliteStorage();
  storage.sql.exec("CREATE TABLE t(x BLOB)");
  storage.sql.exec("INSERT INTO t VALUES (?)", new Uint8Array([1, 2, 3]));
  expect(storage.sql.exec<{ x: Uint8Array }>("SELECT x FROM t").toArray()[0].x).toEqual(new Uint8Array([1, 2, 3]));
});
