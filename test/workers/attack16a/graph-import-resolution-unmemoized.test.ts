/**
 * Issue 20, sixteenth attack run: the JavaScript backend's module graph (src/backends/worker-javascript/graph.ts
 * `buildGraph`) resolves EVERY import specifier with a fresh confined resolver (paths.ts `resolveConfined` → `new
 * ConfinedResolver(fs, root)` with no store version, so no memo: an lstat per path component) BEFORE it checks whether
 * the target was seen — so repeating one import of a deep module costs depth × repeats storage reads, all before the
 * run exists.
 * Tried: one existing module 500 directories down (/workspace/d/d/…/x.js, a ~1 KB path, within the filesystem's
 * limits) and an entry (the exec source, which the model writes) of 1,000 lines `import "./d/d/…/x.js";` — 1,017,024
 * bytes, within the default maxSourceBytes (1 MiB) — run with `timeoutMs: 1000`, a 50 ms host interval timer sampling
 * the object's event loop meanwhile.
 * Found (medium-high — one exec holds the Durable Object, and neither timeoutMs nor kill reaches it): the run
 * "completed" after 13.2 s, the host's timer held for 13,209 ms (no tick: the reads are synchronous SQLite and the
 * awaits between them only microtasks); 100 lines over a 100-deep path: 0.4 s. About 500,000 lstats for 1 MiB
 * of source (the cost is ~ half the source's bytes in components, whatever the split between depth and repeats); the
 * same through import spellings that differ (`./d/./d/…`, `./d//d/…`), so a memo of specifier strings alone would not do.
 * Like the stripping of attack15a, this is graph building, outside the run's deadline.
 * Suggested fix: build the graph with ONE ConfinedResolver per run, given the store version (its per-run memo of
 * checked directories, as RunCapabilities does), so each directory is checked once per build; skip a specifier whose
 * normalised path was resolved already; and check the run's deadline (or a graph-build budget) between specifiers.
 * Fixed: graph.ts `buildGraph` uses ONE ConfinedResolver per build (given `GraphContext.version` when the connection
 * passes it, so checked directories are memoised per store version) and remembers each normalised import path it
 * resolved (`./d/x.js`, `./d/./x.js`, `./d//x.js` resolve once, like `seen` loads a module once); and every storage
 * lookup of the build (component lstat, existence/stat check) counts against MAX_GRAPH_LOOKUPS = 16,384 — past it,
 * `exec` rejects E2BIG naming the limit, before any Worker exists. The 800 imports here now cost ~400 lookups.
 * Also fixed (found while fixing): each module remembers its specifiers by a key costing the specifier's length (not
 * its directory's path), a target's specifier text is made once, and the rewritten graph is bounded by
 * GRAPH_REWRITE_FACTOR (2) × maxSourceBytes characters, checked before it is built — 2,000 `import "./x.js"` in a
 * module under a 100,000-character directory name built 200 MB of rewritten source (~2.4 s held) for the loader to
 * refuse; 1 MiB of them would have built ~17 GB.
 */
import { expect, it } from "vitest";
import { GRAPH_REWRITE_FACTOR, MAX_GRAPH_LOOKUPS } from "../../../src/backends/worker-javascript/graph.js";
import { inWorkspace } from "../runtime/helpers.js";
import { withGapSampler } from "./host-calls.js";

it("an entry repeating an import of a 400-deep module 800 times builds without holding the object (was: held ~8.3 s)", { timeout: 120_000 }, async () => {
  const depth = 400;
  const count = 800;
  const out = await inWorkspace(async (ws) => {
    const dir = "/workspace/" + Array(depth).fill("d").join("/");
    await ws.fs.mkdir(dir, { recursive: true });
    await ws.fs.writeFile(dir + "/x.js", "export const v = 1;\n");
    const source = `import "./${Array(depth).fill("d").join("/")}/x.js";\n`.repeat(count) + "export default () => 1;\n";
    const { value: r, gap } = await withGapSampler(async () => (await ws.runtime.exec(source, { cwd: "/workspace", encoding: "utf8", timeoutMs: 1000 })).result());
    return { bytes: source.length, status: r.status, value: r.value, gap };
  });
  expect(out.bytes).toBe(653_624);
  expect({ status: out.status, value: out.value }).toEqual({ status: "completed", value: 1 });
  // The object's event loop is never held for a second (today: 8,294 ms, the whole build, with no tick).
  expect(out.gap).toBeLessThan(1000);
});

