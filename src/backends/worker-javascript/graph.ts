/**
 * The module graph of one run (spec 02 §3.3): parses the entry and every
 * Workspace module it imports with acorn, resolves and confines each
 * specifier, and rewrites it to the internal module name the Dynamic Worker
 * loads. Unknown imports fail here, before any Worker is created.
 *
 * @module
 */
import { parse, type Node as AcornNode } from "acorn";
import type { WorkspaceFilesystem } from "../../fs/types.js";
import type { StoreVersion } from "../../storage/store-version.js";
import { dirname, normalizePath } from "../../util/path.js";
import { CAPABILITIES_MODULE, ENTRY_FILE, FS_MODULE, FS_PROMISES_MODULE, INTERNAL_DIR, TIMERS_MODULE, hostModuleName, libModuleName } from "./isolate.js";
import { RESERVED_NAMES, nodeCompat } from "./options.js";
import { ConfinedResolver, pathError } from "./paths.js";
import { isTypeScriptPath, stripBudget, stripTypes, typeScriptTwin } from "./typescript.js";
import { MAX_QUOTED_CHARS, pathCut, quoteCut } from "../../util/cut.js";

/** Node built-ins importable with `nodejs_compat` (bare or `node:` form). */
export const NODE_BUILTINS = [
  "path",
  "path/posix",
  "url",
  "util",
  "util/types",
  "events",
  "buffer",
  "assert",
  "assert/strict",
  "string_decoder",
  "querystring",
  "stream",
  "stream/promises",
  "stream/web",
  "crypto",
  "zlib",
  "timers",
  "timers/promises",
  "async_hooks",
  "diagnostics_channel",
] as const;
const BUILTINS = new Set<string>(NODE_BUILTINS);

/** Graph limits (spec 02 §3.3). */
export const MAX_GRAPH_MODULES = 128;
export const MAX_GRAPH_DEPTH = 32;

/**
 * Storage lookups (`lstat`/`stat` calls: each path component a resolution
 * checks for links, each existence check of a module or its TypeScript twin)
 * one module graph may take to build: 16,384 (about 0.4 s of the object's
 * time). Building runs before the run exists, so `timeoutMs` does not cover
 * it; past this budget `exec` fails `E2BIG` (`building the module graph takes
 * more than 16384 storage lookups …`). Each distinct import path is resolved
 * once per build however often and however spelled (`./d/x.js`, `./d/./x.js`)
 * it is imported; 128 modules a few dozen directories deep stay far below.
 */
export const MAX_GRAPH_LOOKUPS = 16_384;

/**
 * How much imports rewritten to Workspace paths may grow a run's module
 * graph: its modules, rewritten, hold at most 2 × `maxSourceBytes`
 * characters (2 MiB by default). A short specifier repeated in a module with
 * a long path (`import "./x.js"` under a 100,000-character directory name)
 * would otherwise build gigabytes of source; past it `exec` fails `E2BIG`
 * (`the module graph with its imports rewritten … exceeds …`).
 */
export const GRAPH_REWRITE_FACTOR = 2;

/** What the graph builder needs to know about the backend. */
export interface GraphContext {
  fs: WorkspaceFilesystem;
  root: string;
  backendType: string;
  flags: readonly string[];
  maxSourceBytes: number;
  /** Configured string modules by name. */
  libraries: ReadonlySet<string>;
  /** Configured host modules → exported names on this connection (empty: exports nothing). */
  hostModules: ReadonlyMap<string, readonly string[]>;
  /**
   * The store's change stamp, if known: lets one build's resolver skip
   * directories it already found not to be links while nothing was written
   * (paths.ts `ConfinedResolver`). Without it every component is checked.
   */
  version?: StoreVersion;
}

/** A built graph: module sources keyed by internal name. */
export interface ModuleGraph {
  entry: string;
  modules: Map<string, string>;
  /** Internal name → the specifier or path the code used (for error messages). */
  names: Map<string, string>;
  sourceBytes: number;
}

