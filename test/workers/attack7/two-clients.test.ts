/**
 * Issue 20 seventh attack run, category "concurrency": two `getWorkspace(stub)`
 * clients of ONE Durable Object (two Worker requests, two agent sessions),
 * each with its own pi tool set, racing mutations runs 2–6 did not race
 * (they raced edit — the known lost update — and one-client tool sets):
 *
 * - write with `requireFreshRead` from both clients after both read, 10
 *   rounds: exactly one overwrite succeeds per round, the other is told the
 *   file changed (withstood — the guard's check and write land in one turn of
 *   the object);
 * - the twin refusal: NFC and NFD spellings of one new name written at once
 *   from the two clients — both succeed, two look-alike files (DEFECT (low), FIXED —
 *   write lists the parent after creating and takes its file back when another
 *   spelling was created first;
 *   the same as test/node/attack7/tools-two-workspaces.test.ts, where the
 *   reproduction, impact and fix proposal are written up);
 * - `exec` with one id from both clients at once: one run, the other
 *   rejected `execution "same" is already running` (or `starting`) (withstood);
 * - mkdir vs symlink vs write tool of one name over the two clients: one
 *   wins, the rest EEXIST or an error result (withstood);
 * - git over RPC (`WorkspaceGitStub.cli`): `commit` in `/repo` from one client
 *   and in `/alias` (a link to /repo) from the other — both answer exit 0
 *   with a commit id, the branch keeps one: DEFECT 1 of
 *   test/node/attack7/git-concurrency.test.ts (queue keyed by the text of
 *   `dir`), reproduced here through the Durable Object's one git client;
 *   the same two commits both in `/repo` land (withstood). FIXED — the
 *   client's queue is keyed by the repository's canonical path (links resolved).
 * After each: attack3 integrityProblems is empty.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

let ids = 0;
const call = (name: string, args: Record<string, unknown>) => ({ type: "toolCall" as const, id: `c${++ids}`, name, arguments: args });
const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");
const NFC = "/w/Résumé.md".normalize("NFC");
const NFD = "/w/Résumé.md".normalize("NFD");

function object() {
  const id = env.GIT_AGENT.newUniqueId();
  return { stub: env.GIT_AGENT.get(id), sound: () => runInDurableObject(env.GIT_AGENT.get(id), (_i, s) => integrityProblems(s.storage.sql)) };
}

describe("attack7: two clients of one Durable Object", () => {
  it("requireFreshRead from both clients after both read: one overwrite per round, the other told the file changed", { timeout: 60_000 }, async () => {
    const { stub, sound } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await a.fs.mkdir("/w", { recursive: true });
    await a.fs.writeFile("/w/f", "v0");
    const ta = createPiTools({ workspace: a, write: { requireFreshRead: true } });
    const tb = createPiTools({ workspace: b, write: { requireFreshRead: true } });
    for (let round = 0; round < 10; round++) {
      expect((await ta.execute(call("read", { path: "/w/f" }))).isError).toBe(false);
      expect((await tb.execute(call("read", { path: "/w/f" }))).isError).toBe(false);
      const [ra, rb] = await Promise.all([ta.execute(call("write", { path: "/w/f", content: `A${round}` })), tb.execute(call("write", { path: "/w/f", content: `B${round}` }))]);
      const ok = [ra, rb].filter((r) => !r.isError);
      expect(ok.length, `round ${round}`).toBe(1);
      expect(text([ra, rb].find((r) => r.isError)!)).toBe("File changed since it was last read: /w/f. Read it again, then write, so that the changes made since are not lost.");
      expect(await a.fs.readFile("/w/f", "utf8")).toBe(ok[0] === ra ? `A${round}` : `B${round}`);
    }
    expect(await sound()).toEqual([]);
  });

  it("DEFECT (low): NFC and NFD spellings of one new name written at once from two clients: both succeed, twins made", { timeout: 60_000 }, async () => {
    const { stub } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await a.fs.mkdir("/w", { recursive: true });
    const results = await Promise.all([createPiTools({ workspace: a }).execute(call("write", { path: NFC, content: "A" })), createPiTools({ workspace: b }).execute(call("write", { path: NFD, content: "B" }))]);
    expect(results.filter((r) => r.isError).length).toBe(1);
    expect((await a.fs.readdir("/w")).length).toBe(1);
    const [won, lost] = results[0]!.isError ? [{ path: NFD, form: "NFD", content: "B" }, { path: NFC }] : [{ path: NFC, form: "NFC", content: "A" }, { path: NFD }];
    expect((await a.fs.readdir("/w")).map((e) => `/w/${e.name}`)).toEqual([won.path]);
    expect(await a.fs.readFile(won.path, "utf8")).toBe(won.content);
    expect(text(results.find((r) => r.isError)!)).toBe(
      `Not written: ${lost.path} would be a new file beside ${won.path} (${won.form}), a file with the same name in another Unicode normalisation. Write to that path instead.`,
    );
  });

  it("exec with one id from both clients at once: one run, the other is refused", { timeout: 60_000 }, async () => {
    const { stub } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    const settled = await Promise.allSettled([
      a.runtime.exec("export default () => 1", { id: "same", backend: "worker-javascript" }),
      b.runtime.exec("export default () => 2", { id: "same", backend: "worker-javascript" }),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as Error).message).toMatch(/^execution "same" is already (running|starting)/);
    const started = settled.find((s) => s.status === "fulfilled") as unknown as PromiseFulfilledResult<{ result(): Promise<{ value: unknown }> }>;
    expect((await started.value.result()).value).toBe(settled[0]!.status === "fulfilled" ? 1 : 2);
  });

  it("mkdir, symlink and the write tool of one new name from two clients: exactly one wins", { timeout: 60_000 }, async () => {
    const { stub, sound } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await a.fs.mkdir("/w", { recursive: true });
    const tb = createPiTools({ workspace: b });
    for (let round = 0; round < 5; round++) {
      const p = `/w/x${round}`;
      const [m, s, w] = await Promise.allSettled([a.fs.mkdir(p), b.fs.symlink("/elsewhere", p), tb.execute(call("write", { path: p, content: "file" }))]);
      const st = await a.fs.lstat(p);
      const kind = st.isDirectory ? "dir" : st.isSymbolicLink ? "link" : "file";
      const won = [m.status === "fulfilled" ? "dir" : null, s.status === "fulfilled" ? "link" : null, w.status === "fulfilled" && !w.value.isError ? "file" : null].filter(Boolean);
      expect(won, `round ${round}`).toEqual([kind]);
      for (const r of [m, s]) if (r.status === "rejected") expect((r.reason as { code: string }).code).toBe("EEXIST");
    }
    expect(await a.fs.lstat("/elsewhere").then(() => true, () => false)).toBe(false);
    expect(await sound()).toEqual([]);
  });

  async function repo(a: Awaited<ReturnType<typeof getWorkspace>>) {
    await a.fs.mkdir("/repo", { recursive: true });
    expect((await a.git.cli({ argv: ["init"], cwd: "/repo" })).exitCode).toBe(0);
    await a.fs.writeFile("/repo/x", "x");
    await a.git.cli({ argv: ["add", "x"], cwd: "/repo" });
    expect((await a.git.cli({ argv: ["commit", "-m", "base"], cwd: "/repo" })).exitCode).toBe(0);
  }

  it("git commits from two clients in /repo both land", { timeout: 60_000 }, async () => {
    const { stub } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await repo(a);
    const c = await Promise.all([a.git.cli({ argv: ["commit", "--allow-empty", "-m", "one"], cwd: "/repo" }), b.git.cli({ argv: ["commit", "--allow-empty", "-m", "two"], cwd: "/repo" })]);
    expect(c.map((x) => x.exitCode)).toEqual([0, 0]);
    const log = (await a.git.cli({ argv: ["log", "--format=%s"], cwd: "/repo" })).stdout;
    expect(log).toBe("two\none\nbase\n");
  });

  it("DEFECT 1 (node/attack7/git-concurrency), FIXED: commits from two clients in /repo and /alias (a link to it): both exit 0, one is lost", { timeout: 60_000 }, async () => {
    const { stub } = object();
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await repo(a);
    await a.fs.symlink("/repo", "/alias");
    const c = await Promise.all([a.git.cli({ argv: ["commit", "--allow-empty", "-m", "one"], cwd: "/repo" }), b.git.cli({ argv: ["commit", "--allow-empty", "-m", "two"], cwd: "/alias" })]);
    expect(c.map((x) => x.exitCode)).toEqual([0, 0]);
    const log = (await a.git.cli({ argv: ["log", "--format=%s"], cwd: "/repo" })).stdout;
    // Was: "two\nbase\n" — "one" answered `[<oid>] one` and is on no branch. Now the client's queue is keyed by the real path.
    expect(log.split("\n").filter(Boolean).sort()).toEqual(["base", "one", "two"]);
  });
});
