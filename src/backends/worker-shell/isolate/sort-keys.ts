/**
 * Which ordering options a `sort -k` key uses, as GNU coreutils 9.1 decides
 * (issue 20, run 28, fixer SO).
 *
 * A key with no ordering option of its own (`-k2`, `-k1,1`) inherits all of
 * the global ones (`-b -d -f -h -M -n -r -V`); a key with any option of its
 * own (`-k2n`, `-k2r`, `-k1,1f`, `-k2b`) uses only its own and ignores every
 * global one — `sort -k2n -r` sorts the key ascending. (GNU's main():
 * `if (default_key_compare (key) && !key->reverse)` copies gkey's options.)
 * The last-resort comparison of whole lines is left to the caller: it uses
 * the global `-r` alone.
 *
 * scripts/gen-shell.mjs patches just-bash's sort comparator to call this
 * (imported as the namespace `__sortKeys`, entries marked `// SO`). Pure: it
 * is bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** A key's ordering options as just-bash's key parser sets them (only `true`, or absent). */
export interface SortKeyOrdering {
  numeric?: boolean;
  ignoreCase?: boolean;
  humanNumeric?: boolean;
  versionSort?: boolean;
  dictionaryOrder?: boolean;
  monthSort?: boolean;
  reverse?: boolean;
  /** `b`: skip blanks before the key. */
  ignoreLeading?: boolean;
  /** `g`: general numeric (issue 20, run 37, fixer SH). */
  generalNumeric?: boolean;
  /** `R`: random (refused: not implemented; fixer SH). */
  random?: boolean;
  /** `i`: ignore nonprinting characters (refused: not implemented; fixer SH). */
  ignoreNonprinting?: boolean;
}

/** sort's global options as just-bash's option loop sets them. */
export interface SortGlobalOrdering {
  numeric?: boolean;
  ignoreCase?: boolean;
  humanNumeric?: boolean;
  versionSort?: boolean;
  dictionaryOrder?: boolean;
  monthSort?: boolean;
  reverse?: boolean;
  /** `-b`. */
  ignoreLeadingBlanks?: boolean;
  /** `-g`, `--general-numeric-sort` (fixer SH). */
  generalNumeric?: boolean;
}

const SHARED = ["numeric", "ignoreCase", "humanNumeric", "versionSort", "dictionaryOrder", "monthSort", "reverse", "generalNumeric"] as const; // fixer SH: g

/**
 * `keys` with every ordering option settled (`true` or `false`): a key with
 * none of its own takes the global ones (`-b` as its `b`), a key with any
 * takes only its own.
 */
export function resolveKeys<K extends SortKeyOrdering>(keys: readonly K[], global: SortGlobalOrdering): K[] {
  return keys.map((key) => {
    const own = SHARED.some((name) => key[name] === true) || key.ignoreLeading === true || key.random === true || key.ignoreNonprinting === true; // fixer SH
    const out: K = { ...key };
    for (const name of SHARED) out[name] = own ? key[name] === true : global[name] === true;
    out.ignoreLeading = own ? key.ignoreLeading === true : global.ignoreLeadingBlanks === true;
    return out;
  });
}

// ---------------------------------------------------------------- general numeric keys (issue 20, run 37, fixer SH)

/**
 * The ordering letters written in key spec `spec` (`2,2g` → `g`, `2gr,3n` → `grn`): those after POS1 and after
 * POS2 (GNU sort applies both to the key). The spec is already checked (gnu-extra.ts sortKeyError). // fixer SH
 */
function keyLetters(spec: string): string { // fixer SH
  return spec.split(",").map((part) => part.replace(/^\d*(?:\.\d*)?/, "")).join(""); // fixer SH
} // fixer SH

/**
 * Sets on `key` (as just-bash's key parser made it from `spec`) every ordering option written after POS1 or POS2
 * (`n r f h V d M`, which that parser missed unless they ended the spec or POS2, and `g` (generalNumeric), `R`
 * (random), `i` (ignoreNonprinting), which it does not know); `b` stays as that parser set it. // fixer SH
 */
export function keyOptions<K extends SortKeyOrdering>(key: K, spec: string): K { // fixer SH
  const letters = keyLetters(spec); // fixer SH
  // just-bash's parser reads only letters that end the spec or POS2 (`2fgn` gave `n`, `2n,3` and `2d,2g` none). // fixer SH
  const names: Record<string, keyof SortKeyOrdering> = { n: "numeric", r: "reverse", f: "ignoreCase", h: "humanNumeric", V: "versionSort", d: "dictionaryOrder", M: "monthSort" }; // fixer SH
  for (const [letter, name] of Object.entries(names)) if (letters.includes(letter)) key[name] = true; // fixer SH
  if (letters.includes("g")) key.generalNumeric = true; // fixer SH
  if (letters.includes("R")) key.random = true; // fixer SH
  if (letters.includes("i")) key.ignoreNonprinting = true; // fixer SH
  return key; // fixer SH
} // fixer SH

