/**
 * Issue 20, twenty-third attack run: a span's `error.message` cut at 512 characters splits a surrogate pair.
 * Tried: `ws.stub().fs.readFile(path)` of a missing path holding astral characters (😀, two UTF-16 units) with a
 * recording observer, the path placed so that the 512-character cut of `error.message` (sanitizeErrorMessage,
 * src/observer.ts) falls between the two halves of one 😀 — the sibling of scout18's git-span-command-splits-surrogate
 * (fixed by clipAttribute, which steps back one unit) and of every string start attribute (definedAttributes).
 * Held: the start attribute `workspace.fs.path` (cut to 4,096 by clipAttribute) keeps whole characters; redaction and
 * control-character blanking keep the length; the call rejects ENOENT as before.
 * Found (low — an exporter encoding the attribute to UTF-8 writes U+FFFD or rejects the span; 3 of 3 runs):
 * `error.message` is 511 characters of message then a lone high surrogate U+D83D (`.slice(0, 512)` at the end of
 * sanitizeErrorMessage cuts by code unit). The same cut gives `error.name` (errorNameOf), the OpenTelemetry
 * observer's recordException message and sync telemetry's `error` (src/runtime/sync-telemetry.ts) a lone half.
 * Suggested fix: end sanitizeErrorMessage with `clipAttribute(text, MAX_ERROR_MESSAGE_CHARS)` instead of
 * `.slice(0, MAX_ERROR_MESSAGE_CHARS)` (and cut the 65,536-character input the same way).
 * Fixed: sanitizeErrorMessage cuts its input to 65,536 and its result to 512 with clipAttribute (one unit fewer when
 * the cut would split a pair), so error.message, error.name (errorNameOf), the OpenTelemetry status message and
 * recorded exception, and sync telemetry's `error` all keep whole characters
 * (test/node/fix23/error-message-surrogate.test.ts).
 */
import { expect, it } from "vitest";
import { inObservedWorkspace, recordingObserver } from "../observe/helpers.js";

/** Lone surrogates shown as \uXXXX text: a raw one in an assertion diff breaks the test pool's WebSocket. */
const shown = (v: unknown) => (typeof v === "string" ? v.replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) : v);

it("error.message cut at 512 characters keeps whole characters", async () => {
  const { observer, spans } = recordingObserver();
  let expected = "";
  await inObservedWorkspace(observer, async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const fs = ws.stub().fs;
    // Where the path starts in the ENOENT message.
    const probe = "/workspace/zz";
    const first = await fs.readFile(probe, "utf8").then(() => "", (e: Error) => e.message);
    const at = first.indexOf(probe);
    expect(at).toBeGreaterThanOrEqual(0);
    // "/workspace/" + pad puts the first 😀 at units 511-512 of the message.
    const pad = "a".repeat(511 - at - "/workspace/".length);
    const path = "/workspace/" + pad + "\u{1F600}".repeat(10);
    const error = await fs.readFile(path, "utf8").then(() => ({ code: "resolved", message: "" }), (e: { code?: string; message: string }) => e);
    expect(error.code).toBe("ENOENT");
    expected = error.message.slice(0, 511);
  });
  const failed = spans.filter((s) => s.outcome === "error").map((s) => shown(s.attributes["error.message"]) as string);
  expect(failed).toHaveLength(2);
  // Found: 511 characters then "\ud83d" (512 units, the last a lone high surrogate).
  expect(failed[1]!.endsWith("a")).toBe(true);
  expect(failed[1]!.length).toBe(511);
  expect(expected).toMatch(/a$/);
  expect(failed[1]).toBe(expected);
}, 60_000);
