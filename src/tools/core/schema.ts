/**
 * Schema helpers shared by the adapters (spec 03 §3, §7.2): JSON Schema
 * draft-07 from a zod schema, pi's null dropping, and readable validation
 * messages.
 *
 * @module
 */
import { z } from "zod";

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

/** `Invalid arguments for <name>: <path>: <message>; …` (spec 03 §7.2). */
export function invalidArgumentsMessage(name: string, error: z.ZodError): string {
  const issues = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    // A message that already starts with its path (directory tools' inputs) is not prefixed twice.
    return path !== "" && !issue.message.startsWith(`${path}: `) ? `${path}: ${issue.message}` : issue.message;
  });
  return `Invalid arguments for ${name}: ${issues.join("; ")}`;
}
