#!/usr/bin/env node
// `node scripts/gen-shell.mjs [--force]`
//
// Builds what the shell backend's Dynamic Worker loads (spec 02 §6) and
// writes it as plain TypeScript modules of strings under
// src/shell/generated/ (git-ignored; this script makes them):
//
//   - <group>.ts for each command group (core, curl, html-to-markdown,
//     python, sqlite, js-exec, yq, file, xan, jq): `{ name, commands,
//     modules }`, the modules that group adds to the Worker's module map.
//   - runtime.ts: SHELL_RUNTIME_MODULES (stubs for optional native
//     packages just-bash names but a Worker cannot load).
//
// How: esbuild bundles src/backends/worker-shell/isolate/shell.ts (the
// ShellWorker entrypoint, which imports just-bash) with code splitting, so
// each just-bash command that just-bash loads lazily (`import("./chunks/
// jq-….js")`) stays its own chunk. A command belongs to the group named in
// GROUPS (else core); a group's modules are the static-import closure of its
// commands' chunks, less what core already has. The entry and everything it
// imports statically is core.
//
// It is quick (~1 s) and skips work when its inputs (just-bash's version, this
// script, src/backends/worker-shell/**) are unchanged; prepare, prebuild, pretest,
// prestart and prebench run it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { init, parse } from "es-module-lexer";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const isolateDir = join(root, "src/backends/worker-shell/isolate");
const backendDir = join(root, "src/backends/worker-shell");
const outDir = join(root, "src/shell/generated");
const justBashDir = join(root, "node_modules/just-bash");

/** Commands outside core, by group (spec 02 §6). Every other just-bash command is core. */
export const GROUPS = {
  curl: ["curl"],
  "html-to-markdown": ["html-to-markdown"],
  python: ["python3", "python"],
  sqlite: ["sqlite3"],
  "js-exec": ["js-exec", "node"],
  yq: ["yq"],
  file: ["file"],
  xan: ["xan"],
  jq: ["jq"],
};
/**
 * Groups whose commands just-bash runs in a Node worker thread (Pyodide,
 * sql.js, QuickJS), which a Dynamic Worker does not have: they ship no
 * modules, and their commands print this reason and exit 127.
 */
const UNAVAILABLE = {
  python: "python3 is not available in the Worker shell: just-bash runs Python in a Node worker thread, which a Dynamic Worker does not have. Use a container backend for Python.",
  sqlite: "sqlite3 is not available in the Worker shell: just-bash runs SQLite in a Node worker thread, which a Dynamic Worker does not have. Use a container backend, or query from the worker-javascript backend.",
  "js-exec": "js-exec is not available in the Worker shell: just-bash runs it in a Node worker thread, which a Dynamic Worker does not have. Run JavaScript with the worker-javascript backend.",
};
/** Packages just-bash imports that a Worker cannot load (native or optional); each gets a stub that throws when used. */
const STUBBED = ["seek-bzip", "@mongodb-js/zstd", "node-liblzma"];
/**
 * just-bash chunks loaded by import() that the shell never needs, left out of
 * every group: flag-coverage (a fuzzing aid that imports every command) and
 * undici (Node's fetch; in a Worker, curl gets the isolate's fetch).
 */
const LEFT_OUT = [/^flag-coverage-/, /^undici-/];

function inputsHash() {
  const h = createHash("sha256");
  h.update(readFileSync(join(justBashDir, "package.json")));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  // Everything esbuild may bundle from this repository: the backend's directory, recursively.
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else h.update(relative(root, path)).update(readFileSync(path));
    }
  };
  walk(backendDir);
  return h.digest("hex").slice(0, 16);
}