interface Specifier {
  start: number;
  end: number;
  value: string;
  /**
   * Import attributes written with it (`with { type: "json" }`, `import(p, { with: … })`): where they end (the
   * span `start`..`with.end` is rewritten, as the Worker Loader takes no attributes) and the `type` asked for
   * (`undefined` when none, or when a dynamic import's options are not literal).
   */
  with?: { end: number; type: string | undefined };
  /** A dynamic `import(…)`: the span of the whole expression (run 36, fixer DI: rewritten to check the module first). */
  dynamic?: { start: number; end: number };
}

const encoder = new TextEncoder();

function syntaxError(err: unknown, where: string | undefined): Error {
  const message = err instanceof Error ? err.message : String(err);
  const e = new SyntaxError(where ? `${where}: ${message}` : message);
  return e;
}

/**
 * Refuses, as Node's ESM loader, a `.json` module imported without `with { type: "json" }`
 * (`ERR_IMPORT_ATTRIBUTE_MISSING`), another module imported with it (`ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE`), and
 * a `type` other than `"json"` (`ERR_IMPORT_ATTRIBUTE_UNSUPPORTED`); a dynamic import's options must be literal.
 */
function checkImportType(spec: Specifier, target: string): void {
  const type = spec.with?.type;
  const fail = (code: string, message: string) => Object.assign(new TypeError(message), { code, path: target });
  if (type !== undefined && type !== "json") {
    throw fail("ERR_IMPORT_ATTRIBUTE_UNSUPPORTED", `Import attribute "type" with value ${specCut(type)} is not supported (importing ${specCut(spec.value)})`);
  }
  if (target.endsWith(".json") && type !== "json") {
    throw fail("ERR_IMPORT_ATTRIBUTE_MISSING", `Module ${specCut(pathCut(target))} needs an import attribute of "type: json" (import ${specCut(spec.value)} with { type: "json" })`);
  }
  if (!target.endsWith(".json") && type === "json") {
    throw fail("ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE", `Module ${specCut(pathCut(target))} is not of type "json"`);
  }
}

/**
 * A `.json` file as the module Node makes of it (`import data from "./x.json" with { type: "json" }`): its value
 * as the default export, a leading byte order mark dropped.
 * @throws SyntaxError `<path>: <JSON.parse's message>` for text that is not JSON, as Node's.
 */
function jsonModule(text: string, path: string): string {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    JSON.parse(json);
  } catch (err) {
    throw syntaxError(err, pathCut(path));
  }
  return `export default JSON.parse(${JSON.stringify(json)});\n`;
}

/**
 * An import specifier (or a configured module's name) for a refusal: `"spec"` as written when at most 64
 * characters, else {@link quoteCut} (`"kkk…" (300000 characters)`).
 */
function specCut(spec: string): string {
  return spec.length <= MAX_QUOTED_CHARS ? `"${spec}"` : quoteCut(spec);
}

/** Most export names the no-default refusal lists (`It exports \`a\`, \`b\`, … and <n> more, but no default.`). */
const MAX_LISTED_EXPORTS = 16;

/** An export name for a refusal: `` `name` `` when at most 64 characters, else {@link quoteCut}. */
function exportCut(name: string): string {
  return name.length <= MAX_QUOTED_CHARS ? `\`${name}\`` : quoteCut(name);
}

/**
 * `err` (a path refusal met while resolving import `spec`) with `spec` and the path it names cut as refusals
 * quote what the caller gave ({@link pathCut}); `err.path` keeps the whole path.
 */
function cutRefusal(err: unknown, spec: string): unknown {
  if (!(err instanceof Error)) return err;
  const named = (err as { path?: unknown }).path;
  let message = err.message;
  for (const long of [spec, typeof named === "string" ? named : ""]) {
    if (long.length > MAX_QUOTED_CHARS) message = message.split(long).join(pathCut(long));
  }
  err.message = message;
  return err;
}

/** Walks every node of an acorn AST. */
function walk(node: unknown, visit: (node: AcornNode & Record<string, unknown>) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  const n = node as AcornNode & Record<string, unknown>;
  if (typeof n.type !== "string") return;
  visit(n);
  for (const key of Object.keys(n)) {
    if (key === "type" || key === "start" || key === "end" || key === "loc" || key === "range") continue;
    const child = n[key];
    if (child && typeof child === "object") walk(child, visit);
  }
}