/** A key's ordering options after inheritance, as GNU's key_to_opts names them (`b` and `r` left out, as its check clears them). */
function optionLetters(key: SortKeyOrdering): string { // fixer SH
  let out = ""; // fixer SH
  if (key.dictionaryOrder) out += "d"; // fixer SH
  if (key.ignoreCase) out += "f"; // fixer SH
  if (key.generalNumeric) out += "g"; // fixer SH
  if (key.humanNumeric) out += "h"; // fixer SH
  if (key.ignoreNonprinting) out += "i"; // fixer SH
  if (key.monthSort) out += "M"; // fixer SH
  if (key.numeric) out += "n"; // fixer SH
  if (key.random) out += "R"; // fixer SH
  if (key.versionSort) out += "V"; // fixer SH
  return out; // fixer SH
} // fixer SH

/**
 * sort's refusal (status 2) of its options, or null: a key (after it inherits the global options; the global options
 * themselves when there is no key) with more than one of `n g h M` and one of `V R d i` is GNU sort 9.1's
 * `sort: options '-gn' are incompatible` (check_ordering_compatibility); a key with `R` (random) or `i` (ignore
 * nonprinting), which this shell does not implement, is `sort: ordering option 'R' is not supported` — never a
 * key sorted as text (issue 20, run 37, fixer SH). // fixer SH
 */
export function orderingError(options: SortGlobalOrdering & { keys: readonly SortKeyOrdering[] }): { stdout: string; stderr: string; exitCode: number } | null { // fixer SH
  const keys: SortKeyOrdering[] = options.keys.length === 0 ? [{ ...options, ignoreLeading: options.ignoreLeadingBlanks }] : resolveKeys(options.keys, options); // fixer SH
  const fail = (stderr: string) => ({ stdout: "", stderr, exitCode: 2 }); // fixer SH
  for (const key of keys) { // fixer SH
    const kinds = [key.numeric, key.generalNumeric, key.humanNumeric, key.monthSort, key.versionSort || key.random || key.dictionaryOrder || key.ignoreNonprinting]; // fixer SH
    if (kinds.filter(Boolean).length > 1) return fail(`sort: options '-${optionLetters(key)}' are incompatible\n`); // fixer SH
  } // fixer SH
  for (const key of keys) { // fixer SH
    if (key.random) return fail("sort: ordering option 'R' (random sort) is not supported\n"); // fixer SH
    if (key.ignoreNonprinting) return fail("sort: ordering option 'i' (ignore nonprinting) is not supported\n"); // fixer SH
  } // fixer SH
  return null; // fixer SH
} // fixer SH

/** strtold's prefix in the C locale: blanks, a sign, then infinity, NaN, a hexadecimal or a decimal float. */ // fixer SH
const GENERAL = /^[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|(nan)(?:\([0-9A-Za-z_]*\))?|0x((?:[0-9a-f]+(?:\.[0-9a-f]*)?|\.[0-9a-f]+))(?:p([+-]?\d+))?|((?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?))/i; // fixer SH

/** A key's value to `-g`: none (no number at its start), NaN (with its sign) or a number. */ // fixer SH
type General = { kind: 0 } | { kind: 1; negative: boolean } | { kind: 2; value: number }; // fixer SH

/** The number at the start of `text` as strtold reads it (`" 1e3x"` is 1000, `"0x1p3"` 8, `"-inf"`, `"nan"`). */ // fixer SH
function general(text: string): General { // fixer SH
  const m = GENERAL.exec(text); // fixer SH
  if (m === null) return { kind: 0 }; // fixer SH
  const negative = m[1] === "-"; // fixer SH
  if (m[3] !== undefined) return { kind: 1, negative }; // fixer SH
  let value: number; // fixer SH
  if (m[2] !== undefined) value = Number.POSITIVE_INFINITY; // fixer SH
  else if (m[4] !== undefined) { // fixer SH
    const [whole = "", fraction = ""] = m[4].split("."); // fixer SH
    value = (whole === "" ? 0 : Number.parseInt(whole, 16)) + [...fraction].reduce((sum, digit, i) => sum + Number.parseInt(digit, 16) / 16 ** (i + 1), 0); // fixer SH
    if (m[5] !== undefined) value *= 2 ** Number.parseInt(m[5], 10); // fixer SH
  } else value = Number(m[6]); // fixer SH
  return { kind: 2, value: negative ? -value : value }; // fixer SH
} // fixer SH

/**
 * `sort -g` / a `g` key's comparison of keys `a` and `b`, as GNU sort 9.1's general_numcompare: each read as strtold
 * reads a number (leading blanks, sign, decimal or hexadecimal float, exponent, `inf`/`infinity`, `nan`, case
 * insensitive; the rest ignored); a key without a number first, then NaNs (`nan` before `-nan`), then numbers by
 * value (`-inf` … `inf`, -0 = 0). Equal keys return 0 (the caller's last resort decides). Values are doubles, not
 * long doubles: keys that differ only past 17 significant digits, or beyond 1.8e308, compare equal here. // fixer SH
 */
export function compareGeneral(a: string, b: string): number { // fixer SH
  const x = general(a); // fixer SH
  const y = general(b); // fixer SH
  if (x.kind !== y.kind) return x.kind < y.kind ? -1 : 1; // fixer SH
  if (x.kind === 1 && y.kind === 1) return x.negative === y.negative ? 0 : x.negative ? 1 : -1; // fixer SH
  if (x.kind === 2 && y.kind === 2) return x.value < y.value ? -1 : x.value > y.value ? 1 : 0; // fixer SH
  return 0; // fixer SH
} // fixer SH
