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
}

const SHARED = ["numeric", "ignoreCase", "humanNumeric", "versionSort", "dictionaryOrder", "monthSort", "reverse"] as const;

/**
 * `keys` with every ordering option settled (`true` or `false`): a key with
 * none of its own takes the global ones (`-b` as its `b`), a key with any
 * takes only its own.
 */
export function resolveKeys<K extends SortKeyOrdering>(keys: readonly K[], global: SortGlobalOrdering): K[] {
  return keys.map((key) => {
    const own = SHARED.some((name) => key[name] === true) || key.ignoreLeading === true;
    const out: K = { ...key };
    for (const name of SHARED) out[name] = own ? key[name] === true : global[name] === true;
    out.ignoreLeading = own ? key.ignoreLeading === true : global.ignoreLeadingBlanks === true;
    return out;
  });
}
