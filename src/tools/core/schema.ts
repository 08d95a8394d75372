/**
 * Schema helpers shared by the adapters (spec 03 §3, §7.2): JSON Schema
 * draft-07 from a zod schema, pi's null dropping, and readable validation
 * messages.
 *
 * @module
 */
import { z } from "zod";
import { cutWithMark } from "../../util/cut.js";
import { protoKeyName } from "./proto-keys.js";

/** A JSON Schema object (draft-07). */
export type JSONSchemaObject = { type: "object"; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/**
 * The zod schema as JSON Schema draft-07 in input mode: defaults appear as
 * `"default"` and the field stays optional, shared sub-schemas are inlined,
 * unrepresentable parts become `{}`, and `$schema` is removed.
 */
export function toJSONSchema(schema: z.ZodType): JSONSchemaObject {
  const json = z.toJSONSchema(schema, { target: "draft-07", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type !== "object") throw new TypeError("tool input schemas must be objects");
  return json as JSONSchemaObject;
}

/**
 * Top-level keys whose field accepts `undefined` but rejects `null`: a
 * `null` there is how strict sampling sends an omitted optional field, so it
 * is dropped before validation.
 */
export function nullDroppableKeys(schema: z.ZodType): Set<string> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  const keys = new Set<string>();
  if (!shape) return keys;
  for (const [key, field] of Object.entries(shape)) {
    if (field.safeParse(undefined).success && !field.safeParse(null).success) keys.add(key);
  }
  return keys;
}

/** Removes `null` values of the given top-level keys (nested values are never touched). */
export function dropNulls(args: unknown, keys: Set<string>): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args) || keys.size === 0) return args;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value === null && keys.has(key)) {
      out ??= { ...(args as Record<string, unknown>) };
      delete out[key];
    }
  }
  return out ?? args;
}

/**
 * Issues that {@link invalidArgumentsMessage} lists at most (the first ones,
 * in zod's order); the rest are counted (`… and <n> more issues`). Default 10.
 */
export const INVALID_ARGUMENTS_MAX_ISSUES = 10;

/**
 * Characters (UTF-16 code units) an {@link invalidArgumentsMessage} takes at
 * most, whatever its issues say: a longer list is cut (without splitting a
 * character) and marked `…`, before the count of unlisted issues. Default 4096.
 */
export const INVALID_ARGUMENTS_MAX_CHARS = 4096;

/** A validation issue as Standard Schema reports it: `message`, and the `path` to the value when known. */
export interface BoundedIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
}

type UnionIssue = BoundedIssue & { readonly code?: unknown; readonly errors?: unknown };

/**
 * How far into the value a branch's issues got: its longest issue path, then whether the value's type is the
 * branch's (no `invalid_type` at the branch's own path), then fewer issues first.
 */
function branchScore(branch: readonly UnionIssue[]): [number, number, number] {
  // A loop, not `Math.max(...lengths)`: a branch holds an issue per element of a wrong array, past what a call's
  // arguments may spread (RangeError; issue 20, run 40, fixer f40tl).
  let deepest = 0;
  let typeMatches = 1;
  for (const issue of branch) {
    const length = Array.isArray(issue.path) ? issue.path.length : 0;
    if (length > deepest) deepest = length;
    if (length === 0 && issue.code === "invalid_type") typeMatches = 0;
  }
  return [deepest, typeMatches, -branch.length];
}

