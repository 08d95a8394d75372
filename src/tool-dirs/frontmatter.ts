/**
 * Splitting a TOOL.md file into YAML front matter and a Markdown body, and
 * parsing the front matter with the `yaml` package (spec 03 §9, seed 001).
 * @module
 */
import { Composer, type Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type YAMLError, YAMLParseError } from "yaml";

/** Largest TOOL.md the loader reads, in bytes (256 KiB). A larger file is skipped. */
export const MAX_TOOL_FILE_BYTES = 256 * 1024;

/** Largest number of YAML alias expansions accepted in front matter (a bound against alias bombs). */
const MAX_ALIAS_COUNT = 100;

/** The parts of a TOOL.md file. */
export interface SplitToolFile {
  /** The YAML between the opening and closing `---` lines (without them). */
  yaml: string;
  /** Everything after the closing line, untrimmed. */
  body: string;
  /** 1-based line number in the file of the first YAML line (for error positions). */
  yamlLine: number;
}

/** A front-matter failure: `message` says what is wrong and where. */
export class FrontMatterError extends Error {
  override name = "FrontMatterError";
}

/**
 * Splits a TOOL.md text: it must open with a line `---` (after an optional
 * byte-order mark; trailing spaces allowed), and the front matter runs to the
 * next line that is `---` or `...`. CRLF line ends are accepted.
 * @throws FrontMatterError when the file does not open with `---` or the
 *   block is never closed.
 */
export function splitFrontMatter(text: string): SplitToolFile {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split("\n");
  if (lines.length === 0 || lines[0].replace(/\r$/, "").trimEnd() !== "---") {
    throw new FrontMatterError("TOOL.md must start with a line `---` that opens the YAML front matter (name, description, …)");
  }
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "").trimEnd();
    if (line === "---" || line === "...") {
      return { yaml: lines.slice(1, i).join("\n"), body: lines.slice(i + 1).join("\n"), yamlLine: 2 };
    }
  }
  throw new FrontMatterError("TOOL.md front matter is not closed: add a line `---` after the YAML");
}

/**
 * The first repeated key of any mapping in `root` (a parsed YAML node), or
 * `undefined`: keys are equal when both are scalars with the same value (as
 * `yaml`'s own `uniqueKeys: true` check, but with one `Set` per mapping, so
 * the cost is linear in the number of keys rather than quadratic).
 * Walks with an explicit stack (no recursion).
 */
function firstDuplicateKey(root: unknown): { key: unknown; offset: number } | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key)) {
          if (seen.has(key.value)) return { key: key.value, offset: key.range?.[0] ?? 0 };
          seen.add(key.value);
        } else if (key !== null && !isAlias(key)) stack.push(key);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(isPair(item) ? item.value : item);
    }
  }
  return undefined;
}

/** Thrown out of the composer by {@link composeUntilFirstError} at the first error (issue 20, run 35, fixer VT). */
class FirstYamlError {
  constructor(readonly error: YAMLError) {}
}

/**
 * Composes one YAML document as `yaml`'s `parseDocument(yaml, { uniqueKeys:
 * false, lineCounter })` does (its Parser → Composer pipeline, same options,
 * same `MULTIPLE_DOCS` error), but stops composing at the first error and
 * returns it, instead of recording every error of the document: the loader
 * reports only the first, and an unclosed quoted scalar followed by ~130,000
 * lines made `yaml` build 130,003 error objects (1.7–2.3 s of CPU for a
 * 254 KiB TOOL.md; now the lexing and parsing of the text, about what a
 * valid file of that size costs; issue 20, run 35, fixer VT).
 *
 * The stop hooks the Composer's `onError` (the callback every composition
 * error goes through; `private` in yaml's types, a plain property at run
 * time since yaml 2.0). Should a later `yaml` change that shape, the hook is
 * not installed and the whole document is composed as before (slower, same
 * result).
 * @returns `{ error }`: the first error (its `pos` are offsets in `yaml`), or
 *   `{ doc }`: the document, with no errors.
 */
function composeUntilFirstError(yaml: string, lineCounter: LineCounter): { doc: Document.Parsed; error?: undefined } | { doc?: undefined; error: YAMLError } {
  const parser = new Parser(lineCounter.addNewLine);
  const composer = new Composer({ uniqueKeys: false });
  const inner = composer as unknown as { onError?: unknown; errors?: unknown };
  const report = inner.onError;
  if (typeof report === "function" && Array.isArray(inner.errors)) {
    inner.onError = (...args: unknown[]) => {
      report(...args);
      const errors = inner.errors as YAMLError[];
      if (args[3] !== true && errors.length > 0) throw new FirstYamlError(errors[0]);
    };
  }
  let doc: Document.Parsed | undefined;
  try {
    for (const next of composer.compose(parser.parse(yaml), true, yaml.length)) {
      if (doc === undefined) doc = next;
      else if (doc.errors.length > 0) return { error: doc.errors[0] };
      else return { error: new YAMLParseError([next.range[0], next.range[1]], "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()") };
    }
  } catch (err) {
    if (err instanceof FirstYamlError) return { error: err.error };
    throw err;
  }
  // compose(tokens, true) always ends with a document (yaml's parseDocument relies on it too).
  if (doc === undefined) throw new Error("yaml composed no document");
  return doc.errors.length > 0 ? { error: doc.errors[0] } : { doc };
}

/**
 * Parses front-matter YAML (YAML 1.2 core schema, unique keys, at most
 * {@link MAX_ALIAS_COUNT} alias expansions) into a plain mapping. Duplicate
 * keys are found in one linear pass over the parsed document (`yaml`'s own
 * `uniqueKeys` check is quadratic in the number of keys of a mapping: a
 * 256 KiB file of ~33,000 keys took seconds).
 * @param firstLine the 1-based file line of the YAML's first line, so error
 *   positions name the line in TOOL.md.
 * @throws FrontMatterError on a YAML error (`… at line N of TOOL.md`, the
 *   first error of the document — composing stops there, so a broken file
 *   costs no more than a valid one of its size; a repeated key is `Map keys
 *   must be unique at line N of TOOL.md`) or when the document is not a
 *   mapping.
 */
export function parseFrontMatter(yaml: string, firstLine = 1): Record<string, unknown> {
  const lineCounter = new LineCounter();
  const { doc, error } = composeUntilFirstError(yaml, lineCounter);
  const at = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  if (error !== undefined) {
    throw new FrontMatterError(`TOOL.md front matter is not valid YAML: ${error.message} at line ${at(error.pos[0])} of TOOL.md`);
  }
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate) throw new FrontMatterError(`TOOL.md front matter is not valid YAML: Map keys must be unique at line ${at(duplicate.offset)} of TOOL.md`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    throw new FrontMatterError(`TOOL.md front matter is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Map) {
    throw new FrontMatterError("TOOL.md front matter must be a YAML mapping of fields (name: …, description: …)");
  }
  return value as Record<string, unknown>;
}
