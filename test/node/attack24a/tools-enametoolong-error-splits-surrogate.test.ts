/**
 * Issue 20, twenty-fourth attack run: the ENAMETOOLONG message quotes the path's first 60 UTF-16 units, splitting a
 * surrogate pair, and that half character reaches every file tool's error text and a span's error.message.
 * Tried: the sibling of attack23a span-error-message-splits-surrogate (fixed in sanitizeErrorMessage, the span's own
 * cut) one step earlier: a message that already holds half a pair before any span sees it. A path of `/workspace/`
 * then 65,536 × 😀 (262,155 bytes of UTF-8, over MAX_PATH_BYTES 262,144) given to read, write, edit, delete, ls,
 * find and grep of the default tool set, and to `workspace.fs.readFile` inside `withSpan` (what the stub's spans run).
 * Held: every tool answers ENAMETOOLONG naming the limit (`{ error }`; read throws it, as documented); nothing is written; the span's
 * 512-unit cut (clipAttribute) keeps whole characters.
 * Found (low–medium — a tool result with a lone surrogate goes to the model provider as `\ud83d` in JSON; a strict
 * decoder rejects the request ("no low surrogate in string") and, as the result stays in the conversation, every
 * later turn; an exporter writes U+FFFD; 3 of 3 runs): each error text ends `…shallower path: /workspace/😀×24\ud83d…`
 * — tooLong (src/fs/path.ts) builds `${path.slice(0, 60)}…`, and unit 60 is the first half of the 25th 😀. The same
 * raw `.slice` cut is in src/modules/tools.ts unsendableOutput (`….slice(0, 1024)`, the reason a ws:tools result
 * "cannot be sent as JSON") and src/tool-dirs/run.ts (`JSON.stringify(value).slice(0, 80)` in an input's complaint).
 * Suggested fix: cut with cutWithMark (src/util/cut.ts, never half a pair) in tooLong, unsendableOutput and the
 * tool-dirs input complaint; or end every such quote with one helper.
 * Fixed: tooLong (src/fs/path.ts) quotes the path with cutWithMark(path, 61) — its first 60 units, one fewer when the
 * 60th is the first half of a pair, then `…`; unsendableOutput (src/modules/tools.ts) cuts its reason with
 * cutWithMark(…, 1024); the tool-dirs input complaint (src/tool-dirs/run.ts) masks the value's JSON first, then cuts
 * it with cutWithMark(…, 80) (so a secret at the cut is masked whole), and its output tail starts on a whole
 * character. The other raw `.slice(0, N)` cuts of a caller's or a daemon's text in messages now cut with headCut /
 * cutWithMark (src/util/cut.ts): kill signals, writeFile ifMatch, contentType, glob too long, symlink target, the
 * daemon's values and cursor, the ignore globs, tool-dirs values, tool names, delete's refusal, the git lock owner.
 * Each text below is now exact: it ends `…shallower path: /workspace/` + 24 × 😀 + `…`.
 */
import { expect, it } from "vitest";
import { withSpan } from "../../../src/observer.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup } from "../tools/helpers.js";

const SMILE = "\u{1F600}";
/** A UTF-16 unit that is half of a pair with no other half beside it. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PATH = "/workspace/" + SMILE.repeat(65_536);

it("an ENAMETOOLONG error quoting a path of emoji keeps whole characters, in tool results and spans", async () => {
  const { workspace } = await setup({ "/workspace/a.txt": "one x\n" });
  const all = buildCoreTools({ workspace });
  const run = (name: string, input: Record<string, unknown>) =>
    (all.find((t) => t.name === name)!.execute(input as never, {} as never) as Promise<{ error?: string }>).then(
      (r) => r.error ?? `no error: ${JSON.stringify(r).slice(0, 100)}`,
      (e: Error) => `thrown: ${e.message}`,
    );
  const texts: Record<string, string> = {
    read: await run("read", { path: PATH }),
    write: await run("write", { path: PATH, content: "z" }),
    edit: await run("edit", { path: PATH, edits: [{ oldText: "a", newText: "b" }] }),
    delete: await run("delete", { path: PATH }),
    ls: await run("ls", { path: PATH }),
    find: await run("find", { path: PATH, pattern: "*" }),
    grep: await run("grep", { path: PATH, query: "x" }),
  };
  const fields: Record<string, unknown> = {};
  const recorder = { span: (_n: string, _a: unknown, fn: (s: { setAttribute(k: string, v: unknown): void }) => Promise<unknown>) => fn({ setAttribute: (k, v) => void (fields[k] = v) }) };
  await withSpan(recorder as never, "workspace.fs.readFile", {}, () => workspace.fs.readFile(PATH, "utf8")).catch(() => {});
  texts.span = String(fields["error.message"]);

  for (const text of Object.values(texts)) expect(text).toMatch(/^(thrown: )?ENAMETOOLONG: path too long: 262155 bytes of UTF-8, at most 262144/);
  // Found: every text holds /workspace/ + 24 × 😀 + "\ud83d" + "…" (the cut at unit 60).
  const whole = Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, !LONE.test(t)]));
  expect(whole).toEqual({ read: true, write: true, edit: true, delete: true, ls: true, find: true, grep: true, span: true });
  const exact = (syscall: string) =>
    `ENAMETOOLONG: path too long: 262155 bytes of UTF-8, at most 262144; use a shorter or shallower path: /workspace/${SMILE.repeat(24)}…, ${syscall}`;
  expect(texts).toEqual({
    read: `thrown: ${exact("stat")}`,
    write: exact("stat"),
    edit: exact("stat"),
    delete: exact("rm"),
    ls: exact("readdir"),
    find: exact("find"),
    grep: exact("grep"),
    span: exact("readFile"),
  });
}, 60_000);
