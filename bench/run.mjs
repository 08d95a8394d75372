#!/usr/bin/env node
// `npm run bench [-- <suite>... ] [--json <file>] [--strict]`
//
// Bundles bench/worker.ts (with every bench/suites/*.ts) using esbuild, runs
// it in workerd through Miniflare (Durable Object with SQLite storage, a
// Worker Loader binding), runs each suite on a fresh Durable Object, and
// prints one table. Exit code 1 if a suite fails to run (or, with --strict,
// if a target is missed). See bench/README.md.
import { readdirSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { startNativeGit } from "./git-native.mjs";
import { startContainerNative } from "./container-native.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const suitesDir = join(here, "suites");
const COMPATIBILITY_DATE = "2026-11-01";

function parseArgs(argv) {
  const args = { suites: [], json: undefined, strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--json") args.json = argv[++i];
    else if (arg === "--strict") args.strict = true;
    else if (arg === "--help" || arg === "-h") {
      console.log("usage: npm run bench [-- <suite>...] [--json <file>] [--strict]");
      process.exit(0);
    } else if (arg.startsWith("-")) {
      console.error(`bench: unknown option ${arg} (try --help)`);
      process.exit(2);
    } else args.suites.push(arg);
  }
  return args;
}

/** Suite files, sorted by name: bench/suites/<name>.ts. */
function suiteFiles() {
  return readdirSync(suitesDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.startsWith("_"))
    .sort()
    .map((f) => join(suitesDir, f));
}

async function bundle(files) {
  const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);
  const suitesPlugin = {
    name: "bench-suites",
    setup(build) {
      build.onResolve({ filter: /^virtual:bench-suites$/ }, () => ({ path: "bench-suites", namespace: "bench" }));
      build.onLoad({ filter: /.*/, namespace: "bench" }, () => ({
        contents:
          files.map((f, i) => `import s${i} from ${JSON.stringify(f)};\nexport * from ${JSON.stringify(f)};`).join("\n") +
          `\nexport default [${files.map((_, i) => `s${i}`).join(", ")}];\n`,
        resolveDir: here,
        loader: "js",
      }));
    },
  };
  const result = await esbuild.build({
    entryPoints: [join(here, "worker.ts")],
    bundle: true,
    write: false,
    format: "esm",
    target: "es2023",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*", ...nodeBuiltins],
    plugins: [suitesPlugin],
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

function fmtNumber(value, unit) {
  if (value === undefined || value === null) return "—";
  if (!Number.isFinite(value)) return String(value);
  if (unit === "rows") return Math.round(value).toLocaleString("en-US");
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function fmtRatio(ratio) {
  if (ratio === undefined) return "—";
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

function fmtTarget(target) {
  if (!target) return "—";
  if (target.kind === "ratio-min") return `≥ ${target.value.toFixed(2)}× raw`;
  if (target.kind === "ratio-max") return `≤ ${target.value}× raw`;
  return `≤ ${target.value}${target.note ? ` (${target.note})` : ""}`;
}

/** How far a missed row is from its target, in words. */
function missBy(row) {
  const t = row.target;
  if (t.kind === "ratio-min") {
    if (row.ratio === undefined) return "no baseline";
    return `${(row.ratio * 100).toFixed(0)} % of raw vs ≥ ${(t.value * 100).toFixed(0)} % (needs ${(t.value / row.ratio).toFixed(2)}× faster)`;
  }
  if (t.kind === "ratio-max") {
    if (row.ratio === undefined) return "no baseline";
    return `${fmtRatio(row.ratio)} raw vs ≤ ${t.value}× (${(row.ratio / t.value).toFixed(2)}× over target)`;
  }
  return `${fmtNumber(row.ours, row.unit)} ${row.unit} vs ≤ ${t.value} (${(row.ours / t.value).toFixed(2)}× over target)`;
}

function printTable(results) {
  const header = ["suite", "measure", "unit", "ours", "raw floor", "ratio", "target", "result"];
  const notes = [];
  const body = results.map((r) => {
    let label = r.label;
    if (r.note) {
      notes.push(r.note);
      label += ` [${notes.length}]`;
    }
    return [
      r.suite,
      label,
      r.unit,
      fmtNumber(r.ours, r.unit),
      fmtNumber(r.baseline, r.unit),
      fmtRatio(r.ratio),
      fmtTarget(r.target),
      r.pass === undefined ? "info" : r.pass ? "PASS" : "MISS",
    ];
  });
  const rightAligned = new Set([3, 4, 5]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  let previous;
  for (let i = 0; i < body.length; i++) {
    if (previous !== undefined && results[i].suite !== previous) console.log("");
    previous = results[i].suite;
    console.log(line(body[i]));
  }
  if (notes.length) {
    console.log("");
    notes.forEach((n, i) => console.log(`[${i + 1}] ${n}`));
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const all = suiteFiles();
  const started = performance.now();
  process.stderr.write(`bench: bundling ${all.length} suite file(s)…\n`);
  const script = await bundle(all);
  // The `git` suite's native side (the real git on the local disk, a loopback smart-HTTP server): Node only.
  const nativeGit = !args.suites.length || args.suites.includes("git") ? await startNativeGit() : { error: "not started (suite not selected)" };
  // The `container` suite's Node side: the local container host (computerd as local processes) and the native baselines.
  const containerNative = !args.suites.length || args.suites.includes("container") ? await startContainerNative() : { error: "not started (suite not selected)" };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: [{ type: "ESModule", path: join(here, "worker.js"), contents: script }],
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: ["nodejs_compat"],
      durableObjects: { BENCH: { className: "BenchObject", useSQLite: true } },
      workerLoaders: { LOADER: {} },
      bindings: { GIT_NATIVE: nativeGit.url ?? `error: ${nativeGit.error}`, CONTAINER_NATIVE: containerNative.url ?? `error: ${containerNative.error}` },
      handleStructuredLogs: ({ message }) => process.stderr.write(`${message}\n`),
    }),
  );
  const results = [];
  const failures = [];
  try {
    const names = await (await mf.dispatchFetch("http://bench/suites")).json();
    const unknown = args.suites.filter((s) => !names.includes(s));
    if (unknown.length) throw new Error(`no suite named ${unknown.join(", ")} (have: ${names.join(", ")})`);
    const selected = args.suites.length ? names.filter((n) => args.suites.includes(n)) : names;
    for (const name of selected) {
      const t0 = performance.now();
      process.stderr.write(`bench: running ${name}…\n`);
      const response = await mf.dispatchFetch(`http://bench/run/${name}`, { method: "POST" });
      const text = await response.text();
      let outcome;
      try {
        outcome = JSON.parse(text);
      } catch {
        outcome = { error: `HTTP ${response.status}: ${text.slice(0, 2000)}` };
      }
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      if (outcome.error) {
        failures.push({ suite: name, error: outcome.error });
        process.stderr.write(`bench: ${name} FAILED after ${seconds} s\n`);
      } else {
        results.push(...outcome.rows);
        process.stderr.write(`bench: ${name} done in ${seconds} s\n`);
      }
    }
  } finally {
    await mf.dispose();
    await nativeGit.close?.();
    await containerNative.close?.();
  }

  console.log("");
  console.log(`agent-computer bench — workerd (Miniflare), Durable Object SQLite, ${new Date().toISOString()}`);
  console.log("ratio = ours / raw floor measured in the same run; MB/s = 10^6 bytes per second; ms = median wall time");
  console.log("");
  if (results.length) printTable(results);
  const targeted = results.filter((r) => r.pass !== undefined);
  const missed = targeted.filter((r) => r.pass === false);
  console.log("");
  console.log(`targets: ${targeted.length - missed.length} PASS, ${missed.length} MISS` + (failures.length ? `; ${failures.length} suite(s) FAILED` : ""));
  for (const r of missed) console.log(`  MISS ${r.suite} / ${r.label}: ${missBy(r)}`);
  for (const f of failures) console.log(`  FAILED ${f.suite}: ${f.error.split("\n").slice(0, 6).join("\n    ")}`);
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (args.json) {
    writeFileSync(resolve(args.json), JSON.stringify({ date: new Date().toISOString(), results, failures }, null, 2));
  }
  process.exitCode = failures.length || (args.strict && missed.length) ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
