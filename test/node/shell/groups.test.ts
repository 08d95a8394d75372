/** The optional groups the host knows (modules.ts) are the ones scripts/gen-shell.mjs generates, with the same commands. */
import { expect, it } from "vitest";
import { SHELL_GROUP_COMMANDS, shellCommandNames } from "../../../src/backends/worker-shell/modules.js";
import curl from "../../../src/shell/curl.js";
import htmlToMarkdown from "../../../src/shell/html-to-markdown.js";
import python from "../../../src/shell/python.js";
import sqlite from "../../../src/shell/sqlite.js";
import jsExec from "../../../src/shell/js-exec.js";
import yq from "../../../src/shell/yq.js";
import file from "../../../src/shell/file.js";
import xan from "../../../src/shell/xan.js";
import jq from "../../../src/shell/jq.js";
import core from "../../../src/shell/core.js";

const groups = [curl, htmlToMarkdown, python, sqlite, jsExec, yq, file, xan, jq];

it("SHELL_GROUP_COMMANDS matches the generated groups", () => {
  expect(Object.fromEntries(groups.map((g) => [g.name, g.commands]))).toEqual(SHELL_GROUP_COMMANDS);
  for (const g of groups) for (const c of g.commands) expect(core.commands).not.toContain(c);
});

it("a listed group enables its commands; an unlisted one leaves a hint; an unavailable one its reason; a later group wins", () => {
  const none = shellCommandNames([]);
  expect(none.commands).toEqual(core.commands);
  expect(none.unavailable.jq).toBe(
    'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))',
  );
  const some = shellCommandNames([jq, python]);
  expect(some.commands).toEqual([...core.commands, "jq"]);
  expect(some.unavailable.jq).toBeUndefined();
  expect(some.unavailable.python3).toBe(python.unavailable);
  const override = shellCommandNames([python, { name: "my-python", commands: ["python3"], modules: {} }]);
  expect(override.commands).toContain("python3");
  expect(override.unavailable.python3).toBeUndefined();
  expect(() => shellCommandNames([{ name: "x" } as never])).toThrow('WorkerShellBackend: commands[0] is not a command group; import one from "agent-computer/shell/<group>"');
});

it("the description names what the configuration has: listed groups, and whether curl reaches the network", async () => {
  const { describeShell } = await import("../../../src/backends/worker-shell/backend.js");
  const core = shellCommandNames([]).commands;
  expect(describeShell(core, { mode: "none" })).toBe(
    "A just-bash shell in a Dynamic Worker, working directly on the Workspace's files (cwd /workspace). Starts fast, with no container. Good for cat, grep -rn, sed -i, awk, head, tail, sort, uniq, wc, find, xargs, diff, tar, pipes and redirects. It has no network access. Cannot run npm, node, python, or binaries outside its built-in command set. Its built-in `git` (init, status, diff, log, add, commit, branch, clone, push, …) works on the Workspace's files when the Workspace has git configured; git's network requests go out from the host.",
  );
  const withJqCurl = shellCommandNames([jq, curl]).commands;
  expect(describeShell(withJqCurl, { mode: "none" })).toContain("pipes and redirects, and jq, curl. It has no network access.");
  expect(describeShell(withJqCurl, { mode: "direct" })).toContain(", and jq, curl. curl reaches the network. Cannot run");
});