/** Parses a module and lists its import specifiers (static, re-exports, literal dynamic). */
export function scanModule(
  source: string,
  where: string | undefined,
  allowComputedDynamic: boolean,
): { specifiers: Specifier[]; hasDefault: boolean; named: string[] } {
  let program: AcornNode & { body: (AcornNode & Record<string, any>)[] };
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "module" }) as never;
  } catch (err) {
    throw syntaxError(err, where);
  }
  const specifiers: Specifier[] = [];
  let hasDefault = false;
  const named: string[] = [];
  const typeOf = (attributes: Record<string, any>[]) => {
    const type = attributes.find((a) => (a.key.type === "Identifier" ? a.key.name : a.key.value) === "type");
    return type && typeof type.value.value === "string" ? (type.value.value as string) : undefined;
  };
  /** A static import's attributes: they run from its source to the statement's end (less a `;`). */
  const staticWith = (stmt: Record<string, any>): Specifier["with"] => {
    if (!Array.isArray(stmt.attributes) || !/^\s*(with|assert)\b/.test(source.slice(stmt.source.end, stmt.end))) return undefined;
    return { end: stmt.end - (source[stmt.end - 1] === ";" ? 1 : 0), type: typeOf(stmt.attributes) };
  };
  const literal = (node: Record<string, any>, attrs?: Specifier["with"]) => {
    if (node && node.type === "Literal" && typeof node.value === "string") {
      specifiers.push({ start: node.start, end: node.end, value: node.value, ...(attrs ? { with: attrs } : {}) });
      return true;
    }
    return false;
  };
  for (const stmt of program.body) {
    if (stmt.type === "ImportDeclaration" || stmt.type === "ExportAllDeclaration") literal(stmt.source, staticWith(stmt));
    else if (stmt.type === "ExportNamedDeclaration") {
      if (stmt.source) literal(stmt.source, staticWith(stmt));
      for (const spec of stmt.specifiers ?? []) {
        const name = spec.exported.type === "Identifier" ? spec.exported.name : spec.exported.value;
        if (name === "default") hasDefault = true;
        else named.push(name);
      }
      const decl = stmt.declaration;
      if (decl?.id?.name) named.push(decl.id.name);
      for (const d of decl?.declarations ?? []) if (d.id?.type === "Identifier") named.push(d.id.name);
    } else if (stmt.type === "ExportDefaultDeclaration") hasDefault = true;
  }
  walk(program, (node) => {
    if (node.type !== "ImportExpression") return;
    const src = node.source as Record<string, any>;
    const options = node.options as Record<string, any> | null | undefined;
    let attrs: Specifier["with"];
    if (options) {
      const w = options.type === "ObjectExpression" ? options.properties.find((p: any) => p.type === "Property" && !p.computed && (p.key.name ?? p.key.value) === "with") : undefined;
      const list = w?.value.type === "ObjectExpression" ? w.value.properties.filter((p: any) => p.type === "Property" && !p.computed && p.value.type === "Literal") : [];
      attrs = { end: options.end, type: typeOf(list) };
    }
    const dynamic = { start: node.start, end: node.end };
    if (literal(src, attrs)) {
      specifiers[specifiers.length - 1]!.dynamic = dynamic;
      return;
    }
    if (src?.type === "TemplateLiteral" && src.expressions.length === 0) {
      specifiers.push({ start: src.start, end: src.end, value: src.quasis[0].value.cooked, dynamic });
      return;
    }
    if (!allowComputedDynamic) {
      throw pathError("EINVAL", `${where ? `${where}: ` : ""}dynamic imports must use a string literal, e.g. import("./data.js")`);
    }
  });
  return { specifiers, hasDefault, named };
}

function rewrite(source: string, replacements: { start: number; end: number; text: string }[]): string {
  let out = "";
  let at = 0;
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    out += source.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + source.slice(at);
}

function notConfigured(spec: string, type: string): Error {
  if (spec.startsWith("ws:")) {
    return pathError("ENOENT", `Module ${specCut(spec)} is not configured for the ${type} backend. Add it to the backend's modules option.`);
  }
  return pathError("ENOENT", `Module ${specCut(spec)} is not configured for the ${type} backend. Import Workspace files with ./, ../ or / paths, node:fs, or a configured module.`);
}

