import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";

it("runs inside workerd with Durable Object SQLite", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const value = await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("CREATE TABLE t(x BLOB)");
    state.storage.sql.exec("INSERT INTO t VALUES (?)", new Uint8Array([1, 2, 3]));
    return [...state.storage.sql.exec("SELECT x FROM t")].map((r) => new Uint8Array(r.x as ArrayBuffer));
  });
  expect(value).toEqual([new Uint8Array([1, 2, 3])]);
});
