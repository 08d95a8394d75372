/**
 * `appendFile` bursts inside a Durable Object (issue 20, run 37, fixer AP; attacker g saw 20 concurrent appends in a
 * DO lose 10 to ESTALE, test/node/attack37g/concurrent-appends-past-ten-fail-estale.test.ts). Appends to one path over
 * one storage object now take turns (src/fs/write.ts `FileWriter.append`, `turn`), keyed by the DO's storage, so
 * two Workspaces in one DO share the turns. Node-side siblings: test/node/fix37/fs-append-turns.test.ts.
 * Checked: 50 appends through one Workspace plus 30 through a second one on the same `state.storage`, all at once:
 * none rejected, every line whole, each Workspace's bytes in its call order, the store sound; and four shell runs at
 * once, each `for i in 1..10; do echo "w$id $i" >> log; done` — as bash 5.2 with four such loops in the background
 * (`&` … `wait`): 40 lines, each writer's in order.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? String(e.message));

it("80 appends at once from two Workspaces in one Durable Object all land", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const got = await runInDurableObject(stub, async (_instance, state) => {
    const a = new Workspace({ storage: state.storage });
    const b = new Workspace({ storage: state.storage });
    try {
      await a.fs.writeFile("/log", "");
      const lines = Array.from({ length: 80 }, (_, i) => (i % 8 < 5 ? `a ${i}\n` : `b ${i}\n`));
      const codes = await Promise.all(lines.map((l) => code((l.startsWith("a") ? a : b).fs.appendFile("/log", l))));
      const text = new TextDecoder().decode(new Uint8Array(await new Response(await b.fs.readFile("/log")).arrayBuffer()));
      return { lines, codes, text, problems: integrityProblems(state.storage.sql as never), orphans: unleasedOrphans(state.storage.sql as never) };
    } finally {
      await a.close();
      await b.close();
    }
  });
  expect(got.codes.filter((c) => c !== "ok")).toEqual([]);
  const landed = got.text.split("\n").filter(Boolean);
  expect([...landed].sort()).toEqual(got.lines.map((l) => l.trimEnd()).sort());
  expect(got.text.length).toBe(got.lines.join("").length);
  for (const who of ["a", "b"]) expect(landed.filter((l) => l.startsWith(who))).toEqual(got.lines.filter((l) => l.startsWith(who)).map((l) => l.trimEnd()));
  expect(got.problems).toEqual([]);
  expect(got.orphans).toBe(0);
}, 120_000);

it("four shell loops appending at once: 40 lines, each writer's in order (as bash's background loops)", async () => {
  // bash 5.2: for w in 1 2 3 4; do (for i in $(seq 10); do echo "w$w $i" >> log; done) & done; wait → 40 lines, per-writer order kept.
  const got = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/log", "");
    const runs = await Promise.all([1, 2, 3, 4].map((w) => sh(ws, `for i in 1 2 3 4 5 6 7 8 9 10; do echo "w${w} $i" >> log; done`, { cwd: "/workspace" })));
    return { runs: runs.map((r) => [r.stderr, r.exitCode]), text: await ws.fs.readFile("/workspace/log", "utf8") };
  });
  expect(got.runs).toEqual([["", 0], ["", 0], ["", 0], ["", 0]]);
  const lines = got.text.split("\n").filter(Boolean);
  expect(lines).toHaveLength(40);
  for (const w of [1, 2, 3, 4]) expect(lines.filter((l) => l.startsWith(`w${w} `))).toEqual(Array.from({ length: 10 }, (_, i) => `w${w} ${i + 1}`));
}, 120_000);
