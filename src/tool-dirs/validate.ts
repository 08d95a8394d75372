/**
 * Validation of TOOL.md front matter (spec 03 §9, seed 001): turns a parsed
 * YAML mapping into the fields of a {@link ToolDirectory}, or a list of
 * problems, each a sentence naming the field.
 * @module
 */
import type { ToolInput, ToolInputType, ToolInputValue, ToolLanguage } from "./types.js";
import { cutWithMark } from "../util/cut.js";

/** Tool names: snake_case, starting with a letter, at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** Input names (also bash variable suffixes): letters, digits and `_`, not starting with a digit, at most 64 characters. */
export const INPUT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Environment variable names in `env`. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Most inputs one tool may declare. */
export const MAX_INPUTS = 64;
/** `env` names a tool may not declare: the shell and the runner set them (a host value would replace them). */
export const RESERVED_ENV_NAMES: ReadonlySet<string> = new Set(["PATH", "HOME", "PWD", "SHELL", "IFS", "TOOL_INPUT_FILE", "TOOL_CALL_ID"]);

/** Most `env` names one tool may declare. */
export const MAX_ENV_NAMES = 64;
/** Most values of one enum input. */
export const MAX_ENUM_VALUES = 256;
/** Most problems reported for one TOOL.md (the rest are summarised). */
const MAX_PROBLEMS = 5;

/** Every language, in documentation order. */
export const TOOL_LANGUAGES: readonly ToolLanguage[] = ["typescript", "javascript", "bash", "python"];
/** Every input type. */
export const TOOL_INPUT_TYPES: readonly ToolInputType[] = ["string", "number", "boolean", "enum"];

/** The front-matter fields of a tool after validation. */
export interface ValidFrontMatter {
  name: string;
  label: string;
  summary: string;
  version: number;
  language: ToolLanguage;
  inputs: Record<string, ToolInput>;
  mutating: boolean;
  env: string[];
}

/** A value in a message: JSON, cut to 40 characters. */
export function show(value: unknown): string {
  let text: string;
  try {
    // Non-finite numbers (YAML .nan, .inf) have no JSON form: name them as they are.
    text =
      value === undefined
        ? "undefined"
        : typeof value === "number" && !Number.isFinite(value)
          ? String(value)
          : value instanceof Uint8Array
            ? `binary data (${value.byteLength} bytes)`
            : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return cutWithMark(text, 40);
}

const has = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** The front-matter `name` when it is a string (for skip reports), else `undefined`. */
export function frontMatterName(data: Record<string, unknown>): string | undefined {
  return has(data, "name") && typeof data.name === "string" ? data.name : undefined;
}

/**
 * Reads `version` as sync and the loader do: absent or `null` → `0`; a
 * non-negative safe integer → itself; anything else → an error message.
 */
export function readVersion(data: Record<string, unknown>): number | string {
  const version = has(data, "version") ? data.version : undefined;
  if (version === undefined || version === null) return 0;
  if (typeof version === "number" && Number.isSafeInteger(version) && version >= 0) return version;
  return `version must be a non-negative integer; got ${show(version)}`;
}

/** The enum values of `values`: a comma-separated string or a YAML list. */
function readEnumValues(raw: unknown, where: string, problems: string[]): string[] | undefined {
  let items: unknown[];
  if (typeof raw === "string") items = raw.split(",");
  else if (Array.isArray(raw)) items = raw;
  else {
    problems.push(`${where}.values must list the allowed values, comma-separated ("a,b") or as a YAML list; got ${show(raw)}`);
    return undefined;
  }
  if (items.length > MAX_ENUM_VALUES) {
    // before the loop: a long list is refused without looking at its items
    problems.push(`${where}.values has ${items.length} values; at most ${MAX_ENUM_VALUES} are allowed`);
    return undefined;
  }
  const values: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") {
      problems.push(`${where}.values must hold strings; got ${show(item)}`);
      return undefined;
    }
    const value = String(item).trim();
    if (value === "") {
      problems.push(`${where}.values has an empty value; write them as "a,b,c"`);
      return undefined;
    }
    if (seen.has(value)) {
      problems.push(`${where}.values lists ${show(value)} twice`);
      return undefined;
    }
    seen.add(value);
    values.push(value);
  }
  if (values.length === 0) {
    problems.push(`${where}.values must name at least one value`);
    return undefined;
  }
  return values;
}