/** Resolves a non-path specifier (shared by caller code and configured modules); undefined for paths. */
function resolveBare(spec: string, ctx: GraphContext): string | undefined {
  if (spec === "node:fs" || spec === "fs") return "/" + FS_MODULE;
  if (spec === "node:fs/promises" || spec === "fs/promises") return "/" + FS_PROMISES_MODULE;
  if (spec.startsWith("ws:")) {
    const exportsOf = ctx.hostModules.get(spec);
    if (!exportsOf) throw notConfigured(spec, ctx.backendType);
    if (exportsOf.length === 0) throw pathError("ENOENT", `Module ${specCut(spec)} exports nothing on this backend.`);
    return "/" + hostModuleName(spec);
  }
  if (ctx.libraries.has(spec)) return "/" + libModuleName(spec);
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
  // `node:timers` goes through a shim that guards its callbacks (issue 20, run 39, fixer JD).
  if (bare === "timers" && nodeCompat(ctx.flags)) return "/" + TIMERS_MODULE;
  if (BUILTINS.has(bare) && nodeCompat(ctx.flags)) return `node:${bare}`;
  return undefined;
}

/**
 * A key for import `spec` in a module whose directory is `depth` components
 * deep, costing the length of `spec` (not of the directory's path): equal
 * keys resolve to the same path from that module.
 */
function specKey(spec: string, depth: number): string {
  const out: string[] = [];
  let ups = 0;
  for (const s of spec.split("/")) {
    if (s === "" || s === ".") continue;
    if (s !== "..") out.push(s);
    else if (out.length > 0) out.pop();
    else ups++;
  }
  return spec.startsWith("/") || ups >= depth ? "/" + out.join("/") : `${ups}/${out.join("/")}`;
}

/**
 * Whether `path` exists (any kind); errors other than ENOENT/ENOTDIR count as existing, so the read reports them —
 * but `E2BIG` (the build's lookup budget spent) is thrown.
 */
async function exists(fs: Pick<WorkspaceFilesystem, "stat">, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "E2BIG") throw err;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

function checkReserved(path: string, spec: string): void {
  for (const seg of path.split("/")) {
    if (RESERVED_NAMES.has(seg) || seg.startsWith("ws:")) {
      throw pathError("EACCES", `Cannot import ${specCut(spec)}: ${pathCut(path)} is reserved for Workspace internals.`, path);
    }
  }
}

/**
 * Builds the graph of a run: the entry at `<cwd>/__workspace_entry__.js`
 * and every Workspace module reachable from it.
 *
 * A literal dynamic `import()` of a module the entry does not import
 * statically is rewritten to check first that the modules it loads for the
 * first time still hold the text read here (their SHA-256, kept in the added
 * module {@link FRESH_MODULE}): the Worker Loader takes every module when the
 * run starts, so one written during the run would otherwise load as it was;
 * it rejects `ERR_MODULE_CHANGED` instead (issue 20, run 36, fixer DI).
 *
 * @throws SyntaxError (acorn's message, e.g. `Unexpected token (1:7)`),
 *   missing default export, unknown or reserved imports, confinement errors,
 *   and limit breaches (among them SyntaxError `too costly to strip types
 *   from …` past the run's one TypeScript stripping budget, typescript.ts
 *   `STRIP_BACKTRACK_FACTOR`), `E2BIG` past {@link MAX_GRAPH_LOOKUPS}
 *   storage lookups — all before any Worker exists.
 */
