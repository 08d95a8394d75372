/**
 * Defects a first-time user found (issue 14 fresh-eyes trial), each with its
 * reproduction: concurrent `>>` from several commands lost lines (appends
 * read and rewrote the file from inside each command); a CPU-bound loop
 * overran its timeout by seconds (nothing interrupted it before just-bash's
 * command limit); a missing or non-directory cwd was accepted; a non-object
 * env, names that are no shell variable, and stdin of the wrong type were
 * taken silently.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "./helpers.js";

it("ten commands appending to one file at once all land", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await sh(ws, "true");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => sh(ws, `for j in 1 2 3; do echo ${i}-$j >> shared.txt; done`)));
    return { codes: results.map((r) => r.exitCode), text: await ws.fs.readFile("/workspace/shared.txt", "utf8") };
  });
  expect(out.codes).toEqual(Array(10).fill(0));
  const lines = out.text.trimEnd().split("\n");
  expect(lines.length).toBe(30);
  expect([...lines].sort()).toEqual(Array.from({ length: 10 }, (_, i) => [1, 2, 3].map((j) => `${i}-${j}`)).flat().sort());
  // Each command's own lines stay in order.
  for (let i = 0; i < 10; i++) expect(lines.filter((l) => l.startsWith(`${i}-`))).toEqual([`${i}-1`, `${i}-2`, `${i}-3`]);
});

it("a CPU-bound loop stops at its timeout (124), keeping the output made before it", async () => {
  const { r, ms } = await inShellWorkspace(async (ws) => {
    await sh(ws, "true");
    const started = Date.now();
    const r = await sh(ws, "echo before; while true; do echo x > /dev/null; done", { timeoutMs: 500 });
    return { r, ms: Date.now() - started };
  });
  expect([r.exitCode, r.stdout, r.stderr]).toEqual([124, "before\n", "Execution timed out after 500 ms\n"]);
  expect(ms).toBeLessThan(2500);
});

it("exec refuses a cwd that is missing (ENOENT) or a file (ENOTDIR), and env/stdin of the wrong shape (TypeError)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/a.txt", "a");
    const fail = (o: Record<string, unknown>) =>
      ws.runtime.exec("pwd", o as never).then(
        () => "ran",
        (e: Error & { code?: string }) => [e.name, e.code ?? null, e.message],
      );
    return {
      missing: await fail({ cwd: "/nope/deeper" }),
      file: await fail({ cwd: "/workspace/a.txt" }),
      envString: await fail({ env: "FOO=1" }),
      envArray: await fail({ env: ["A"] }),
      envName: await fail({ env: { "A=B": "x" } }),
      envDigit: await fail({ env: { "1X": "z" } }),
      stdin: await fail({ stdin: 42 }),
      files: (await ws.fs.readdir("/")).map((e) => e.name),
    };
  });
  expect(out.missing).toEqual(["WorkspaceFsError", "ENOENT", "ENOENT: cwd does not exist, exec: /nope/deeper"]);
  expect(out.file).toEqual(["WorkspaceFsError", "ENOTDIR", "ENOTDIR: cwd is not a directory, exec: /workspace/a.txt"]);
  expect(out.envString).toEqual(["TypeError", null, "exec: env must be an object of name → string"]);
  expect(out.envArray).toEqual(["TypeError", null, "exec: env must be an object of name → string"]);
  expect(out.envName).toEqual(["TypeError", null, 'exec: env name "A=B" is not a shell variable name (letters, digits and _, not starting with a digit)']);
  expect(out.envDigit[0]).toBe("TypeError");
  expect(out.stdin[0]).toBe("TypeError");
  expect(out.files).toEqual(["workspace"]);
});
