/**
 * What a run's Dynamic Worker loads (spec 02 §3.3): the internal modules
 * (runner, capability channel, `node:fs`, `node:fs/promises`, whose
 * JavaScript lives in `isolate/` and whose text comes from
 * isolate-source.generated.ts), the `ws:*` host-module stubs, configured
 * libraries and the run's own module graph.
 *
 * @module
 */
import type { HostModules } from "./bridge.js";
import type { ModuleGraph } from "./graph.js";
import { ISOLATE_EXPORTS, ISOLATE_SOURCES, type IsolateModuleName } from "./isolate-source.generated.js";

/** Main module of each Dynamic Worker: `isolate/workspace-runtime-runner.js`. */
export const RUNNER_MODULE = "workspace-runtime-runner.js" satisfies IsolateModuleName;
/** The capability channel shared by fs and host-module stubs: `isolate/workspace-capabilities.js`. */
export const CAPABILITIES_MODULE = "workspace-capabilities.js" satisfies IsolateModuleName;
/** The deterministic clock, random numbers, timers and tape of replay runs (spec 02 §5): `isolate/workspace-durable.js`. */
export const DURABLE_MODULE = "workspace-durable.js" satisfies IsolateModuleName;
/** A replay run's `fetch` through the host: `isolate/__modules__/workspace-fetch.js`. */
export const FETCH_MODULE = "__modules__/workspace-fetch.js" satisfies IsolateModuleName;
/** `node:fs` inside the Dynamic Worker (internal name, no leading slash): `isolate/__modules__/node-fs.js`. */
export const FS_MODULE = "__modules__/node-fs.js" satisfies IsolateModuleName;
/** `node:fs/promises` inside the Dynamic Worker: `isolate/__modules__/node-fs-promises.js`. */
export const FS_PROMISES_MODULE = "__modules__/node-fs-promises.js" satisfies IsolateModuleName;

/** `node:timers` (and `timers`) inside the Dynamic Worker, its callbacks guarded (run 39, fixer JD): `isolate/__modules__/node-timers.js`. */
export const TIMERS_MODULE = "__modules__/node-timers.js" satisfies IsolateModuleName;

/** The directory of internal modules (`node:fs`, host-module stubs, libraries); reserved for Workspace internals. */
export const INTERNAL_DIR = "__modules__";
/** File name of a run's entry module, in its cwd (`<cwd>/__workspace_entry__.js`). */
export const ENTRY_FILE = "__workspace_entry__.js";
/** Internal name of a configured `ws:*` host module's stub (`ws:git` → `__modules__/ws/git.js`). */
export const hostModuleName = (name: string) => `${INTERNAL_DIR}/ws/${name.slice(3)}.js`;
/** Internal name of a configured library (a source-string module). */
export const libModuleName = (name: string) => `${INTERNAL_DIR}/lib/${name}`;

/** The `node:fs/promises` functions code can call, in source order (the named exports of its module but `constants`). */
export const FS_METHODS: readonly string[] = ISOLATE_EXPORTS[FS_PROMISES_MODULE].filter((name) => name !== "default" && name !== "constants");

/** Modules one run may load in all: internal, libraries, host stubs and its graph. */
export const MAX_LOADED_MODULES = 256;

/** A `ws:*` stub: each export forwards its arguments to the host function. */
export function hostModuleSource(name: string, exports: readonly string[]): string {
  // Export names may be reserved words (`delete`), so bind locals and export them by name.
  const lines = [`import { call } from "/${CAPABILITIES_MODULE}";`];
  exports.forEach((fn, i) => {
    lines.push(`const __f${i} = (...args) => call("host", ${JSON.stringify(name)}, ${JSON.stringify(fn)}, args);`);
    lines.push(`export { __f${i} as ${fn} };`);
  });
  return lines.join("\n");
}

/** The modules a Dynamic Worker loads for one run, keyed by internal name, and how to name them in errors. */
export interface RunModules {
  /** Internal name → module, as the Worker Loader takes it. */
  modules: Record<string, { js: string }>;
  /** `/<internal name>` → the specifier or path the code used. */
  names: Record<string, string>;
}

/**
 * The modules of one run: the internal ones, `libraries` (prepared by
 * `prepareLibrary`), a stub for each host module that exports something,
 * and the run's `graph`.
 *
 * @throws RangeError `a run may load at most 256 modules` ({@link MAX_LOADED_MODULES}).
 */
export function runModules(graph: ModuleGraph, libraries: Record<string, { js: string }>, hostModules: HostModules): RunModules {
  const modules: Record<string, { js: string }> = {
    [RUNNER_MODULE]: { js: ISOLATE_SOURCES[RUNNER_MODULE] },
    [CAPABILITIES_MODULE]: { js: ISOLATE_SOURCES[CAPABILITIES_MODULE] },
    [DURABLE_MODULE]: { js: ISOLATE_SOURCES[DURABLE_MODULE] },
    [FETCH_MODULE]: { js: ISOLATE_SOURCES[FETCH_MODULE] },
    [FS_PROMISES_MODULE]: { js: ISOLATE_SOURCES[FS_PROMISES_MODULE] },
    [FS_MODULE]: { js: ISOLATE_SOURCES[FS_MODULE] },
    [TIMERS_MODULE]: { js: ISOLATE_SOURCES[TIMERS_MODULE] },
    ...libraries,
  };
  for (const [name, fns] of hostModules) {
    const exports = Object.keys(fns);
    if (exports.length > 0) modules[hostModuleName(name)] = { js: hostModuleSource(name, exports) };
  }
  for (const [key, text] of graph.modules) modules[key] = { js: text };
  if (Object.keys(modules).length > MAX_LOADED_MODULES) throw new RangeError(`a run may load at most ${MAX_LOADED_MODULES} modules`);
  const names: Record<string, string> = {};
  for (const [key, original] of graph.names) names["/" + key] = original;
  names["/" + FS_MODULE] = "node:fs";
  names["/" + FS_PROMISES_MODULE] = "node:fs/promises";
  names["/" + TIMERS_MODULE] = "node:timers";
  return { modules, names };
}