function readBoolean(spec: Record<string, unknown>, key: string, where: string, problems: string[]): boolean {
  if (!has(spec, key) || spec[key] === undefined || spec[key] === null) return false;
  if (typeof spec[key] === "boolean") return spec[key] as boolean;
  problems.push(`${where}.${key} must be true or false; got ${show(spec[key])}`);
  return false;
}

function readInput(name: string, spec: unknown, problems: string[]): ToolInput | undefined {
  const where = `inputs.${name}`;
  if (name === "__proto__") {
    problems.push(`input name "__proto__" is reserved (it names an object's prototype in JavaScript); choose another name`);
    return undefined;
  }
  if (!INPUT_NAME_PATTERN.test(name)) {
    problems.push(`input name ${show(name)} must be letters, digits and _ (not starting with a digit), at most 64 characters`);
    return undefined;
  }
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
    problems.push(`${where} must be a mapping with type and description; got ${show(spec)}`);
    return undefined;
  }
  const fields = spec as Record<string, unknown>;
  const before = problems.length;
  const type = has(fields, "type") ? fields.type : undefined;
  if (type === undefined || type === null) problems.push(`${where}.type is required (string, number, boolean or enum)`);
  else if (typeof type !== "string" || !(TOOL_INPUT_TYPES as readonly string[]).includes(type)) {
    problems.push(`${where}.type must be string, number, boolean or enum; got ${show(type)}`);
  }
  const description = has(fields, "description") ? fields.description : undefined;
  if (typeof description !== "string" || description.trim() === "") {
    problems.push(`${where}.description is required: say what the input is for`);
  }
  const optional = readBoolean(fields, "optional", where, problems);
  const sensitive = readBoolean(fields, "sensitive", where, problems);
  let values: string[] | undefined;
  if (type === "enum") {
    if (!has(fields, "values") || fields.values === undefined || fields.values === null) {
      problems.push(`${where}.values is required for an enum input (comma-separated, e.g. "a,b")`);
    } else values = readEnumValues(fields.values, where, problems);
  } else if (has(fields, "values") && fields.values !== undefined && fields.values !== null && typeof type === "string") {
    problems.push(`${where}.values is only for enum inputs; this one is ${show(type)}`);
  }
  let defaultValue: ToolInputValue | undefined;
  const hasDefault = has(fields, "default");
  if (hasDefault && sensitive && problems.length === before) {
    problems.push(`${where}.default is not allowed on a sensitive input (the schema shows defaults to the model); let the tool read the secret from its env`);
  } else if (hasDefault && problems.length === before) {
    const raw = fields.default;
    if (type === "enum") {
      const text = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? String(raw) : undefined;
      if (values && text !== undefined && values.includes(text)) defaultValue = text;
      else problems.push(`${where}.default must be one of ${values?.map((v) => show(v)).join(", ")}; got ${show(raw)}`);
    } else if (type === "number") {
      if (typeof raw === "number" && Number.isFinite(raw)) defaultValue = raw;
      else problems.push(`${where}.default must be a number; got ${show(raw)}`);
    } else if (typeof raw === type) defaultValue = raw as ToolInputValue;
    else problems.push(`${where}.default must be a ${type as string}; got ${show(raw)}`);
  }
  if (problems.length > before) return undefined;
  const input: ToolInput = { name, type: type as ToolInputType, description: (description as string).trim(), optional, sensitive };
  if (values) input.values = values;
  if (defaultValue !== undefined) input.default = defaultValue;
  return input;
}

/**
 * Validates parsed front matter. Unknown fields (at the top and in inputs)
 * are ignored, so other tools' metadata can live alongside.
 * @returns the fields, or the problems (at most five, then "and N more").
 */
