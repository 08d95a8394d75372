/**
 * Issue 20, scout after the eighteenth attack run: the git RPC stub's
 * `workspace.git.command` cut (41cd020) splits a surrogate pair.
 *
 * Tried: `ws.stub().git.cli({ argv: ["x".repeat(63) + "😀"] })` with a
 * recording observer, after 41cd020 (argv[0] cut to 64 characters) and
 * 93a401d (string span attributes cut to 4,096 "without splitting a
 * surrogate pair").
 *
 * Found (low): the attribute is `argv[0].slice(0, 64)` — 63 × "x" and a
 * lone high surrogate (U+D83D), which is not valid UTF-16 (an exporter
 * encoding it to UTF-8 writes U+FFFD or rejects the span; this test's
 * first draft, asserting the raw value, crashed the vitest pool with
 * "Invalid WebSocket frame: invalid UTF-8 sequence"). The observer's
 * own cut (definedAttributes) steps back one unit for exactly this case;
 * the stub's does not.
 *
 * Fixed: the git stub cuts argv[0] with clipAttribute (src/observer.ts), which definedAttributes uses too.
 * Suggested fix: cut argv[0] the way definedAttributes does (drop a
 * trailing high surrogate), e.g. a shared cutAttribute(value, max) helper in
 * src/observer.ts used by both.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inObservedWorkspace, named, recordingObserver } from "../observe/helpers.js";

it("a subcommand cut at 64 characters keeps whole characters", async () => {
  const { observer, spans } = recordingObserver();
  await inObservedWorkspace(
    observer,
    async (ws) => {
      await ws.fs.mkdir("/repo");
      expect((await ws.stub().git!.cli({ argv: ["x".repeat(63) + "\u{1F600}"], cwd: "/repo" })).exitCode).toBe(1);
    },
    { git: createGitClient() },
  );
  // Lone surrogates shown as \uXXXX text: a lone one in an assertion diff breaks the test pool's WebSocket (invalid UTF-8).
  const shown = named(spans).map(([name, attributes]) => [
    name,
    Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, typeof v === "string" ? v.replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) : v])),
  ]);
  // Probe (this checkout): "x".repeat(63) + "\\ud83d".
  expect(shown).toEqual([["workspace.git.cli", { "workspace.git.command": "x".repeat(63), "workspace.git.exit_code": 1 }]]);
}, 60_000);
