/**
 * Issue 20 fifth attack run, categories 2 and 4 through `WorkspaceGitStub.cli`
 * over real Workers RPC (GitAgent) and the shell's `git` built-in.
 *
 * Held: argv that is not an array of strings (a string, an array-like
 * object, null, a number inside), an input of null / a number / undefined, a
 * cwd of the wrong type → exit 129 `git: argv must be an array of strings` /
 * `git: cwd must be a non-empty string`; 1,000,000 arguments to status and
 * to add answer in bounded time; a 100 MB stdin is refused by the RPC layer
 * itself (32 MiB limit) and the object goes on.
 *
 * Found and fixed (src/do/git-stub.ts `clipGitResultForRpc`, used by the
 * stub and the shell backend's `git`): `git show` / `git cat-file -p` of a
 * 40 MiB blob made the call reject with workerd's bare `Serialized RPC
 * arguments or return values are limited to 32MiB` (no code, output lost;
 * in the shell `git: Serialized RPC …`). The result is now clipped to fit,
 * with a note on stderr and exit 1.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { MAX_GIT_RPC_OUTPUT_CHARS } from "../../../src/do/git-stub.js";

type CliAnswer = { stdout: string; stderr: string; exitCode: number };
/** The answer, or `"hung <ms> ms"` / `"rejected: <message>"`. */
const within = (ms: number, promise: Promise<unknown>): Promise<CliAnswer | string> =>
  Promise.race([
    (promise as Promise<CliAnswer>).catch((e: Error) => `rejected: ${e.message}`),
    new Promise<string>((resolve) => setTimeout(() => resolve(`hung ${ms} ms`), ms)),
  ]);
const gitAgent = () => env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId());
const ARGV = { stdout: "", stderr: "git: argv must be an array of strings\n", exitCode: 129 };

describe("attack5: malformed cli calls over RPC", () => {
  it("wrong shapes answer 129 with the reason; huge argv answers in bounded time; 100 MB stdin is refused by RPC; the object goes on", { timeout: 120_000 }, async () => {
    using ws = await getWorkspace(gitAgent());
    await ws.fs.mkdir("/r");
    expect((await ws.git.cli({ argv: ["init"], cwd: "/r" })).exitCode).toBe(0);
    const cli = (input: unknown) => within(30_000, ws.git.cli(input as never));
    expect(await cli({ argv: "status" })).toEqual(ARGV);
    expect(await cli({ argv: { 0: "status", length: 1 } })).toEqual(ARGV);
    expect(await cli({ argv: null })).toEqual(ARGV);
    expect(await cli({ argv: ["status", 5] })).toEqual(ARGV);
    expect(await cli(null)).toEqual(ARGV);
    expect(await cli(5)).toEqual(ARGV);
    expect(await cli({ argv: ["status"], cwd: 5 })).toEqual({ stdout: "", stderr: "git: cwd must be a non-empty string\n", exitCode: 129 });
    const many = Array.from({ length: 1_000_000 }, (_, i) => `p${i}`);
    const t0 = Date.now();
    const add = await cli({ argv: ["add", ...many], cwd: "/r" });
    expect(add).toEqual({ stdout: "", stderr: "git add: pathspec 'p0' did not match any files\n", exitCode: 128 });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(await cli({ argv: ["hash-object", "--stdin", "-w"], cwd: "/r", stdin: "x".repeat(100_000_000) })).toMatch(
      // Since issue 20's twenty-sixth run (fixer RC) the client names the call and the limit (code E2BIG) around workerd's text.
      /^rejected: git\.cli: the call is over 32 MiB, more than crosses RPC \(Serialized RPC arguments or return values are limited to 32MiB/,
    );
    expect(await cli({ argv: ["status", "--porcelain"], cwd: "/r" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });
});

describe("attack5: git output past the RPC limit", () => {
  it("cat-file -p of a 40 MiB blob comes back clipped with a note and exit 1 (over RPC and in the shell), show leaves its patch out; status still answers", { timeout: 180_000 }, async () => {
    using ws = await getWorkspace(gitAgent());
    await ws.fs.mkdir("/r");
    await ws.git.cli({ argv: ["init"], cwd: "/r" });
    let n = 0;
    const mib = new Uint8Array(1024 * 1024).fill(0x7a);
    await ws.fs.writeFile("/r/big.txt", new ReadableStream<Uint8Array>({ pull: (c) => (n++ < 40 ? c.enqueue(mib.slice()) : c.close()) }));
    expect((await ws.git.cli({ argv: ["add", "big.txt"], cwd: "/r" })).exitCode).toBe(0);
    expect((await ws.git.cli({ argv: ["commit", "-m", "big"], cwd: "/r" })).exitCode).toBe(0);
    const note = `git: output clipped: stdout was ${40 * 1024 * 1024} characters and stderr 0; at most ${MAX_GIT_RPC_OUTPUT_CHARS} cross RPC — narrow the command (a path, -n <count>)\n`;
    const cat = await within(60_000, ws.git.cli({ argv: ["cat-file", "-p", "HEAD:big.txt"], cwd: "/r" }));
    expect(typeof cat === "string" ? cat : [cat.exitCode, cat.stderr, cat.stdout.length, /^z+$/.test(cat.stdout)]).toEqual([
      1,
      note,
      MAX_GIT_RPC_OUTPUT_CHARS - note.length - 1,
      true,
    ]);
    const show = await within(60_000, ws.git.cli({ argv: ["show"], cwd: "/r" }));
    // show's patch is bounded by GIT_DIFF_MAX_PATCH_CHARS (sixteenth run): the 40 MiB file's hunks are left out, nothing to clip.
    expect(typeof show === "string" ? show : [show.exitCode, show.stderr, show.stdout.startsWith("commit "), show.stdout.includes("\nPatch left out: +")]).toEqual([0, "", true, true]);
    const shell = await within(
      60_000,
      ws.runtime.exec("git cat-file -p HEAD:big.txt > /r/out.txt; echo rc=$?", { backend: "worker-shell", cwd: "/r", timeoutMs: 60_000 }).then((h) => h.result()),
    );
    const r = shell as unknown as { exitCode: number; stdout: Uint8Array; stderr: Uint8Array };
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    expect([r.exitCode, text(r.stdout), text(r.stderr)]).toEqual([0, "rc=1\n", note]);
    expect((await ws.fs.stat("/r/out.txt")).size).toBe(MAX_GIT_RPC_OUTPUT_CHARS - note.length - 1);
    expect(await within(20_000, ws.git.cli({ argv: ["status", "--porcelain"], cwd: "/r" }))).toEqual({ stdout: "? out.txt\n", stderr: "", exitCode: 0 });
  });
});