export async function buildGraph(source: string, cwd: string, ctx: GraphContext): Promise<ModuleGraph> {
  const entryPath = `${cwd === "/" ? "" : cwd}/${ENTRY_FILE}`;
  const entry = entryPath.slice(1);
  const modules = new Map<string, string>();
  const names = new Map<string, string>();
  let sourceBytes = 0;
  const addSource = (text: string) => {
    sourceBytes += encoder.encode(text).byteLength;
    if (sourceBytes > ctx.maxSourceBytes) {
      throw pathError("E2BIG", `module source exceeds maxSourceBytes (${ctx.maxSourceBytes} bytes) for one run`);
    }
  };
  addSource(source);
  // One type-stripping budget for the whole graph (typescript.ts STRIP_BACKTRACK_FACTOR), not one per module.
  const strip = stripBudget();
  const queue: { path: string; source: string; depth: number; where: string | undefined }[] = [
    { path: entryPath, source, depth: 0, where: undefined },
  ];
  const seen = new Set<string>([entryPath]);
  // One resolver for the build, its lookups counted against MAX_GRAPH_LOOKUPS; each import path resolved once.
  let lookups = 0;
  const spend = (path: string) => {
    if (++lookups > MAX_GRAPH_LOOKUPS) {
      throw pathError(
        "E2BIG",
        `building the module graph takes more than ${MAX_GRAPH_LOOKUPS} storage lookups (MAX_GRAPH_LOOKUPS: path components checked for links, modules looked for); import fewer modules, from shallower directories`,
        path,
      );
    }
  };
  const fs = {
    lstat: (path: string) => (spend(path), ctx.fs.lstat(path)),
    stat: (path: string) => (spend(path), ctx.fs.stat(path)),
  };
  const resolver = new ConfinedResolver(fs, ctx.root, ctx.version);
  /** Normalised import path → the module it resolved to (itself or its TypeScript twin). */
  const resolved = new Map<string, string>();
  /** Module path → its specifier text (JSON), made once however often it is imported. */
  const quoted = new Map<string, string>();
  // Characters of the rewritten graph, bounded by GRAPH_REWRITE_FACTOR × maxSourceBytes before any of it is built.
  const maxRewritten = GRAPH_REWRITE_FACTOR * ctx.maxSourceBytes;
  let rewritten = 0;
  const grow = (by: number, path: string) => {
    rewritten += by;
    if (rewritten > maxRewritten) {
      throw pathError(
        "E2BIG",
        `the module graph with its imports rewritten to Workspace paths exceeds ${GRAPH_REWRITE_FACTOR} × maxSourceBytes (${maxRewritten} characters) for one run; import fewer times, or from modules with shorter paths`,
        path,
      );
    }
  };
  // Run 36, fixer DI: what a dynamic import checks before it loads (see freshModule).
  /** Workspace module → the digest of the text the graph read (see {@link moduleDigest}). */
  const digests = new Map<string, string>();
  /** Module path → the Workspace modules it imports statically (entry included). */
  const edges = new Map<string, string[]>();
  /** Each module rewritten but for its dynamic imports, finished once the whole graph is known. */
  const pending: { key: string; path: string; source: string; replacements: { start: number; end: number; text: string }[]; dynamics: { spec: Specifier; target: string }[] }[] = [];
  while (queue.length > 0) {
    const item = queue.shift()!;
    // A module's path prefixes its syntax errors: cut as refusals quote what the caller gave.
    const scan = scanModule(item.source, item.where === undefined ? undefined : pathCut(item.where), false);
    if (item.path === entryPath && !scan.hasDefault) {
      const names = scan.named.slice(0, MAX_LISTED_EXPORTS).map(exportCut).join(", ");
      const more = scan.named.length > MAX_LISTED_EXPORTS ? ` and ${scan.named.length - MAX_LISTED_EXPORTS} more` : "";
      const list = scan.named.length > 0 ? ` It exports ${names}${more}, but no default.` : "";
      throw pathError("EINVAL", `The module has nothing to run: it must have a default export, e.g. \`export default async function (input) { … }\`.${list}`);
    }
    const replacements: { start: number; end: number; text: string }[] = [];
    rewritten += item.source.length;
    const replace = (spec: { start: number; end: number }, text: string) => {
      grow(text.length - (spec.end - spec.start), item.path);
      replacements.push({ start: spec.start, end: spec.end, text });
    };
    const statics: string[] = [];
    const dynamics: { spec: Specifier; target: string }[] = [];
    const base = dirname(item.path);
    const baseDepth = base.split("/").filter(Boolean).length;
    /** This module's specifiers (by {@link specKey}) → the module they resolved to. */
    const local = new Map<string, string>();
    for (const spec of scan.specifiers) {
      const bare = resolveBare(spec.value, ctx);
      if (bare !== undefined) {
        replace(spec, JSON.stringify(bare));
        continue;
      }
      if (!(spec.value.startsWith("./") || spec.value.startsWith("../") || spec.value.startsWith("/"))) {
        throw notConfigured(spec.value, ctx.backendType);
      }
      // Resolved once per build: a later import of the same path (however spelled) loads the module read then.
      const key = specKey(spec.value, baseDepth);
      let target = local.get(key) ?? resolved.get(normalizePath(spec.value, base));
      if (target === undefined) {
        let path: string;
        try {
          path = (await resolver.resolve(spec.value, { base })).path;
          target = path;
          // `./x.js` that does not exist finds `./x.ts` (Node ESM TypeScript imports; see typescript.ts).
          const twin = typeScriptTwin(target);
          // The twin is checked as the import itself is: no link on the way, the last component included.
          if (twin !== undefined && !(await exists(fs, target))) {
            const confinedTwin = (await resolver.resolve(twin)).path;
            if (await exists(fs, confinedTwin)) target = confinedTwin;
          }
        } catch (err) {
          throw cutRefusal(err, spec.value);
        }
        checkReserved(target, spec.value);
        resolved.set(path, target);
      }
      local.set(key, target);
      let quote = quoted.get(target);
      if (quote === undefined) quoted.set(target, (quote = JSON.stringify(target)));
      checkImportType(spec, target);
      if (spec.dynamic) dynamics.push({ spec, target });
      else {
        statics.push(target);
        replace(spec.with ? { ...spec, end: spec.with.end } : spec, quote);
      }
      if (seen.has(target)) continue;
      seen.add(target);
      if (seen.size > MAX_GRAPH_MODULES) throw pathError("E2BIG", `the module graph has more than ${MAX_GRAPH_MODULES} modules`);
      if (item.depth + 1 > MAX_GRAPH_DEPTH) throw pathError("E2BIG", `imports are nested deeper than ${MAX_GRAPH_DEPTH} levels at ${pathCut(target)}`, target);
      let text: string;
      try {
        const stat = await fs.stat(target);
        if (!stat.isFile) throw pathError("EISDIR", `Cannot import ${specCut(spec.value)}: ${pathCut(target)} is not a file`, target);
        if (stat.size > ctx.maxSourceBytes) throw pathError("E2BIG", `module source exceeds maxSourceBytes (${ctx.maxSourceBytes} bytes): ${pathCut(target)}`, target);
        text = await ctx.fs.readFile(target, "utf8");
        digests.set(target, await moduleDigest(text));
        if (isTypeScriptPath(target)) text = await stripTypes(text, target, strip);
        else if (target.endsWith(".json")) text = jsonModule(text, target);
      } catch (err) {
        if ((err as { code?: string }).code === "ENOENT") {
          throw pathError("ENOENT", `Cannot find module ${specCut(spec.value)} imported from ${item.where === undefined ? "the entry module" : pathCut(item.where)} (looked for ${pathCut(target)})`, target);
        }
        throw err;
      }
      addSource(text);
      queue.push({ path: target, source: text, depth: item.depth + 1, where: target });
    }
    const key = item.path.slice(1);
    edges.set(item.path, statics);
    pending.push({ key, path: item.path, source: item.source, replacements, dynamics });
    names.set(key, item.where ?? "the entry module");
  }
  // Run 36, fixer DI: a dynamic import of a module the entry does not import statically checks, when it runs, that
  // the modules it would load first (itself and its static imports, less the entry's) still hold the text read here.
  const closure = (from: string, into: Set<string>) => {
    const stack = [from];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (into.has(p)) continue;
      into.add(p);
      for (const next of edges.get(p) ?? []) if (!into.has(next)) stack.push(next);
    }
    return into;
  };
  const loaded = closure(entryPath, new Set());
  /** Checked modules, each once: `[path, digest]`. */
  const table: [string, string][] = [];
  const tableIndex = new Map<string, number>();
  /** Per dynamic target (not loaded with the entry): indices into `table`; its index in this list. */
  const checks: number[][] = [];
  const checkIndex = new Map<string, number>();
  for (const m of pending) {
    for (const { spec, target } of m.dynamics) {
      const quote = quoted.get(target)!;
      if (loaded.has(target)) {
        const end = spec.with ? spec.with.end : spec.end;
        grow(quote.length - (end - spec.start), m.path);
        m.replacements.push({ start: spec.start, end, text: quote });
        continue;
      }
      let at = checkIndex.get(target);
      if (at === undefined) {
        const list: number[] = [];
        for (const p of closure(target, new Set())) {
          if (loaded.has(p)) continue;
          let i = tableIndex.get(p);
          if (i === undefined) {
            tableIndex.set(p, (i = table.length));
            table.push([p, digests.get(p)!]);
            grow(p.length + 80, p);
          }
          list.push(i);
        }
        checkIndex.set(target, (at = checks.length));
        checks.push(list);
        grow(list.length * 6, target);
      }
      const text = `${FRESH_BINDING}(${at}, ${JSON.stringify(spec.value)}, () => import(${quote}))`;
      grow(text.length - (spec.dynamic!.end - spec.dynamic!.start), m.path);
      m.replacements.push({ start: spec.dynamic!.start, end: spec.dynamic!.end, text });
    }
    let text = rewrite(m.source, m.replacements);
    if (m.dynamics.some((d) => !loaded.has(d.target))) {
      // Appended (imports are hoisted): no line or column of the module moves.
      const line = `\nimport { fresh as ${FRESH_BINDING} } from "/${FRESH_MODULE}";\n`;
      grow(line.length, m.path);
      text += line;
    }
    modules.set(m.key, text);
  }
  if (checks.length > 0) {
    modules.set(FRESH_MODULE, freshModule(table, checks));
    names.set(FRESH_MODULE, "the run's dynamic-import checks");
  }
  return { entry, modules, names, sourceBytes };
}

