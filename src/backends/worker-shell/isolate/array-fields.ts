/**
 * Words holding a multi-field expansion (`${a[@]…}`, `$@`, `${@…}`, `${!m[@]}`, `${!pre@}`, unquoted `${a[*]…}`/`$*`)
 * next to other text or a second expansion, expanded as bash 5.2 does (issue 20, run 39, fixer SA).
 *
 * bash expands such a word to one field per element: the text before the expansion joins the first element, the
 * text after it the last, and any operation (`%`, `#`, `/`, `^`, `,`, `:off:len`, `@Q`, defaults) applies to each
 * element. Unquoted, every element and every other unquoted expansion is then split at IFS and the fields are
 * globbed; quoted text is neither split nor globbed. just-bash 3.4.2 handled a few shapes of this by hand
 * (`x${a[@]}y`, `"x${a[@]%e}y"`) and lost the adjacent text or the element boundaries in the others
 * (`${a[@]%.c}.o` was `a b`, `"${a[@]:1}/"` one word).
 *
 * {@link expandFields} takes a word's parts and does the whole of it, using just-bash's own expander for the pieces:
 * each multi-field expansion is expanded alone as `"${…[@]…}"` (a shape just-bash gets right) for its elements,
 * every other part by just-bash's part expander. It answers null for the words it leaves to just-bash: no
 * multi-field expansion, one alone (`${a[@]}`, `"${a[@]%x}"`), an unquoted one with a default/alternative word.
 * Left as it is: with IFS empty, bash 5.2.15 joins an unquoted array pattern removal (`x${a[@]%r}y`) by a space and
 * leaks a \001 byte into it (a bash bug); here its elements stay fields, as bash does for `${@%r}`.
 *
 * scripts/gen-shell.mjs patches just-bash's word expansion (`expandWordWithGlobImpl`) to call it (namespace
 * `__arrayFields`, entries marked `// SA39`). Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The part of just-bash's interpreter context these helpers read. */
export interface Ctx {
  state: {
    env: { get(name: string): string | undefined };
    options: { noglob?: boolean };
    shoptOptions: { extglob?: boolean };
  };
  limits: { maxArrayElements: number };
}

/** A just-bash word part, as far as these helpers look into it. */
export interface Part {
  type: string;
  parameter?: string;
  operation?: { type: string; star?: boolean } | null;
  parts?: Part[];
}

/** What the word expander is given to do its work with (just-bash's own functions). */
export interface Deps<C> {
  /** Expands a word (just-bash's `expandWordWithGlob`): used for one multi-field expansion alone in double quotes. */
  alone(word: { type: "Word"; parts: Part[] }): Promise<{ values: string[] }>;
  /** Expands one part (just-bash's `expandPart`); `inDoubleQuotes` for the parts inside `"…"`. */
  expandPart(ctx: C, part: Part, inDoubleQuotes?: boolean): Promise<string>;
  /** Whether `pattern` holds an unescaped glob character (just-bash's `hasGlobPattern`). */
  hasGlob(pattern: string, extglob: boolean): boolean;
  /** Pathname expansion of `pattern`: its matches, `[pattern]` when none (or `[]` under nullglob); throws under failglob. */
  glob(ctx: C, pattern: string): Promise<string[]>;
  /** Throws just-bash's limit error when `count` fields exceed the limit. */
  tooMany(count: number): void;
}

const ARRAY_AT = /^([a-zA-Z_][a-zA-Z0-9_]*)\[([@*])\]$/;
const DEFAULTS = new Set(["DefaultValue", "AssignDefault", "UseAlternative", "ErrorIfUnset"]);
/** The part types this expander knows how to split and glob; a word with another (a brace, a process substitution) is left to just-bash. */
const KNOWN = new Set(["Literal", "Glob", "SingleQuoted", "DoubleQuoted", "Escaped", "TildeExpansion", "ParameterExpansion", "CommandSubstitution", "ArithmeticExpansion"]);

/** How `part` expands to several fields: "at" (`[@]`, `$@`, in quotes too), "star" (`[*]`, `$*`: only unquoted), or null. */
function multiKind(part: Part): "at" | "star" | null {
  if (part.type !== "ParameterExpansion") return null;
  const op = part.operation;
  if (op && (op.type === "ArrayKeys" || op.type === "VarNamePrefix")) return op.star ? "star" : "at";
  if (op && (op.type === "Length" || op.type === "Indirection" || op.type === "LengthSliceError" || op.type === "BadSubstitution")) return null;
  const p = part.parameter ?? "";
  if (p === "@") return "at";
  if (p === "*") return "star";
  const m = ARRAY_AT.exec(p);
  return m ? (m[2] === "@" ? "at" : "star") : null;
}

/** `part` with its `[*]`/`$*`/`${!x*}` written as `[@]`/`$@`/`${!x@}` (unquoted, both give one field an element). */
function asAt(part: Part): Part {
  const op = part.operation;
  if (op && (op.type === "ArrayKeys" || op.type === "VarNamePrefix")) return { ...part, operation: { ...op, star: false } };
  const p = part.parameter ?? "";
  if (p === "*") return { ...part, parameter: "@" };
  return { ...part, parameter: p.replace(/\[\*\]$/, "[@]") };
}

