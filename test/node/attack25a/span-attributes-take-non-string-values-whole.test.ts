/**
 * Issue 20, twenty-fifth attack run: a span's start attributes pass a caller's non-string argument to the observer
 * whole — a 1,000-element array (1 MB of JSON) as `workspace.fs.path`, `.destination`, `.target`, `.pattern`, `.mode`.
 * Tried: `workspace.stub().fs` (what every RPC caller and getWorkspace() client reaches) called with an array of
 * 1,000 strings of 1,000 characters where a path, a rename destination, a link target, a find/grep pattern or a
 * mkdir/chmod mode goes, under an observer that records the attributes it is given.
 * Held: each call is refused (`EINVAL: path must be a string, got an array, readFile`, …); string attributes are cut
 * to 4,096 characters (definedAttributes → clipAttribute); error.message is sanitised and cut to 512.
 * Found (low — an OpenTelemetry SDK takes an array of strings as a valid attribute value, so 1 MB (up to the 32 MiB
 * RPC limit) per span reaches the exporter; an observer typed against WorkspaceAttributeValue (boolean | number |
 * string) gets an object; 3 of 3 runs): each span's attribute is the caller's array itself
 * (`Array.isArray`, 1,000 elements). definedAttributes (src/observer.ts) cuts only `typeof value === "string"` and
 * passes any other value through; the fs stub (src/do/fs-stub.ts) puts its raw RPC arguments into the attributes
 * before the filesystem checks them. docs/observability.md: "Paths and patterns are recorded as given, cut to 4,096
 * characters (they are recorded before they are checked)". (Also: the mode refusal's own message echoes
 * `String(value)` whole — `EINVAL: mode must be a non-negative integer, got xxxx…` is 1,000,999+ characters, src/fs/
 * options.ts checkMode; not asserted here.)
 * Suggested fix: in definedAttributes keep only booleans, finite numbers and strings (cut); record anything else as
 * a short description (e.g. `jsonCut(value)` from src/util/cut.ts, or the type: `"(an array)"`) or leave it out.
 * Fixed: definedAttributes (src/observer.ts, which withSpan and both ready-made observers run) keeps a boolean or a
 * finite number as given and cuts a string to 4,096 characters; anything else — an array, an object, NaN, a bigint —
 * becomes `valueCut(value)` (src/util/cut.ts: JSON, or `String` for a non-finite number or bigint, at most 64
 * characters then `… (<n> characters)`). OpenTelemetry-style array attributes are not kept: no attribute the library
 * records is an array, so an array is always a caller's wrong argument. checkMode's message and the other
 * validation messages that echoed `String(value)` whole (src/fs/options.ts, changes.ts, provider.ts,
 * src/util/validate.ts `got`, src/runtime getExec `resume` and sync telemetry `cpuLimitMs`, src/do/event-framing
 * `maxLineBytes`, Workspace `output.dir` and `unmount(root)`) now quote it with valueCut too
 * (test/node/fix25/value-cut-messages.test.ts).
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type WorkspaceObserver } from "../../../src/index.js";

it("span attributes are booleans, numbers or strings of at most 4,096 characters, whatever the caller passed", async () => {
  const spans: { name: string; attributes: Record<string, unknown> }[] = [];
  const observer: WorkspaceObserver = {
    span(name, attributes, run) {
      spans.push({ name, attributes: { ...attributes } });
      return run({ setAttribute() {} });
    },
  };
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), observer });
  const fs = ws.stub().fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const big = Array.from({ length: 1000 }, () => "x".repeat(1000));
  const calls: [string, unknown[]][] = [
    ["readFile", [big]],
    ["rename", ["/a", big]],
    ["symlink", [big, "/l"]],
    ["find", ["/", big]],
    ["mkdir", ["/d", { mode: big }]],
  ];
  const refused: Record<string, string> = {};
  const messages: Record<string, string> = {};
  for (const [method, args] of calls) {
    refused[method] = await fs[method]!(...args).then(
      () => "done",
      (e: Error & { code?: string }) => ((messages[method] = e.message), e.code ?? e.name),
    );
  }
  await ws.close();
  // Held: every call is refused before it changes anything.
  expect(refused).toEqual({ readFile: "EINVAL", rename: "EINVAL", symlink: "EINVAL", find: "TypeError", mkdir: "EINVAL" });
  // The array as an attribute: its JSON, first 64 characters, then its length.
  const shown = `["${"x".repeat(62)}… (1003001 characters)`;
  expect(spans).toEqual([
    { name: "workspace.fs.readFile", attributes: { "workspace.fs.path": shown } },
    { name: "workspace.fs.rename", attributes: { "workspace.fs.path": "/a", "workspace.fs.destination": shown } },
    { name: "workspace.fs.symlink", attributes: { "workspace.fs.path": "/l", "workspace.fs.target": shown } },
    { name: "workspace.fs.find", attributes: { "workspace.fs.path": "/", "workspace.fs.pattern": shown } },
    { name: "workspace.fs.mkdir", attributes: { "workspace.fs.path": "/d", "workspace.fs.mode": shown } },
  ]);
  // Sibling: the mode refusal quotes the array the same way (it was 1,000,999+ characters).
  expect(messages.mkdir).toBe(`EINVAL: mode must be a non-negative integer, got ${shown}, mkdir: /d`);
});
