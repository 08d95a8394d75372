/**
 * Objects of forwarding functions, built from a list of method names.
 *
 * @module
 */

/**
 * An object typed as `T` with one function per name in `names`; each call
 * `object[name](...args)` returns `forward(name, args)`. The properties are
 * own, enumerable and writable, like an object literal's. The caller's list
 * must cover every method of `T`: the forwarders are not checked against it.
 */
export function forwarders<T extends object>(names: readonly (keyof T & string)[], forward: (name: keyof T & string, args: unknown[]) => unknown): T {
  const out = {} as T;
  for (const name of names) {
    Object.defineProperty(out, name, { value: (...args: unknown[]) => forward(name, args), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