it("the same deep import spelled 600 ways (./d/./d/…, ./d//d/…) is resolved once and runs", { timeout: 120_000 }, async () => {
  const depth = 300;
  const out = await inWorkspace(async (ws) => {
    const parts = Array(depth).fill("d");
    await ws.fs.mkdir("/workspace/" + parts.join("/"), { recursive: true });
    await ws.fs.writeFile("/workspace/" + parts.join("/") + "/x.js", "export const v = 2;\n");
    // Spelling i puts "./" (even i) or an extra "/" (odd i) after directory i % depth: 600 distinct specifiers.
    const spell = (i: number) => "./" + parts.map((p, j) => (j === i % depth ? (i % 2 ? p + "/" : p + "/.") : p)).join("/") + "/x.js";
    const source = Array.from({ length: 600 }, (_, i) => `import { v as v${i} } from "${spell(i)}";\n`).join("") + "export default () => v0 + v599;\n";
    const started = Date.now();
    const r = await (await ws.runtime.exec(source, { cwd: "/workspace", encoding: "utf8", timeoutMs: 5000 })).result();
    return { status: r.status, value: r.value, ms: Date.now() - started };
  });
  expect({ status: out.status, value: out.value }).toEqual({ status: "completed", value: 4 });
  // Unmemoised this was 600 × 303 ≈ 180,000 lstats (~5 s at the rate measured above).
  expect(out.ms).toBeLessThan(3000);
});

it("a graph past MAX_GRAPH_LOOKUPS is refused E2BIG, naming the limit: exec itself rejects (no run starts)", { timeout: 180_000 }, async () => {
  expect(MAX_GRAPH_LOOKUPS).toBe(16_384);
  // 20 modules, each at the bottom of its own 850-deep tree: ~855 lookups each (853 components + 2 checks), so
  // the 20th import passes 16,384 with or without a memo of directories (the trees share only /workspace).
  const depth = 850;
  const out = await inWorkspace(async (ws) => {
    const deep = Array(depth).fill("d").join("/");
    for (let t = 0; t < 20; t++) {
      await ws.fs.mkdir(`/workspace/t${t}/${deep}`, { recursive: true });
      await ws.fs.writeFile(`/workspace/t${t}/${deep}/x.js`, `export const v = ${t};\n`);
    }
    const source = Array.from({ length: 20 }, (_, t) => `import { v as v${t} } from "./t${t}/${deep}/x.js";\n`).join("") + "export default () => v19;\n";
    const started = Date.now();
    const error = await ws.runtime.exec(source, { cwd: "/workspace", encoding: "utf8" }).then(
      () => undefined,
      (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
    );
    return { error, ms: Date.now() - started };
  });
  expect({ error: out.error }).toEqual({
    error: {
      code: "E2BIG",
      message:
        "building the module graph takes more than 16384 storage lookups (MAX_GRAPH_LOOKUPS: path components checked for links, modules looked for); import fewer modules, from shallower directories",
    },
  });
  // The refused build held the object for at most the budget (~0.4 s; 2 s allows for a loaded machine).
  expect(out.ms).toBeLessThan(2000);
});

it("a short import repeated under a long directory name is refused E2BIG before the rewritten graph is built", { timeout: 120_000 }, async () => {
  expect(GRAPH_REWRITE_FACTOR).toBe(2);
  const name = "n".repeat(100_000);
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir(`/workspace/${name}`, { recursive: true });
    await ws.fs.writeFile(`/workspace/${name}/x.js`, "export const v = 1;\n");
    await ws.fs.writeFile(`/workspace/${name}/m.js`, `import "./x.js";\n`.repeat(2000) + "export const w = 2;\n");
    const started = Date.now();
    const error = await ws.runtime.exec(`import { w } from "./${name}/m.js";\nexport default () => w;\n`, { cwd: "/workspace" }).then(
      () => undefined,
      (e: Error & { code?: string; path?: string }) => ({ code: e.code, message: e.message, path: e.path }),
    );
    return { error, ms: Date.now() - started };
  });
  // Found: the rewrite built 2,000 × ~100 KB = 200 MB of source (~2.4 s held), which the Worker Loader then refused.
  expect(out.error).toEqual({
    code: "E2BIG",
    message:
      "the module graph with its imports rewritten to Workspace paths exceeds 2 × maxSourceBytes (2097152 characters) for one run; import fewer times, or from modules with shorter paths",
    path: `/workspace/${name}/m.js`,
  });
  expect(out.ms).toBeLessThan(2000);
});
