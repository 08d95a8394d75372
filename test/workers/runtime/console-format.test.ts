import { expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

it("console.log prints objects as JSON, errors with their message, and never fails the run", async () => {
  const result = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(
        `export default () => {
          console.log("n", 1, { a: [1, "x"] }, new Map([["k", 2]]), new Set([3]), 5n, null, undefined);
          console.log(Object.create(null), { get boom() { throw new Error("getter"); } });
          const cyclic = {}; cyclic.self = cyclic; console.log(cyclic);
          console.error(new TypeError("bad"));
          return "done";
        }`,
        { encoding: "utf8" },
      )
    ).result(),
  );
  expect(result.status).toBe("completed");
  expect(result.value).toBe("done");
  expect(result.stdout).toBe(
    'n 1 {"a":[1,"x"]} {"k":2} [3] 5n null undefined\n' + "{} [object Object]\n" + "[object Object]\n",
  );
  expect(result.stderr).toMatch(/^TypeError: bad\n/);
});
