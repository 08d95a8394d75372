/**
 * Splitting a TOOL.md file into YAML front matter and a Markdown body, and
 * parsing the front matter with the `yaml` package (spec 03 §9, seed 001).
 * @module
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";

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

/**
 * Parses front-matter YAML (YAML 1.2 core schema, unique keys, at most
 * {@link MAX_ALIAS_COUNT} alias expansions) into a plain mapping. Duplicate
 * keys are found in one linear pass over the parsed document (`yaml`'s own
 * `uniqueKeys` check is quadratic in the number of keys of a mapping: a
 * 256 KiB file of ~33,000 keys took seconds).
 * @param firstLine the 1-based file line of the YAML's first line, so error
 *   positions name the line in TOOL.md.
 * @throws FrontMatterError on a YAML error (`… at line N of TOOL.md`; a
 *   repeated key is `Map keys must be unique at line N of TOOL.md`) or
 *   when the document is not a mapping.
 */
export function parseFrontMatter(yaml: string, firstLine = 1): Record<string, unknown> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { prettyErrors: false, uniqueKeys: false, lineCounter });
  const at = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
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
