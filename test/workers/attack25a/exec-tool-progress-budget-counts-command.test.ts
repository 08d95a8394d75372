/**
 * Issue 20, twenty-fifth attack run: the exec tool's running snapshots in the AI SDK and TanStack adapters stop after
 * the first one when the command is long — the 1 MiB progress budget counts the echoed command, not stdout + stderr.
 * Tried: `createAITools({ workspace }).exec.execute({ command })` and `createTanStackTools({ workspace,
 * streamEventName }).exec.execute(…, { emitCustomEvent })` over a WorkerJavaScriptBackend run that prints one short
 * line every 250 ms, 8 times — once as is, once with a 700,000-character comment after the code (a program carrying
 * inline data; maxSourceBytes is 1 MiB by default, so it runs).
 * Held: the short command gets 8 running snapshots (each ≥ 100 ms apart, within PROGRESS_BURST), then the settled one.
 * Found (low–medium — the model's UI shows no progress for a long-running command whose source is over ~512 KiB,
 * and the second and later snapshots are silently dropped; 3 of 3 runs): the long command gets 1 running snapshot
 * (AI SDK) and 1 custom event (TanStack), then the settled one. The adapters pace exec with
 * `pacedValues(…, snapshotChars, …)` (src/tools/core/directory.ts), and snapshotChars sums *every* top-level string
 * field — `command` (700,000+ characters, echoed in each snapshot) and `cwd` included — so the second snapshot takes
 * the call past MAX_PENDING_UPDATE_CHARS (1,048,576) and every later one is dropped. docs/tools.md: "at most 1 MiB of
 * stdout + stderr text per call (MAX_PENDING_UPDATE_CHARS; later running snapshots are dropped)"; pacedValues' own
 * doc: "(`chars`: its stdout and stderr text)".
 * Suggested fix: have the exec adapters count only `stdout` and `stderr` (e.g. `(s) => s.stdout.length +
 * s.stderr.length` for exec's snapshots) instead of snapshotChars' every string field; or count the echoed fields
 * once per call rather than once per snapshot.
 * Fixed: snapshotChars (src/tools/core/directory.ts) counts only an exec snapshot's `stdout` and `stderr`, as the
 * docs say; and exec now echoes `command` cut past 4,096 characters (echoedText), so each snapshot of the long
 * command carries 4,096 + 33 characters of it, not 700,000+.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";

/** Prints "line 0" … "line 7", 250 ms apart, then returns 1. */
const BODY = `export default async () => { for (let i = 0; i < 8; i++) { console.log("line " + i); await new Promise((r) => setTimeout(r, 250)); } return 1; };`;

type Snapshot = { stdout: string; exitCode: number | null };

it("a long command gets its running snapshots as a short one does (the budget counts stdout + stderr)", async () => {
  const out = await inWorkspace(async (ws) => {
    const res: Record<string, unknown> = {};
    for (const [label, pad] of [["short", 0], ["long", 700_000]] as const) {
      const command = `${BODY}\n// ${"x".repeat(pad)}\n`;
      const ai = createAITools({ workspace: ws }).exec as unknown as { execute: (i: unknown, o: unknown) => AsyncIterable<Snapshot> };
      const aiValues: Snapshot[] = [];
      for await (const v of ai.execute({ command }, { toolCallId: "c1", messages: [] })) aiValues.push(v);
      const events: Snapshot[] = [];
      const tan = createTanStackTools({ workspace: ws, format: "object", streamEventName: "exec-progress" }).exec as unknown as {
        execute: (i: unknown, c: unknown) => Promise<unknown>;
      };
      await tan.execute({ command }, { toolCallId: "c2", emitCustomEvent: (_name: string, value: { snapshot: Snapshot }) => void events.push(value.snapshot) });
      const shown = pad === 0 ? command : `${command.slice(0, 4096)}[… ${command.length - 4096} characters cut …]`;
      expect([...aiValues, ...events].every((v) => (v as unknown as { command: string }).command === shown)).toBe(true);
      res[label] = {
        ai: aiValues.filter((v) => v.exitCode === null).length,
        aiSettled: aiValues.at(-1)?.exitCode,
        tanstack: events.filter((v) => v.exitCode === null).length,
      };
    }
    return res;
  });
  // Held: { ai: 8, aiSettled: 0, tanstack: 8 } for the short command (one snapshot per printed line).
  expect(out.short).toEqual({ ai: 8, aiSettled: 0, tanstack: 8 });
  // Found: { ai: 1, aiSettled: 0, tanstack: 1 } — the second snapshot's 700,000-character command passes the 1 MiB budget.
  expect(out.long).toEqual({ ai: 8, aiSettled: 0, tanstack: 8 });
}, 120_000);