/** The glob pattern text of quoted `text` (its glob characters escaped, as just-bash's `escapeGlobChars`). */
function globEscape(text: string): string {
  return text.replace(/([*?[\]\\()|])/g, "\\$1");
}

type Piece = { text: string; quoted: boolean; split: boolean } | { brk: true };

/**
 * The fields of the word made of `parts`, as bash 5.2 expands a word holding a multi-field expansion; null when the
 * word is one just-bash expands itself (see the module comment). Errors: what just-bash's expanders throw (unbound
 * variable, bad substitution, failglob, the array-element limit).
 */
export async function expandFields<C extends Ctx>(ctx: C, parts: Part[], deps: Deps<C>): Promise<{ values: string[]; quoted: boolean } | null> {
  const ifs = ctx.state.env.get("IFS") ?? " \t\n";
  let multi = 0;
  let defaultsUnquoted = false;
  for (const part of parts) {
    if (!KNOWN.has(part.type)) return null;
    const kind = multiKind(part);
    if (kind) {
      multi++;
      if (part.operation && DEFAULTS.has(part.operation.type)) defaultsUnquoted = true;
    } else if (part.type === "DoubleQuoted") {
      for (const inner of part.parts ?? []) if (multiKind(inner) === "at") multi++;
    }
  }
  if (multi === 0 || defaultsUnquoted) return null;
  if (parts.length === 1 && multiKind(parts[0])) return null;
  if (parts.length === 1 && parts[0].type === "DoubleQuoted" && parts[0].parts?.length === 1) return null;

  const pieces: Piece[] = [];
  const elements = async (part: Part): Promise<string[]> => (await deps.alone({ type: "Word", parts: [{ type: "DoubleQuoted", parts: [part] }] })).values;
  const pushElements = (values: string[], quoted: boolean, split: boolean) => {
    values.forEach((text, i) => {
      if (i > 0) pieces.push({ brk: true });
      pieces.push({ text, quoted, split });
    });
  };
  for (const part of parts) {
    const kind = multiKind(part);
    if (kind) {
      pushElements(await elements(kind === "star" ? asAt(part) : part), false, true);
    } else if (part.type === "DoubleQuoted") {
      const inner = part.parts ?? [];
      if (!inner.some((p) => multiKind(p) === "at")) {
        pieces.push({ text: await deps.expandPart(ctx, part), quoted: true, split: false });
        continue;
      }
      if (inner.length === 0) pieces.push({ text: "", quoted: true, split: false });
      for (const p of inner) {
        if (multiKind(p) === "at") pushElements(await elements(p), true, false);
        else pieces.push({ text: await deps.expandPart(ctx, p, true), quoted: true, split: false });
      }
    } else if (part.type === "SingleQuoted" || part.type === "Escaped" || part.type === "TildeExpansion") {
      pieces.push({ text: await deps.expandPart(ctx, part), quoted: true, split: false });
    } else if (part.type === "Literal" || part.type === "Glob") {
      pieces.push({ text: await deps.expandPart(ctx, part), quoted: false, split: false });
    } else {
      // ParameterExpansion (one field), CommandSubstitution, ArithmeticExpansion: split and globbed when unquoted.
      pieces.push({ text: await deps.expandPart(ctx, part), quoted: false, split: true });
    }
  }

  // Word splitting (bash's rules: IFS whitespace runs delimit and are trimmed; each other IFS character delimits,
  // with the whitespace around it; a field with nothing in it, not even a quoted "", is dropped).
  const fields: { text: string; pattern: string }[] = [];
  let text = "";
  let pattern = "";
  let has = false;
  let afterWhite = false;
  const emit = () => {
    deps.tooMany(fields.length + 1);
    fields.push({ text, pattern });
    text = "";
    pattern = "";
    has = false;
  };
  for (const piece of pieces) {
    if ("brk" in piece) {
      if (has) emit();
      afterWhite = false;
      continue;
    }
    if (!piece.split || ifs === "") {
      text += piece.text;
      pattern += piece.quoted ? globEscape(piece.text) : piece.text;
      if (piece.text !== "" || piece.quoted) {
        has = true;
        afterWhite = false;
      }
      continue;
    }
    for (const c of piece.text) {
      if (!ifs.includes(c)) {
        text += c;
        pattern += c;
        has = true;
        afterWhite = false;
      } else if (c === " " || c === "\t" || c === "\n") {
        if (has) {
          emit();
          afterWhite = true;
        }
      } else if (afterWhite) {
        afterWhite = false;
      } else {
        emit();
      }
    }
  }
  if (has) emit();

  // Pathname expansion of each field whose unquoted text holds a glob character.
  const extglob = ctx.state.shoptOptions.extglob ?? false;
  const values: string[] = [];
  for (const field of fields) {
    if (!ctx.state.options.noglob && field.pattern !== globEscape(field.text) && deps.hasGlob(field.pattern, extglob)) {
      const found = await deps.glob(ctx, field.pattern);
      if (!(found.length === 1 && found[0] === field.pattern)) {
        deps.tooMany(values.length + found.length);
        values.push(...found);
        continue;
      }
    }
    values.push(field.text);
  }
  return { values, quoted: false };
}