/** just-bash's command registry: command name → the chunk file it loads lazily. */
function commandChunks() {
  const index = readFileSync(join(justBashDir, "dist/bundle/index.js"), "utf8");
  const out = new Map();
  for (const m of index.matchAll(/\{name:"([a-z0-9-]+)",load:async\(\)=>\(await import\("\.\/chunks\/([^"]+)"\)/g)) out.set(m[1], m[2]);
  if (out.size < 50) throw new Error(`gen-shell: found only ${out.size} commands in just-bash's registry; its bundle layout changed`);
  return out;
}

async function generate() {
  await init;
  const result = await build({
    entryPoints: { shell: join(isolateDir, "shell.ts") },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: "esm",
    write: false,
    outdir: "/out",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    external: ["cloudflare:*", "node:*", ...STUBBED],
    metafile: true,
    target: "es2022",
    chunkNames: "[name]-[hash]",
    legalComments: "none",
    // just-bash calls createRequire(import.meta.url); a Dynamic Worker module has no URL.
    define: { "import.meta.url": JSON.stringify("file:///shell.js") },
    logLevel: "error",
  });
  // Output module name (as the Worker's module map keys it) → text.
  const text = new Map();
  for (const f of result.outputFiles) text.set(relative("/out", f.path), f.text);
  // Static and dynamic imports of each module (relative specifiers only).
  const imports = new Map();
  for (const [name, src] of text) {
    const [found] = parse(src, name);
    const statics = [], dynamics = [];
    for (const i of found) {
      if (typeof i.specifier !== "string" || !i.specifier.startsWith("./")) continue;
      (i.type === "dynamic" ? dynamics : statics).push(i.specifier.slice(2));
    }
    imports.set(name, { statics, dynamics });
  }
  // Everything `starts` can load, statically or by import(), except other groups' command chunks.
  const closure = (starts, skip) => {
    const seen = new Set();
    const stack = [...starts];
    while (stack.length) {
      const m = stack.pop();
      if (seen.has(m) || skip.has(m)) continue;
      seen.add(m);
      stack.push(...imports.get(m).statics, ...imports.get(m).dynamics);
    }
    return seen;
  };
  // Source chunk → output module, for just-bash's lazily loaded chunks.
  const bySource = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) bySource.set(meta.entryPoint.split("/").pop(), relative("out", out.replace(/^(\.\.\/)+/, "")));
  }
  const chunks = commandChunks();
  const groupOf = new Map();
  for (const [group, names] of Object.entries(GROUPS)) for (const n of names) groupOf.set(n, group);
  const commandsOf = { core: [] };
  const startsOf = { core: ["shell.js"] };
  for (const [command, chunk] of chunks) {
    const group = groupOf.get(command) ?? "core";
    const mod = bySource.get(chunk);
    if (!mod || !text.has(mod)) throw new Error(`gen-shell: no output module for ${command} (${chunk})`);
    (commandsOf[group] ??= []).push(command);
    (startsOf[group] ??= []).push(mod);
  }
  const leftOut = [...bySource].filter(([source]) => LEFT_OUT.some((re) => re.test(source))).map(([, mod]) => mod);
  const commandModules = (group) =>
    new Set([...leftOut, ...Object.entries(startsOf).flatMap(([g, mods]) => (g === group || g === "core" ? [] : mods))]);
  const core = closure(startsOf.core, commandModules("core"));
  const groups = {};
  for (const group of ["core", ...Object.keys(GROUPS)]) {
    const mods =
      group === "core"
        ? core
        : group in UNAVAILABLE
          ? new Set()
          : new Set([...closure(startsOf[group] ?? [], commandModules(group))].filter((m) => !core.has(m)));
    groups[group] = { commands: commandsOf[group] ?? [], modules: [...mods].sort() };
  }
  return { text, groups };
}

function render(hash, group, commands, modules, text) {
  const bytes = modules.reduce((n, m) => n + Buffer.byteLength(text.get(m)), 0);
  const unavailable = UNAVAILABLE[group];
  return [
    `// Generated by scripts/gen-shell.mjs (inputs ${hash}): do not edit, not committed.`,
    `// The "${group}" command group: ${commands.length} commands, ${modules.length} modules, ${bytes} bytes.`,
    "",
    "const group: {",
    "  readonly name: string;",
    "  readonly commands: readonly string[];",
    "  readonly modules: Readonly<Record<string, string>>;",
    "  readonly bytes: number;",
    "  readonly unavailable?: string;",
    "} = {",
    `  name: ${JSON.stringify(group)},`,
    `  commands: ${JSON.stringify(commands)},`,
    "  modules: {",
    ...modules.map((m) => `    ${JSON.stringify(m)}: ${JSON.stringify(text.get(m))},`),
    "  },",
    `  bytes: ${bytes},`,
    ...(unavailable ? [`  unavailable: ${JSON.stringify(unavailable)},`] : []),
    "};",
    "export default group;",
    "",
  ].join("\n");
}

function renderRuntime(hash) {
  const stub = (name) =>
    `const fail = () => { throw new Error(${JSON.stringify(`${name} is not available in the shell's Dynamic Worker`)}); };\n` +
    "export default new Proxy(fail, { get: () => fail, apply: fail });\n";
  return [
    `// Generated by scripts/gen-shell.mjs (inputs ${hash}): do not edit, not committed.`,
    "",
    "/** Stubs for packages just-bash can import but a Worker cannot load; each throws when used. */",
    "export const SHELL_RUNTIME_MODULES: Readonly<Record<string, string>> = {",
    ...STUBBED.map((n) => `  ${JSON.stringify(n)}: ${JSON.stringify(stub(n))},`),
    "};",
    "",
  ].join("\n");
}

// The git entry's isomorphic-git bundle (src/git/generated/) is generated alongside, so every
// caller of this script (pretest, prebuild, pretypecheck, prestart, prebench, vitest.config.ts)
// gets it; it skips work on its own when up to date, and passes --force on.
await import("./gen-git.mjs");

const force = process.argv.includes("--force");
const hash = inputsHash();
const stamp = join(outDir, ".inputs");
if (!force && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) process.exit(0);
const { text, groups } = await generate();
mkdirSync(outDir, { recursive: true });
for (const [group, { commands, modules }] of Object.entries(groups)) {
  writeFileSync(join(outDir, `${group}.ts`), render(hash, group, commands, modules, text));
}
writeFileSync(join(outDir, "runtime.ts"), renderRuntime(hash));
writeFileSync(stamp, hash);
const summary = Object.entries(groups).map(([g, { modules }]) => `${g} ${modules.length}m ${Math.round(modules.reduce((n, m) => n + Buffer.byteLength(text.get(m)), 0) / 1024)} KiB`);
console.error(`gen-shell: ${summary.join(", ")}`);
