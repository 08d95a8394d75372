/**
 * Issue 20 third attack run, category 5: a real `ctx.abort()` in the middle
 * of a mount's copy — from the loader of the 150th of 300 bundle files, so
 * the abort lands mid-materialisation for certain. After the restart,
 * ready() with the same mount finishes the copy: every file whole with its
 * bytes, the mount read-only, no half-written file, storage sound.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace, WorkerBundle } from "../../../src/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const N = 300;
const body = (i: number) => `file ${i} `.repeat(20 + (i % 5) * 20_000);

function tree(onLoad?: (i: number) => void) {
  return Object.fromEntries(
    Array.from({ length: N }, (_, i) => [
      `d${i % 10}/f${String(i).padStart(3, "0")}.txt`,
      async () => {
        onLoad?.(i);
        return body(i);
      },
    ]),
  );
}

it("abort from inside a mount's copy: the next ready() completes it whole", async () => {
  const id = env.TEST_DO.newUniqueId();
  const first = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
    let loads = 0;
    const ws = new Workspace({
      storage: state.storage,
      mounts: {
        "/m": WorkerBundle(
          tree(() => {
            if (++loads === 150) state.abort("attack3: crash mid-copy");
          }),
          { version: "v1" },
        ),
      },
    });
    await ws.ready();
    return "ready";
  }).then(
    (v) => v,
    (e: Error) => `rejected: ${e.message}`,
  );
  expect(first).toBe("rejected: attack3: crash mid-copy");
  const after = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, mounts: { "/m": WorkerBundle(tree(), { version: "v1" }) } });
    await ws.ready();
    const files = (await ws.fs.find("/m", "**/*.txt")).map((e) => e.path);
    const bad: string[] = [];
    for (let i = 0; i < N; i++) {
      const p = `/m/d${i % 10}/f${String(i).padStart(3, "0")}.txt`;
      if ((await ws.fs.readFile(p, "utf8")) !== body(i)) bad.push(p);
    }
    const erofs = await ws.fs.writeFile("/m/d0/f000.txt", "x").then(() => "ok", (e: { code?: string }) => e.code);
    await ws.close();
    return { files: files.length, bad, erofs, problems: integrityProblems(state.storage.sql) };
  });
  expect(after).toEqual({ files: N, bad: [], erofs: "EROFS", problems: [] });
});
