/**
 * `"__proto__"` keys through zod: a zod record (and object) deliberately
 * leaves an own `"__proto__"` key out of what it parses — its output is built
 * by assignment, where that key would set the copy's prototype — so a value
 * the model sent under that key (exec's `env` and `input`, any depth) would
 * vanish without an error. The runtime keeps such a key as an ordinary one.
 *
 * The exec schema therefore renames the key before zod sees it
 * ({@link escapeProtoKeys}: `__proto__` → `__proto__\0`, and a key that
 * already looks like an escaped one gains one more `\0`, so the mapping is
 * one to one), zod checks its value like any other, and the parsed copy gets
 * its real name back ({@link unescapeProtoKeys}, an own data property made
 * with `defineProperty`, in the same place among the keys). Issue paths name
 * the key as sent ({@link protoKeyName}).
 *
 * @module
 */

/** A key that {@link escapeProtoKeys} renames: `__proto__` followed by zero or more NUL characters. */
const RENAMED = /^__proto__\0*$/;
/** A renamed key: `__proto__` followed by one or more NUL characters. */
const ESCAPED = /^__proto__\0+$/;

/** A plain object (prototype `Object.prototype` or `null`), as zod's records take: only these are copied. */
function isPlain(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function define(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `value` with every own enumerable `__proto__` key of its plain objects
 * renamed (see the module), at every depth when `deep` (arrays walked too),
 * else on `value` itself only. Objects without such a key anywhere below
 * them are returned as they are (no copy); a copied object keeps its other
 * own enumerable keys (symbols included) in order. Call it only on a value
 * whose depth is bounded (exec's `input` is checked first): it recurses.
 */
export function escapeProtoKeys(value: unknown, deep: boolean): unknown {
  if (Array.isArray(value)) {
    if (!deep) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const escaped = escapeProtoKeys(item, true);
      if (escaped !== item) (out ??= value.slice())[i] = escaped;
    }
    return out ?? value;
  }
  if (!isPlain(value)) return value;
  const keys = Reflect.ownKeys(value).filter((key) => Object.prototype.propertyIsEnumerable.call(value, key));
  const values = keys.map((key) => (deep ? escapeProtoKeys(value[key], true) : value[key]));
  if (!keys.some((key, i) => (typeof key === "string" && RENAMED.test(key)) || values[i] !== value[key])) return value;
  const out: Record<PropertyKey, unknown> = {};
  keys.forEach((key, i) => define(out, typeof key === "string" && RENAMED.test(key) ? `${key}\0` : key, values[i]));
  return out;
}

/**
 * The inverse of {@link escapeProtoKeys} on a parsed copy: every escaped key
 * loses one `\0` (`__proto__\0` is `__proto__` again, an own property), at
 * every depth, keys in their order. Objects without an escaped key below
 * them are returned as they are.
 */
export function unescapeProtoKeys<T>(value: T): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const plain = unescapeProtoKeys(item);
      if (plain !== item) (out ??= value.slice())[i] = plain;
    }
    return (out ?? value) as T;
  }
  if (typeof value !== "object" || value === null) return value;
  const source = value as Record<PropertyKey, unknown>;
  const keys = Reflect.ownKeys(source).filter((key) => Object.prototype.propertyIsEnumerable.call(source, key));
  const values = keys.map((key) => unescapeProtoKeys(source[key]));
  if (!keys.some((key, i) => (typeof key === "string" && ESCAPED.test(key)) || values[i] !== source[key])) return value;
  const out: Record<PropertyKey, unknown> = {};
  keys.forEach((key, i) => define(out, typeof key === "string" && ESCAPED.test(key) ? key.slice(0, -1) : key, values[i]));
  return out as T;
}

/** A key of an issue path as the caller sent it: an escaped `__proto__` key loses its added `\0`; others unchanged. */
export function protoKeyName<K>(key: K): K {
  return (typeof key === "string" && ESCAPED.test(key) ? key.slice(0, -1) : key) as K;
}
