/**
 * fix22 (FQ), issue 20 run 22 scout finding 2 — siblings of
 * test/workers/scout22/runtime-env-name-string-value-quoted-whole.test.ts: every refusal on the exec path that echoes a
 * caller's env name, cwd or backend quotes at most 64 characters of it and its length (quoteCut / memberCut / jsonCut,
 * src/util/cut.ts), on the shell backend, the JavaScript backend and the runtime; short ones read as before.
 * Real workerd (the shell and JavaScript backends over the test LOADER).
 */
import { expect, it } from "vitest";
import { inShellWorkspace } from "../shell/helpers.js";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: Error & { code?: string }) => ({ name: e.name, code: e.code, message: e.message }),
  );

it("shell backend: env names over 64 characters are cut, short ones read as before", async () => {
  const out = await inShellWorkspace(async (ws) => ({
    longNotName: await refusal(ws.runtime.exec("true", { env: { ["a".repeat(70) + "="]: "v" } })),
    longNameNumber: await refusal(ws.runtime.exec("true", { env: { ["b".repeat(65)]: 1 as never } })),
    shortNotName: await refusal(ws.runtime.exec("true", { env: { "A=B": "v" } })),
    shortNameNumber: await refusal(ws.runtime.exec("true", { env: { N: 1 as never } })),
  }));
  expect(out).toEqual({
    longNotName: {
      name: "TypeError",
      code: undefined,
      message: `exec: env name "${"a".repeat(64)}…" (71 characters) is not a shell variable name (letters, digits and _, not starting with a digit)`,
    },
    longNameNumber: { name: "TypeError", code: undefined, message: `exec: env["${"b".repeat(64)}…" (65 characters)] must be a string, got number` },
    shortNotName: { name: "TypeError", code: undefined, message: 'exec: env name "A=B" is not a shell variable name (letters, digits and _, not starting with a digit)' },
    shortNameNumber: { name: "TypeError", code: undefined, message: "exec: env.N must be a string" },
  });
}, 60_000);

it("JavaScript backend: a long cwd outside the root, with a NUL or missing is cut; short ones and env.K read as before", async () => {
  const src = "export default () => 1;";
  const out = await inShellWorkspace(
    async (ws) => {
      const backend = "worker-javascript";
      return {
        outside: await refusal(ws.runtime.exec(src, { backend, cwd: "/etc/" + "y".repeat(3000) })),
        nul: await refusal(ws.runtime.exec(src, { backend, cwd: "/workspace/" + "z".repeat(3000) + "\0" })),
        missing: await ws.runtime.exec(src, { backend, cwd: "/workspace/" + "m/".repeat(1500) }).then(
          () => "resolved",
          (e: Error & { code?: string; path?: string }) => ({ name: e.name, code: e.code, message: e.message, wholePath: e.path === "/workspace/" + "m/".repeat(1499) + "m" }),
        ),
        missingShort: await refusal(ws.runtime.exec(src, { backend, cwd: "/workspace/nope" })),
        outsideShort: await refusal(ws.runtime.exec(src, { backend, cwd: "/etc" })),
        nulShort: await refusal(ws.runtime.exec(src, { backend, cwd: "a\0b" })),
        envShort: await refusal(ws.runtime.exec(src, { backend, env: { K: 1 as never } })),
      };
    },
    { javascript: true },
  );
  expect(out).toEqual({
    outside: { name: "Error", code: "EACCES", message: `paths must stay under /workspace: cwd "/etc/${"y".repeat(59)}…" (3005 characters)` },
    nul: { name: "Error", code: "EINVAL", message: `cwd contains a NUL byte: "/workspace/${"z".repeat(53)}…" (3012 characters)` },
    missing: { name: "Error", code: "ENOENT", message: `cwd does not exist: "/workspace/${"m/".repeat(26)}m…" (3010 characters)`, wholePath: true },
    missingShort: { name: "Error", code: "ENOENT", message: "cwd does not exist: /workspace/nope" },
    outsideShort: { name: "Error", code: "EACCES", message: "paths must stay under /workspace: cwd /etc" },
    nulShort: { name: "Error", code: "EINVAL", message: 'cwd contains a NUL byte: "a\\u0000b"' },
    envShort: { name: "TypeError", code: undefined, message: "env.K must be a string, got number" },
  });
}, 60_000);

it("runtime: a backend id that is not a string is shown as JSON, cut to 64 characters and its length", async () => {
  const out = await inShellWorkspace(async (ws) => ({
    number: await refusal(ws.runtime.exec("true", { backend: 42 as never })),
    object: await refusal(ws.runtime.exec("true", { backend: { k: "v".repeat(100) } as never })),
    string: await refusal(ws.runtime.exec("true", { backend: "w".repeat(100) })),
  }));
  expect(out).toEqual({
    number: { name: "Error", code: undefined, message: 'no backend with id 42; this Workspace has "worker-shell"' },
    object: { name: "Error", code: undefined, message: `no backend with id {"k":"${"v".repeat(58)}… (108 characters); this Workspace has "worker-shell"` },
    string: { name: "Error", code: undefined, message: `no backend with id "${"w".repeat(64)}…" (100 characters); this Workspace has "worker-shell"` },
  });
}, 60_000);
