/**
 * The package as a user gets it. The git-tracked files of the working tree are
 * copied to a temp dir and packed there (`npm pack` runs the prepack build in
 * the copy, never in the repo's dist/), then:
 *
 *   - a user project installs the tarball with the peers from the root lock and
 *     imports every entry point on Node (the system Node and Node 22) and in
 *     workerd (esbuild + Miniflare), and type-checks README-shaped code
 *     (user-project/src/usage.ts) against the packed .d.ts files;
 *   - nodeSqliteStorage() on a Node older than 22.13 throws a clear error, and
 *     the root entry still imports there;
 *   - examples/starter installs from the tarball under the system Node's npm,
 *     type-checks, and answers its route under `npm run dev` (wrangler on the
 *     Node 22 of its `node` devDependency).
 */
import { execFileSync, spawn, type SpawnOptions } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const ROOT_PACKAGE = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  name: string;
  version: string;
  exports: Record<string, { types: string; import?: string }>;
};
const ROOT_LOCK = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string }>;
};
const lockVersion = (name: string): string => {
  const version = ROOT_LOCK.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in the root package-lock.json`);
  return version;
};

const specifierOf = (subpath: string): string => (subpath === "." ? ROOT_PACKAGE.name : `${ROOT_PACKAGE.name}/${subpath.slice(2)}`);

/** Every module "exports" entry: the specifier a user imports and the files it maps to. */
const ENTRIES = Object.entries(ROOT_PACKAGE.exports).flatMap(([subpath, target]) =>
  target.import === undefined
    ? []
    : [{ specifier: specifierOf(subpath), types: target.types.replace(/^\.\//, ""), js: target.import.replace(/^\.\//, "") }],
);

/** Types-only entries (no JavaScript): `agent-computer/vite/client`, an ambient declaration file. */
const TYPES_ONLY = Object.entries(ROOT_PACKAGE.exports).flatMap(([subpath, target]) =>
  target.import === undefined ? [{ specifier: specifierOf(subpath), types: target.types.replace(/^\.\//, "") }] : [],
);

/** The user project's peers, at the versions the repo is tested with. */
const USER_PEERS = ["ai", "zod", "@earendil-works/pi-ai", "@tanstack/ai"];
const USER_DEV = ["@cloudflare/workers-types", "typescript"];

/** The starter's compatibility date, also used for the workerd import check. */
const COMPATIBILITY_DATE = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(join(REPO, "examples/starter/wrangler.toml"), "utf8"))![1];

const STARTER_RESPONSE = [
  "read: Hello from a Durable Object",
  'exec: completed, exit 0, stdout "words: 5\\n", value "HELLO FROM A DURABLE OBJECT"',
  'agent: The read tool says the file contains "Hello from a Durable Object".',
  "",
].join("\n");

// ---------------------------------------------------------------------------------------------
// Processes

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[], options: SpawnOptions & { cwd: string }): Promise<Ran> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => done({ code: -1, stdout, stderr: stderr + String(error), ms: Date.now() - started }));
    child.on("close", (code) => done({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

const describeRun = (what: string, ran: Ran) => `${what} exited ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`;

/**
 * The environment a user's shell would have: no npm_* variables from the
 * `npm test` that runs us (npm_config_local_prefix would point npm at the repo),
 * no vitest variables, and PATH without any node_modules/.bin — with
 * `nodeDir` first, so `npm` and `node` are that Node's.
 */
function userEnv(nodeDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|vitest)/i.test(key) || ["NODE_ENV", "NODE_OPTIONS", "TEST", "PATH"].includes(key)) continue;
    env[key] = value;
  }
  const path = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir && !dir.includes("node_modules"));
  env.PATH = [nodeDir, ...path.filter((dir) => dir !== nodeDir)].join(delimiter);
  env.NO_COLOR = "1";
  env.WRANGLER_SEND_METRICS = "false";
  env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  return env;
}

/** The machine's own Node (not node_modules/.bin/node): first on PATH outside node_modules, else /usr/local/bin, /usr/bin. */
function findSystemNode(): { path: string; version: string } | undefined {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir && !dir.includes("node_modules"));
  for (const dir of [...dirs, "/usr/local/bin", "/usr/bin"]) {
    const path = join(dir, "node");
    if (!existsSync(path)) continue;
    try {
      const version = execFileSync(path, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
      return { path, version };
    } catch {
      // not runnable; keep looking
    }
  }
  return undefined;
}

const olderThan = (version: string, minimum: string) => {
  const a = version.split(".").map(Number);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
};

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Shared setup: one pack, one user project, one starter install

const SYSTEM_NODE = findSystemNode() ?? { path: process.execPath, version: process.versions.node };
const SYSTEM_ENV = userEnv(dirname(SYSTEM_NODE.path));
const timings: Record<string, number> = {};

let work: string;
let tarball: string;
let tarballFiles: string[];
let user: { dir: string; install: Ran };
let starter: { dir: string; install: Ran };

/**
 * Copies the working tree's files that git tracks (with their uncommitted changes), links
 * node_modules, and packs. New files not yet added but not ignored are copied too: a module
 * someone just created is part of the next commit, and the build would fail without it.
 */
async function pack(): Promise<void> {
  const copy = join(work, "repo");
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" });
  for (const file of new Set(listed.split("\0").filter(Boolean))) {
    if (!existsSync(join(REPO, file))) continue; // deleted in the working tree
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await copyFile(join(REPO, file), join(copy, file));
  }
  await symlink(join(REPO, "node_modules"), join(copy, "node_modules"), "dir");
  // npm runs prepack (the tsup build) in the copy, on this Node (22); npm_* variables dropped so npm packs the copy.
  const packed = await run("npm", ["pack", "--pack-destination", work], { cwd: copy, env: userEnv(dirname(process.execPath)) });
  timings["npm pack (prepack build)"] = packed.ms;
  if (packed.code !== 0) throw new Error(describeRun("npm pack", packed));
  tarball = join(work, `${ROOT_PACKAGE.name}-${ROOT_PACKAGE.version}.tgz`);
  if (!existsSync(join(copy, "dist/index.js"))) throw new Error("npm pack did not build dist/ in the copy");
  tarballFiles = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
}

async function installUser(): Promise<void> {
  const dir = join(work, "user");
  await cp(join(import.meta.dirname, "user-project"), dir, { recursive: true });
  const pkg = {
    name: "user-project",
    private: true,
    type: "module",
    dependencies: {
      [ROOT_PACKAGE.name]: `file:${tarball}`,
      ...Object.fromEntries(USER_PEERS.map((name) => [name, lockVersion(name)])),
    },
    devDependencies: Object.fromEntries(USER_DEV.map((name) => [name, lockVersion(name)])),
  };
  await writeFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, env: SYSTEM_ENV });
  timings["npm install (user project)"] = install.ms;
  user = { dir, install };
}

async function installStarter(): Promise<void> {
  const dir = join(work, "starter");
  await cp(join(REPO, "examples/starter"), dir, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.wrangler)([/\\]|$)/.test(source.slice(REPO.length)),
  });
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  pkg.dependencies[ROOT_PACKAGE.name] = `file:${tarball}`;
  await writeFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, env: SYSTEM_ENV });
  timings["npm install (starter)"] = install.ms;
  starter = { dir, install };
}

/** Lines of an npm install log that warn about install scripts or native builds of `names`. */
function installScriptWarnings(log: string, names: string[]): string[] {
  return log
    .split("\n")
    .filter((line) => /install-scripts|node-gyp|gyp (ERR|info)|prebuild/i.test(line))
    .filter((line) => /node-gyp|gyp (ERR|info)/.test(line) || names.some((name) => line.includes(` ${name}@`)));
}

/** agent-computer and everything it depends on in an installed project (from its package-lock). */
function ourPackages(dir: string): string[] {
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dependencies?: Record<string, string> }>;
  };
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {})) visit(dep);
  };
  visit(ROOT_PACKAGE.name);
  return [...seen];
}

/** Value exports of each entry, read from its .d.ts as TypeScript resolves it in the user project. */
function declaredValueExports(dir: string): Record<string, string[]> {
  const file = join(dir, "src/worker.ts"); // imports every entry point
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2023,
    types: [],
    skipLibCheck: true,
    noEmit: true,
  };
  const program = ts.createProgram([file], options);
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const { specifier } of ENTRIES) {
    const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
    if (!resolved) throw new Error(`TypeScript cannot resolve ${specifier} from the user project`);
    const source = program.getSourceFile(resolved.resolvedFileName);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${specifier}: TypeScript finds no module in ${resolved.resolvedFileName}`);
    out[specifier] = checker
      .getExportsOfModule(moduleSymbol)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return (target.flags & ts.SymbolFlags.Value) !== 0;
      })
      .map((symbol) => symbol.name)
      .sort();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

