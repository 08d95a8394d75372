/**
 * Issue 20, twenty-sixth attack run: the exec tool's "not callable" refusal quotes the backend the call named
 * whole, although every snapshot field echoing it is cut since run 25.
 *
 * Tried: the sibling of attack25a exec-tool-echoes-cwd-whole (fixed by echoedText for command, cwd and backend): an
 * exec tool over two backends (`js` callable, `sh` not) called with `input` and a backend of 300,000 characters, and
 * the other refusals with long fields.
 * Held: the snapshot's `backend` is cut to 4,096 characters and `[… N characters cut …]`; an unknown backend without
 * `input` gives `Invalid arguments for exec: backend: …` (zod's message, no value); a long cwd is cut.
 * Found (low — the model's context pays the whole string it sent, six times over in JSON for control characters,
 * for a 1-line refusal; 3 of 3 runs): the one snapshot's `error` is `Backend "bbbb…" is not callable; it does not
 * accept structured input.` with all 300,000 characters — 300,064 characters, the result 304,245 bytes of JSON.
 * src/tools/core/exec.ts refuse() interpolates `backend` (the raw `fields.backend`) into the message; checkInput
 * cut only `call.backend`.
 * Suggested fix: name the backend as the snapshot does — `Backend "${echoedText(backend)}" is not callable…` (or, as
 * an unknown backend is not in the selection, refuse it as `Invalid arguments for exec: backend: …` first).
 * Fixed: src/tools/core/exec.ts refuse() names the backend through echoedText, as the snapshot's `backend` field
 * does. Its other refusal (`Name a backend to run on.`) and the schema's (`Invalid arguments for exec: …`, cut by
 * invalidArgumentsMessage) echo nothing the caller sent.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";
import { ScriptBackend } from "../runtime/script-backend.js";

const cut = (s: string) => `${s.slice(0, 4096)}[… ${s.length - 4096} characters cut …]`;

it("a call with input and a long backend name is refused naming the backend cut", async () => {
  const storage = nodeSqliteStorage(":memory:");
  try {
    const workspace = new Workspace({ storage, backends: [new ScriptBackend({ id: "js" }), new ScriptBackend({ id: "sh", callable: false })] });
    const exec = defineExec({ workspace });
    const backend = "b".repeat(300_000);
    const out: ExecToolOutput[] = [];
    for await (const s of exec.execute({ command: "out a", backend, input: { a: 1 } } as never)) out.push(s);
    // Found: error `Backend "${backend}" is not callable; it does not accept structured input.` (300,064 characters).
    expect(out).toEqual([
      { command: "out a", cwd: null, backend: cut(backend), error: `Backend "${cut(backend)}" is not callable; it does not accept structured input.` },
    ]);
  } finally {
    storage.close();
  }
});
