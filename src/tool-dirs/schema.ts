/**
 * A directory tool's inputs as a zod object (spec 03 §9 "Proposed adapter
 * mapping"), and the helpers that keep `sensitive` inputs out of anything
 * echoed or logged.
 * @module
 */
import { z } from "zod";
import type { ToolDirectory, ToolInput } from "./types.js";

/** What {@link toolInputRegistry} records about an input schema. */
export interface ToolInputMeta {
  /** The input is `sensitive`: its value must never be logged, put in spans or echoed. */
  sensitive: true;
}

/**
 * The registry that marks the zod schemas of `sensitive` inputs. It is not
 * zod's global registry, so the mark never reaches the JSON Schema the model
 * sees: `toolInputRegistry.get(schema.shape.api_token)` → `{ sensitive: true }`.
 */
export const toolInputRegistry = z.registry<ToolInputMeta>();

/** The text that stands for a sensitive value in echoes and logs. */
export const SENSITIVE_MASK = "***";

/**
 * Error messages that start with the input's name (`mode: Invalid option:
 * expected one of "a"|"b"`), so a library that drops the issue path (TanStack's
 * `chat()` does) still names the input. zod's own wording follows; it
 * describes the expected type, never the value received.
 */
function named(name: string): { error: (issue: unknown) => string } {
  return {
    error: (issue) => {
      const text = (z.config().localeError as ((i: unknown) => string | { message: string } | undefined) | undefined)?.(issue);
      return `${name}: ${typeof text === "string" ? text : text?.message ?? "Invalid input"}`;
    },
  };
}

function inputSchema(input: ToolInput): z.ZodType {
  let schema: z.ZodType;
  switch (input.type) {
    case "string":
      schema = z.string(named(input.name));
      break;
    case "number":
      schema = z.number(named(input.name));
      break;
    case "boolean":
      schema = z.boolean(named(input.name));
      break;
    case "enum":
      schema = z.enum(input.values as [string, ...string[]], named(input.name));
      break;
  }
  schema = schema.describe(input.description);
  if (input.default !== undefined) schema = (schema as z.ZodType<unknown>).default(input.default);
  else if (input.optional) schema = schema.optional();
  if (input.sensitive) toolInputRegistry.add(schema, { sensitive: true });
  return schema;
}

/**
 * The zod object for a tool's inputs (spec 03 §9): `string`, `number`,
 * `boolean` → `z.string()`, `z.number()` (finite), `z.boolean()`; `enum` →
 * `z.enum(values)`; each `.describe(description)`; an input with a
 * `default` → `.default(value)` (optional to the model, filled in on
 * parse); else `optional: true` → `.optional()`; otherwise required.
 * Unknown keys are stripped (zod's default, as for the built-in tools,
 * spec 03 §3). Each issue's message starts with the input's name
 * (`count: Invalid input: expected number, received string`) and never
 * quotes the value. The schema of a `sensitive` input is marked in
 * {@link toolInputRegistry}; {@link sensitiveInputNames} lists them.
 * Rendered to JSON Schema in input mode, defaults appear as `"default"`.
 */
export function toolInputSchema(tool: Pick<ToolDirectory, "inputs">): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, input] of Object.entries(tool.inputs)) shape[name] = inputSchema(input);
  return z.object(shape);
}

/** The names of a tool's `sensitive` inputs, in front-matter order. */
export function sensitiveInputNames(tool: Pick<ToolDirectory, "inputs">): string[] {
  return Object.values(tool.inputs)
    .filter((input) => input.sensitive)
    .map((input) => input.name);
}

/**
 * A shallow copy of `params` with every sensitive input's value (when
 * present, whatever its type) replaced by {@link SENSITIVE_MASK}: what to
 * show wherever arguments are echoed or logged. Non-object `params` come
 * back as they are.
 */
export function maskSensitiveInputs(tool: Pick<ToolDirectory, "inputs">, params: unknown): unknown {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const masked: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  for (const name of sensitiveInputNames(tool)) {
    if (Object.prototype.hasOwnProperty.call(masked, name) && masked[name] !== undefined) masked[name] = SENSITIVE_MASK;
  }
  return masked;
}