// One pack and two installs (beforeAll); the checks after them are independent and run side by
// side (tsc and wrangler dev dominate).
describe.concurrent("agent-computer as a user installs it", () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "agent-computer-pack-"));
    await pack();
    await Promise.all([installUser(), installStarter()]);
  }, 300_000);

  afterAll(async () => {
    console.log(`package test timings (system Node ${SYSTEM_NODE.version}):`, timings);
    if (work && !process.env.KEEP_PACK_TEST) await rm(work, { recursive: true, force: true });
  });

  describe("the packed tarball in a user project", () => {
    let declared: Record<string, string[]>;
    beforeAll(() => {
      if (user.install.code !== 0) throw new Error(describeRun("npm install (user project)", user.install));
      declared = declaredValueExports(user.dir);
    });

    it("holds dist/ for every exports entry (.js and .d.ts), and no test/ or src/", () => {
      for (const entry of ENTRIES) {
        expect(tarballFiles, entry.specifier).toContain(`package/${entry.js}`);
        expect(tarballFiles, entry.specifier).toContain(`package/${entry.types}`);
      }
      expect(TYPES_ONLY.map((e) => e.specifier)).toEqual([`${ROOT_PACKAGE.name}/vite/client`]);
      for (const entry of TYPES_ONLY) expect(tarballFiles, entry.specifier).toContain(`package/${entry.types}`);
      expect(tarballFiles.filter((file) => /^package\/(test|src)\//.test(file))).toEqual([]);
      // The container image's sources (docs/container.md builds from them), without node_modules.
      expect(tarballFiles).toEqual(expect.arrayContaining(["package/container/Dockerfile", "package/container/daemon.mjs", "package/container/lib/api.mjs", "package/container/package-lock.json"]));
      expect(tarballFiles.filter((file) => file.startsWith("package/container/node_modules/"))).toEqual([]);
      expect(tarballFiles).toContain("package/package.json");
    });

    it("installs with no install-script or native-build warnings for agent-computer or its dependencies", () => {
      const names = ourPackages(user.dir);
      expect(names).toEqual(expect.arrayContaining([ROOT_PACKAGE.name, "zod", "picomatch", "acorn"]));
      expect(installScriptWarnings(user.install.stdout + user.install.stderr, names)).toEqual([]);
    });

    it("every entry's .d.ts resolves in the user project and declares values", () => {
      for (const { specifier } of ENTRIES) expect(declared[specifier]?.length, specifier).toBeGreaterThan(0);
    });

    const nodes = [
      { label: `system Node ${SYSTEM_NODE.version}`, path: SYSTEM_NODE.path },
      ...(SYSTEM_NODE.path === process.execPath ? [] : [{ label: `Node ${process.versions.node}`, path: process.execPath }]),
    ];
    for (const node of nodes) {
      it(`imports every entry point on ${node.label}`, async () => {
        const script = "const out = {}; for (const s of process.argv.slice(1)) out[s] = Object.keys(await import(s)).sort(); console.log(JSON.stringify(out));";
        const ran = await run(node.path, ["--input-type=module", "-e", script, ...ENTRIES.map((e) => e.specifier)], { cwd: user.dir, env: SYSTEM_ENV });
        expect(ran.code, describeRun("import", ran)).toBe(0);
        expect(JSON.parse(ran.stdout)).toEqual(declared);
      });
    }

    it("imports every entry point in workerd (esbuild bundle, Miniflare, nodejs_compat)", { timeout: 60_000 }, async () => {
      const esbuild = await import("esbuild");
      const outfile = join(user.dir, "out/worker.js");
      await esbuild.build({
        absWorkingDir: user.dir,
        entryPoints: ["src/worker.ts"],
        outfile,
        bundle: true,
        format: "esm",
        platform: "neutral",
        target: "es2022",
        conditions: ["workerd", "worker", "browser"],
        mainFields: ["browser", "module", "main"],
        external: ["cloudflare:*", "node:*"],
        logLevel: "silent",
      });
      const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
      const started = Date.now();
      const mf = new Miniflare(
        convertV4MiniflareOptions({
          modulesRoot: dirname(outfile), // module paths must not climb out of it (workerd refuses "..")
          modules: [{ type: "ESModule", path: outfile, contents: await readFile(outfile, "utf8") }],
          compatibilityDate: COMPATIBILITY_DATE,
          compatibilityFlags: ["nodejs_compat"],
        }),
      );
      try {
        const response = await mf.dispatchFetch("http://user.example/");
        const body = (await response.json()) as { userAgent: string; exports: Record<string, string[]> };
        expect(body.userAgent).toBe("Cloudflare-Workers");
        expect(body.exports).toEqual(declared);
      } finally {
        await mf.dispose();
        timings["workerd import"] = Date.now() - started;
      }
    });

    it("type-checks README-shaped code against the packed .d.ts (user-project/src/usage.ts, no casts)", { timeout: 60_000 }, async () => {
      const ran = await run(SYSTEM_NODE.path, [join(user.dir, "node_modules/typescript/bin/tsc"), "-p", user.dir], { cwd: user.dir, env: SYSTEM_ENV });
      timings["tsc (user project)"] = ran.ms;
      expect(ran.stdout + ran.stderr).toBe("");
      expect(ran.code).toBe(0);
    });
  });

  describe("nodeSqliteStorage on a Node without a usable node:sqlite", () => {
    it("the root entry imports, and nodeSqliteStorage() names the running and needed versions and what to do", async (context) => {
      if (!olderThan(SYSTEM_NODE.version, "22.13.0")) {
        context.skip(`no Node.js older than 22.13 on this machine (system Node is ${SYSTEM_NODE.version} at ${SYSTEM_NODE.path})`);
      }
      const script = `
        const { nodeSqliteStorage, Workspace } = await import("agent-computer");
        try { nodeSqliteStorage(":memory:"); console.log("no error"); }
        catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message, workspace: typeof Workspace })); }`;
      const ran = await run(SYSTEM_NODE.path, ["--input-type=module", "-e", script], { cwd: user.dir, env: SYSTEM_ENV });
      expect(ran.code, describeRun("node", ran)).toBe(0);
      const { message, workspace } = JSON.parse(ran.stdout) as { message: string; workspace: string };
      expect(workspace).toBe("function");
      expect(message).toContain(`this is Node.js ${SYSTEM_NODE.version}`);
      expect(message).toContain("needs node:sqlite from Node.js 22.13.0 or newer");
      expect(message).toContain("Run this process on Node.js 22.13.0 or newer");
      expect(message).toContain("pass ctx.storage as the Workspace's storage");
    });
  });

  describe("examples/starter installed from the tarball", () => {
    beforeAll(() => {
      if (starter.install.code !== 0) throw new Error(describeRun("npm install (starter)", starter.install));
    });

    it(`installs under the system npm (Node ${SYSTEM_NODE.version}) with no install-script warnings for agent-computer or its dependencies`, () => {
      expect(installScriptWarnings(starter.install.stdout + starter.install.stderr, ourPackages(starter.dir))).toEqual([]);
    });

    it("npm scripts run on the Node 22 of the `node` devDependency", async () => {
      const ran = await run("npm", ["exec", "--", "node", "--version"], { cwd: starter.dir, env: SYSTEM_ENV });
      expect(ran.stdout.trim()).toBe(`v${ROOT_LOCK.packages["node_modules/node"]!.version}`);
    });

    it("type-checks (npm run typecheck)", { timeout: 60_000 }, async () => {
      const ran = await run("npm", ["run", "typecheck"], { cwd: starter.dir, env: SYSTEM_ENV });
      timings["tsc (starter)"] = ran.ms;
      expect(ran.code, describeRun("npm run typecheck", ran)).toBe(0);
    });

    it("npm run dev serves the route: write, read back, exec, and a scripted tool call", { timeout: 120_000 }, async () => {
      const [port, inspectorPort] = [await freePort(), await freePort()];
      const started = Date.now();
      const child = spawn("npm", ["run", "dev", "--", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)], {
        cwd: starter.dir,
        env: SYSTEM_ENV,
        detached: true, // its own process group: npm, wrangler and workerd are killed together
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      child.stdout!.on("data", (chunk) => (log += chunk));
      child.stderr!.on("data", (chunk) => (log += chunk));
      const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
      try {
        const deadline = Date.now() + 90_000;
        let exitCode: number | null | undefined;
        void exited.then((code) => (exitCode = code));
        while (!log.includes(`Ready on http://127.0.0.1:${port}`)) {
          if (exitCode !== undefined) throw new Error(`npm run dev exited ${exitCode}:\n${log}`);
          if (Date.now() > deadline) throw new Error(`npm run dev was not ready in 90 s:\n${log}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        timings["npm run dev → ready"] = Date.now() - started;
        const response = await fetch(`http://127.0.0.1:${port}/?agent=test`);
        const text = await response.text();
        expect(response.status, `${text}\n${log}`).toBe(200);
        expect(text).toBe(STARTER_RESPONSE);
        expect(log).not.toMatch(/requires (at least )?Node\.js|Unsupported Node/i);
      } finally {
        try {
          process.kill(-child.pid!, "SIGTERM");
        } catch {
          // already gone
        }
        const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
        if (!killed) {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }
    });

    it("README.md shows the same response the route gives", async () => {
      const readme = await readFile(join(REPO, "examples/starter/README.md"), "utf8");
      expect(readme).toContain(STARTER_RESPONSE);
    });
  });
});
