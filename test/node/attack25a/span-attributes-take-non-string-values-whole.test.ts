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
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type WorkspaceObserver } from "../../../src/index.js";

it.fails("span attributes are booleans, numbers or strings of at most 4,096 characters, whatever the caller passed", async () => {
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
  for (const [method, args] of calls) refused[method] = await fs[method]!(...args).then(() => "done", (e: Error & { code?: string }) => e.code ?? e.name);
  await ws.close();
  // Held: every call is refused before it changes anything.
  expect(refused).toEqual({ readFile: "EINVAL", rename: "EINVAL", symlink: "EINVAL", find: "TypeError", mkdir: "EINVAL" });
  const bad = spans.flatMap(({ name, attributes }) =>
    Object.entries(attributes)
      .filter(([, v]) => !(typeof v === "boolean" || typeof v === "number" || (typeof v === "string" && v.length <= 4096)))
      .map(([k, v]) => `${name} ${k}: ${Array.isArray(v) ? `array of ${v.length}` : typeof v}`),
  );
  // Found: ["workspace.fs.readFile workspace.fs.path: array of 1000", "workspace.fs.rename workspace.fs.destination: array of 1000",
  // "workspace.fs.symlink workspace.fs.target: array of 1000", "workspace.fs.find workspace.fs.pattern: array of 1000",
  // "workspace.fs.mkdir workspace.fs.mode: array of 1000"].
  expect(bad).toEqual([]);
});