/** Whether score `a` ranks above `b` (each component in turn, larger first). */
function scoresAbove(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

/**
 * `issues` with each zod `invalid_union` issue (its `errors`: one list of issues per branch) replaced by the issues
 * of its closest branch — the one whose issues reach deepest into the value, then one the value's type matches (101
 * globs for `string | string[] (≤ 100)`: the array's `Too big`, not `expected string, received array`; issue 20,
 * run 40, fixer f40tl), then the one with fewest — their paths prefixed with the union's, so the model reads what the
 * field should be (`include.1: expected string, received number`) instead of `Invalid input`. Nested unions are
 * expanded up to 4 levels.
 */
function* closestBranches(issues: readonly UnionIssue[], depth = 0): Generator<UnionIssue> {
  for (const issue of issues) {
    const branches = issue.code === "invalid_union" && Array.isArray(issue.errors) && depth < 4 ? (issue.errors as unknown[]).filter(Array.isArray) : [];
    let best: UnionIssue[] | undefined;
    for (const branch of branches as UnionIssue[][]) {
      if (branch.length === 0) continue;
      if (best === undefined || scoresAbove(branchScore(branch), branchScore(best))) best = branch;
    }
    if (best === undefined) {
      yield issue;
      continue;
    }
    const prefix = Array.isArray(issue.path) ? issue.path : [];
    yield* closestBranches(best.map((nested) => ({ ...nested, path: [...prefix, ...(Array.isArray(nested.path) ? nested.path : [])] })), depth + 1);
  }
}

/** An issue's path within bounds: its first 64 segments, a string key cut to 256 characters (`…`). */
function boundedPath(path: NonNullable<BoundedIssue["path"]>): NonNullable<BoundedIssue["path"]> {
  const cut = (raw: PropertyKey) => {
    const key = protoKeyName(raw);
    return typeof key === "string" ? cutWithMark(key, 256) : key;
  };
  return Array.from(path.slice(0, 64), (segment) => (segment !== null && typeof segment === "object" ? { key: cut(segment.key) } : cut(segment)));
}

/**
 * The first {@link INVALID_ARGUMENTS_MAX_ISSUES} of `issues` — a zod
 * `invalid_union` replaced by the issues of its closest branch — each as
 * `{ code?, path?, message }` (what else a library puts in an issue is left
 * out: `unrecognized_keys` carries every key in `keys`), their messages together at most
 * {@link INVALID_ARGUMENTS_MAX_CHARS} characters (the one that crosses the
 * bound is cut and marked `…`, and no more are listed), then, when some are
 * left out, one more issue `{ message: "… and <n> more issues" }` (no path).
 */
export function boundedIssues(issues: readonly (BoundedIssue & { readonly code?: unknown })[]): (BoundedIssue & { code?: string })[] {
  const out: (BoundedIssue & { code?: string })[] = [];
  let room = INVALID_ARGUMENTS_MAX_CHARS;
  // Every branch issue is already held by the caller's error: expanding them costs references, not copies of messages.
  const all = [...closestBranches(issues)];
  for (const issue of all) {
    if (out.length === INVALID_ARGUMENTS_MAX_ISSUES || room <= 0) break;
    const message = String(issue.message);
    out.push({
      ...(typeof issue.code === "string" ? { code: issue.code.slice(0, 64) } : {}),
      ...(issue.path !== undefined ? { path: boundedPath(issue.path) } : {}),
      message: message.length <= room ? message : cutWithMark(message, room),
    });
    room -= message.length;
  }
  const more = all.length - out.length;
  if (more > 0) out.push({ message: `… and ${more} more issue${more === 1 ? "" : "s"}` });
  return out;
}

/**
 * A copy of `schema` (the same zod schema: `safeParse`, JSON Schema and
 * types unchanged) whose Standard Schema `validate` reports
 * {@link boundedIssues} — for libraries that validate tool input through
 * `~standard` and put every issue into the error the model reads (TanStack
 * AI's `chat()`).
 */
export function withBoundedIssues<S extends z.ZodType>(schema: S): S {
  const standard = schema["~standard"];
  const bound = (result: Awaited<ReturnType<typeof standard.validate>>) =>
    result.issues ? { issues: boundedIssues(result.issues) } : result;
  const copy = schema.clone() as S;
  // zod supports an own `~standard` (its setter defines one); the JSON Schema methods stay the original's.
  (copy as { "~standard": unknown })["~standard"] = {
    ...standard,
    validate: (value: unknown) => {
      const result = standard.validate(value);
      return result instanceof Promise ? result.then(bound) : bound(result);
    },
  };
  return copy;
}

/**
 * `Invalid arguments for <name>: <detail>` at most {@link INVALID_ARGUMENTS_MAX_CHARS} characters (`detail` cut and
 * marked `…`): for a reason that is already text — pi's `argumentsError`, a schema library's message.
 */
export function invalidArgumentsText(name: string, detail: string): string {
  return cutWithMark(`Invalid arguments for ${name}: ${detail}`, INVALID_ARGUMENTS_MAX_CHARS);
}

/**
 * `Invalid arguments for <name>: <path>: <message>; …` (spec 03 §7.2): the
 * first {@link INVALID_ARGUMENTS_MAX_ISSUES} issues — a zod `invalid_union`
 * replaced by the issues of its closest branch, as {@link boundedIssues} does
 * (`include.1: Invalid input: expected string, received number`, not
 * `include: Invalid input`; issue 20, run 40, fixer f40tl) — then `; … and <n>
 * more issues` when there are more, the whole at most
 * {@link INVALID_ARGUMENTS_MAX_CHARS} characters — the error result the model
 * reads stays small however many issues a malformed call raises (one per
 * element of a wrong array).
 */
export function invalidArgumentsMessage(name: string, error: z.ZodError): string {
  // Every branch issue is already held by `error`: expanding them costs references, not copies of messages.
  const all = [...closestBranches(error.issues)];
  const issues = all.slice(0, INVALID_ARGUMENTS_MAX_ISSUES).map((issue) => {
    const segments = Array.isArray(issue.path) ? issue.path : [];
    const path = segments.map((key) => String(protoKeyName(key !== null && typeof key === "object" ? key.key : key))).join(".");
    const message = String(issue.message);
    // A message that already starts with its path (directory tools' inputs) is not prefixed twice.
    return path !== "" && !message.startsWith(`${path}: `) ? `${path}: ${message}` : message;
  });
  const more = all.length - issues.length;
  const tail = more > 0 ? `; … and ${more} more issue${more === 1 ? "" : "s"}` : "";
  return cutWithMark(`Invalid arguments for ${name}: ${issues.join("; ")}`, INVALID_ARGUMENTS_MAX_CHARS - tail.length) + tail;
}
