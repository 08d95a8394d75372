/**
 * Issue 20, scout after the twentieth attack run: docs for two of this session's behaviour changes.
 * Tried: read docs/runtime.md and docs/tools.md (and the public TSDoc) against 8ced91c (`killExec` / `kill(signal)`
 * reject EINVAL for a signal outside KillSignal) and 77b4440 (pi's `argumentsError` quoted up to
 * INVALID_ARGUMENTS_MAX_CHARS, 4,096 characters).
 * Held: docs/porting.md states both; `WorkspaceRuntime.killExec`'s TSDoc states the EINVAL.
 * Found (low — docs only; 2 of 2 pages): docs/runtime.md's `killExec(id, { backend?, signal? })` row (and
 * `WorkspaceRuntimeLike.killExec` / the exec handle's `kill` TSDoc in src/runtime/types.ts) says nothing of the
 * EINVAL, and docs/tools.md still says the pi adapter answers `Invalid arguments for <tool>: <argumentsError>` with
 * no bound.
 * Suggested fix: add "a signal other than SIGTERM, SIGKILL, SIGINT, SIGHUP rejects `EINVAL` before any backend is
 * asked" to the runtime.md row and the interface TSDoc; add "(at most 4,096 characters, cut with `…`)" after the
 * pi sentence in tools.md.
 * Fixed: both pages and the TSDoc say so.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const page = (name: string) => readFileSync(`docs/${name}`, "utf8");

it("docs/runtime.md's killExec row names the EINVAL; docs/tools.md bounds the pi argumentsError quote", () => {
  const row = page("runtime.md").split("\n").find((line) => line.startsWith("| `killExec(id, { backend?, signal? })`"));
  expect(row).toBeDefined();
  expect(row).toContain("EINVAL");
  const tools = page("tools.md").replace(/\n/g, " ");
  const sentence = tools.slice(tools.indexOf("`Invalid arguments for <tool>: <argumentsError>`"), tools.indexOf("`Invalid arguments for <tool>: <argumentsError>`") + 200);
  expect(sentence).toMatch(/4,096|INVALID_ARGUMENTS_MAX_CHARS/);
});