/**
 * Internal module of a run whose code dynamically imports a Workspace module its entry does not import statically:
 * `__modules__/workspace-fresh.js` (run 36, fixer DI). Each such `import("./x.js")` is rewritten to
 * `__ws$fresh$(<n>, "./x.js", () => import("/abs/x.js"))`, which first checks (workspace-capabilities.js `__fresh`)
 * that the modules the import would load for the first time still hold the text the run was built from.
 */
export const FRESH_MODULE = `${INTERNAL_DIR}/workspace-fresh.js`;
/** The local name the rewritten dynamic imports call (appended `import { fresh as __ws$fresh$ } …`). */
const FRESH_BINDING = "__ws$fresh$";

function freshModule(table: [string, string][], checks: number[][]): string {
  return [
    `import { __fresh } from "/${CAPABILITIES_MODULE}";`,
    `const table = ${JSON.stringify(table)};`,
    `const checks = ${JSON.stringify(checks)};`,
    `export async function fresh(at, spec, load) { await __fresh(checks[at].map((i) => table[i]), spec); return load(); }`,
  ].join("\n");
}

/**
 * The digest a dynamic import compares a module's text with (workspace-capabilities.js `__fresh` computes it the
 * same way): SHA-256 of its UTF-8 text, a leading byte order mark dropped, as 64 lowercase hex digits.
 */
export async function moduleDigest(text: string): Promise<string> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(body)));
  let hex = "";
  for (const b of hash) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Rewrites a configured string module's imports: `./<name>` of another
 * configured module, configured `ws:*`, `node:fs` and built-ins. Computed
 * dynamic imports stay as they are.
 */
export function prepareLibrary(name: string, source: string, ctx: GraphContext): string {
  const scan = scanModule(source, `module ${specCut(name)}`, true);
  const replacements: { start: number; end: number; text: string }[] = [];
  for (const spec of scan.specifiers) {
    let target: string | undefined;
    if (spec.value.startsWith("./") && ctx.libraries.has(spec.value.slice(2))) target = "/" + libModuleName(spec.value.slice(2));
    else target = resolveBare(spec.value, ctx);
    if (target === undefined) {
      throw pathError("ENOENT", `module ${specCut(name)} imports ${specCut(spec.value)}, which is not a configured module, ws: module or built-in (configured modules cannot import Workspace files)`);
    }
    replacements.push({ start: spec.start, end: spec.end, text: JSON.stringify(target) });
  }
  return rewrite(source, replacements);
}