export function validateFrontMatter(data: Record<string, unknown>): ValidFrontMatter | { problems: string[] } {
  const problems: string[] = [];
  const get = (key: string): unknown => (has(data, key) ? data[key] : undefined);

  const name = get("name");
  if (name === undefined || name === null) problems.push("name is required (a snake_case call id such as web_fetch)");
  else if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    problems.push(`name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got ${show(name)}`);
  }

  const label = get("label");
  if (label !== undefined && label !== null && (typeof label !== "string" || label.trim() === "")) {
    problems.push(`label must be a non-empty string; got ${show(label)}`);
  }

  const description = get("description");
  if (description === undefined || description === null) {
    problems.push("description is required: say what the tool does and when to use it");
  } else if (typeof description !== "string" || description.trim() === "") {
    problems.push(`description must be a non-empty string; got ${show(description)}`);
  }

  const version = readVersion(data);
  if (typeof version === "string") problems.push(version);

  const language = get("language") ?? "typescript";
  if (typeof language !== "string" || !(TOOL_LANGUAGES as readonly string[]).includes(language)) {
    problems.push(`language must be typescript, javascript, bash or python; got ${show(language)}`);
  }

  const readonly = get("readonly");
  if (readonly !== undefined && readonly !== null && typeof readonly !== "boolean") {
    problems.push(`readonly must be true or false; got ${show(readonly)}`);
  }

  let env: string[] = [];
  const rawEnv = get("env");
  if (rawEnv !== undefined && rawEnv !== null) {
    const items = typeof rawEnv === "string" ? rawEnv.split(",").map((s) => s.trim()) : rawEnv;
    if (!Array.isArray(items)) problems.push(`env must be a list of environment variable names; got ${show(rawEnv)}`);
    else if (items.length > MAX_ENV_NAMES) problems.push(`env has ${items.length} names; at most ${MAX_ENV_NAMES} are allowed`);
    else {
      const bad = items.find((item) => typeof item !== "string" || !ENV_NAME_PATTERN.test(item));
      const reserved = bad === undefined ? (items as string[]).find((item) => RESERVED_ENV_NAMES.has(item) || /^INPUT_/.test(item)) : undefined;
      if (bad !== undefined) problems.push(`env names must be letters, digits and _ (not starting with a digit); got ${show(bad)}`);
      else if (reserved !== undefined) {
        problems.push(`env cannot list ${reserved}: the runner sets it (PATH, HOME, PWD, SHELL, IFS, TOOL_INPUT_FILE, TOOL_CALL_ID and INPUT_<NAME> are reserved); pass the value under another name`);
      } else env = [...new Set(items as string[])];
    }
  }

  const inputs: Record<string, ToolInput> = {};
  const rawInputs = get("inputs");
  if (rawInputs !== undefined && rawInputs !== null) {
    if (typeof rawInputs !== "object" || Array.isArray(rawInputs)) {
      problems.push(`inputs must be a mapping from input name to {type, description, …}; got ${show(rawInputs)}`);
    } else {
      const entries = Object.entries(rawInputs as Record<string, unknown>);
      if (entries.length > MAX_INPUTS) problems.push(`inputs has ${entries.length} entries; at most ${MAX_INPUTS} are allowed`);
      else {
        // bash and python tools get each input as INPUT_<NAME upper-cased>: two names that differ only in case would share one variable
        const variables = language === "bash" || language === "python" ? new Map<string, string>() : undefined;
        for (const [key, spec] of entries) {
          const input = readInput(key, spec, problems);
          if (input) inputs[key] = input;
          if (variables && INPUT_NAME_PATTERN.test(key)) {
            const variable = `INPUT_${key.toUpperCase()}`;
            const other = variables.get(variable);
            if (other !== undefined) {
              problems.push(`inputs ${show(other)} and ${show(key)} both become the variable ${variable} of a ${language as string} tool; rename one (input names must differ in more than letter case)`);
            } else variables.set(variable, key);
          }
        }
      }
    }
  }

  if (problems.length > 0) {
    return {
      problems:
        problems.length > MAX_PROBLEMS
          ? [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more`]
          : problems,
    };
  }
  return {
    name: name as string,
    label: typeof label === "string" ? label.trim() : (name as string),
    summary: (description as string).trim(),
    version: version as number,
    language: language as ToolLanguage,
    inputs,
    mutating: readonly !== true,
    env,
  };
}
