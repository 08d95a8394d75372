/**
 * Issue 20, twenty-first attack run: 1ed92fa (attack20c artifacts-cli-usage-errors-echo-whole-argument) made every
 * usage error of the artifacts CLI quote an argument through duration.ts `quote` (64 characters, then the length).
 * The library's own operation errors, one step later, were left as they were: `InvalidRepoNameError`
 * ("invalid repository name '<name>': …"), `InvalidSessionIdError` and `getToken`'s `NotFoundError` ("no such token
 * '<id>' in repo '<name>'") put the caller's string in whole (src/artifacts/errors.ts, client.ts), and the CLI passes
 * them on as `artifacts <sub>: <message>` — so a huge name or id that a usage error now cuts to ~130 characters comes
 * back whole from `create`, `share`, `repo get|delete|import|create`, `token list|get`.
 *
 * Tried: `runArtifactsCLI` through `client.cli` (test/node/artifacts/helpers.ts, the stand-in binding) and the typed
 * API, with a 1,000,001-character name that fails the name pattern ("z"×1e6 + "!"), a scoped name holding "__", and a
 * 1,000,000-character token id. Held: `token revoke a <big>` says "no such token in repo 'a'" (50 characters); usage
 * errors (attack20c); a result, never a throw, from every CLI case (exit 1).
 *
 * Found (low; 2 of 2 runs): stderr of 1,000,048–1,000,147 characters for each CLI case, and error messages of the same
 * size from `client.get`, `client.getToken` and `createArtifact(binding, <big>)` — into the shell's `artifacts` output,
 * an `ArtifactsCLITarget.cli` reply, a tool result or a span's error message.
 *
 * Suggested fix: build these messages with the same `quote` (InvalidRepoNameError / InvalidSessionIdError /
 * getToken's NotFoundError), keeping the whole value on the error's own field (`repoName`, `sessionId`) as now.
 *
 * Fixed: InvalidRepoNameError, InvalidSessionIdError and getToken's NotFoundError quote the value with `quote` (its
 * first 64 characters, then `…' (<n> characters)`); `repoName`/`sessionId` keep it whole.
 */
import { describe, expect, it } from "vitest";
import { createArtifact } from "../../../src/artifacts/index.js";
import { run, standIn } from "../artifacts/helpers.js";

const big = "z".repeat(1_000_000);

describe("attack21c: the artifacts library's operation errors and a huge argument", () => {
  it("the CLI's operation errors quote a huge name or id within a few hundred characters", async () => {
    const client = createArtifact(standIn(), "s1");
    expect((await run(client, "repo", "create", "a")).exitCode).toBe(0);
    const cases: string[][] = [
      ["create", `${big}!`],
      ["share", `${big}!`],
      ["repo", "get", `${big}!`],
      ["repo", "delete", `${big}!`],
      ["repo", "create", `a__${big}`],
      ["repo", "import", `${big}!`, "--url", "https://example.com/r.git"],
      ["token", "list", `${big}!`],
      ["token", "get", "a", big],
    ];
    const lengths: number[] = [];
    for (const argv of cases) {
      const r = await run(client, ...argv);
      expect(r.exitCode).toBe(1); // held: a result, never a throw
      lengths.push(r.stderr.length);
    }
    // Found: [1000132, 1000131, 1000134, 1000137, 1000147, 1000137, 1000136, 1000050].
    expect(lengths.every((n) => n <= 300)).toBe(true);
  });

  it("the typed API's errors do too (the value kept whole on the error's field)", async () => {
    const client = createArtifact(standIn(), "s1");
    await client.create("a");
    const messages: number[] = [];
    const nameError = await client.get(`${big}!`).catch((e: Error & { repoName?: string }) => e);
    expect((nameError as { repoName?: string }).repoName).toBe(`${big}!`);
    messages.push((nameError as Error).message.length);
    messages.push(((await client.getToken("a", big).catch((e: Error) => e)) as Error).message.length);
    try {
      createArtifact(standIn(), `${big}!`);
    } catch (e) {
      messages.push((e as Error).message.length);
    }
    expect(messages).toHaveLength(3);
    const z64 = "z".repeat(64);
    expect((nameError as Error).message.startsWith(`invalid repository name '${z64}…' (1000001 characters): `)).toBe(true);
    expect(((await client.getToken("a", big).catch((e: Error) => e)) as Error).message).toBe(`no such token '${z64}…' (1000000 characters) in repo 'a'`);
    expect(((await client.get("bad!").catch((e: Error) => e)) as Error).message.startsWith("invalid repository name 'bad!': ")).toBe(true);
    // Found: three messages of ~1,000,050–1,000,110 characters.
    expect(messages.every((n) => n <= 300)).toBe(true);
  });
});
