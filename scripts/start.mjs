#!/usr/bin/env node
// `npm start` — the main job: an agent doing real work on a real project.
//
// Starts local workerd (wrangler's startWorker, i.e. Miniflare) with
// examples/ai-sdk-agent, loads a project into the agent's durable Workspace,
// and streams the agent's run: explore (ls, find, grep, and grep -rn / wc -l in
// the shell), read with continuation, edit, write a file with sed in the shell,
// exec a JavaScript module that imports the edited file and the file the shell
// wrote, report. Exit code 0 only when the change is verified.
//
//   npm start                         # default: the `diff` package from node_modules
//   npm start -- --dir <path>         # any local directory with an ES module file
//   npm start -- --max-steps 24       # allow more model steps (default 16)
//
// Without model credentials the model is SCRIPTED (labelled as such). Set one of
// OPENAI_API_KEY, ANTHROPIC_API_KEY or AI_GATEWAY_API_KEY (and optionally
// AGENT_MODEL) to let a real model drive the same loop.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = join(REPO, "examples/ai-sdk-agent/wrangler.toml");
const MODEL_KEYS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AI_GATEWAY_API_KEY", "AGENT_MODEL"];
const MAX_FILES = 2000;
const MAX_FILE_BYTES = 1024 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git", ".wrangler", "dist", "coverage"]);

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const dim = paint("2");
const bold = paint("1");
const green = paint("32");
const red = paint("31");
const cyan = paint("36");
const yellow = paint("33");

function usage() {
  return [
    "usage: npm start [-- --dir <path>] [--max-steps <n>]",
    "",
    "  --dir <path>       load this local directory instead of node_modules/diff",
    "  --max-steps <n>    model steps allowed (default 16)",
    "",
    "Model: SCRIPTED unless OPENAI_API_KEY, ANTHROPIC_API_KEY or AI_GATEWAY_API_KEY is set (AGENT_MODEL picks the model).",
  ].join("\n");
}

/** Files of the default project: the ES module build of jsdiff, plus its package.json and README. */
async function defaultProject() {
  const dir = join(REPO, "node_modules/diff");
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  const files = ["package.json", "README.md"];
  for (const file of await walk(join(dir, "libesm"))) if (file.endsWith(".js")) files.push(relative(dir, file).split(sep).join("/"));
  return { dir, files, root: "/workspace/diff", project: `diff@${pkg.version} (node_modules/diff)`, kind: "diff" };
}

async function directoryProject(path) {
  const dir = resolve(path);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`--dir ${path}: not a directory`);
  const files = [];
  for (const file of await walk(dir)) {
    if ((await stat(file)).size > MAX_FILE_BYTES) continue;
    files.push(relative(dir, file).split(sep).join("/"));
    if (files.length >= MAX_FILES) break;
  }
  if (files.length === 0) throw new Error(`--dir ${path}: no files to load`);
  const name = basename(dir).replace(/[^A-Za-z0-9._-]/g, "_") || "project";
  return { dir, files, root: `/workspace/${name}`, project: `${name} (${dir})`, kind: "generic" };
}

async function walk(dir) {
  const out = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
    if (out.length >= MAX_FILES) break;
  }
  return out;
}

function short(value, max = 160) {
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function formatInput(name, input) {
  if (name === "exec" && typeof input?.command === "string") {
    const lines = input.command.trimEnd().split("\n");
    return `${input.backend ?? "(default backend)"} cwd=${input.cwd ?? "(default)"}\n${lines.map((l) => dim("      │ ") + l).join("\n")}`;
  }
  if (name === "edit" && Array.isArray(input?.edits)) {
    return `${input.path} (${input.edits.length} edit${input.edits.length === 1 ? "" : "s"}: ${input.edits
      .map((e) => `${short(e.oldText, 40)} → +${e.newText.split("\n").length - e.oldText.split("\n").length} lines`)
      .join("; ")})`;
  }
  return short(input, 200);
}

function print(event) {
  switch (event.type) {
    case "start":
      console.log(`${bold("model")}    ${event.scripted ? yellow(event.model) : cyan(event.model)}`);
      if (event.scripted) console.log(dim("         set OPENAI_API_KEY, ANTHROPIC_API_KEY or AI_GATEWAY_API_KEY for a real model"));
      console.log(`${bold("tools")}    ${event.tools.join(", ")}`);
      console.log("");
      break;
    case "say":
      console.log("");
      console.log(`${bold("report")}   ${event.text}`);
      break;
    case "call":
      console.log(`${cyan(`[${event.step}] ${event.name}`)} ${formatInput(event.name, event.input)}`);
      break;
    case "result":
      console.log(`    ${event.ok ? green("✓") : red("✗")} ${dim(event.summary)}`);
      break;
    case "verify":
      console.log("");
      console.log(`${bold("check")}    ${event.verified ? green("passed") : red("failed")}: ${event.detail}`);
      break;
    case "end":
      console.log("");
      console.log(event.verified ? green(bold(event.summary)) : red(bold(event.summary)));
      break;
  }
}

async function upload(worker, session, project) {
  let bytes = 0;
  let next = 0;
  const put = async () => {
    while (next < project.files.length) {
      const file = project.files[next++];
      const body = await readFile(join(project.dir, file));
      bytes += body.byteLength;
      const res = await worker.fetch(`http://agent/files${project.root}/${file.split("/").map(encodeURIComponent).join("/")}?session=${session}`, {
        method: "PUT",
        body,
      });
      if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, put));
  return bytes;
}

async function main() {
  const { values } = parseArgs({
    options: { dir: { type: "string" }, "max-steps": { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const maxSteps = values["max-steps"] === undefined ? 16 : Number(values["max-steps"]);
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new Error(`--max-steps must be a positive integer, got ${values["max-steps"]}`);
  const project = values.dir ? await directoryProject(values.dir) : await defaultProject();

  console.log(bold("agent-computer · npm start") + dim("  (examples/ai-sdk-agent in local workerd)"));
  // Offline-friendly: skip Miniflare's download of a sample `Request.cf` object.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const { unstable_startWorker } = await import("wrangler");
  const bindings = {};
  for (const key of MODEL_KEYS) if (process.env[key]) bindings[key] = { type: "plain_text", value: process.env[key] };
  const worker = await unstable_startWorker({
    config: CONFIG,
    bindings,
    dev: { server: { port: 0 }, inspector: false, logLevel: "error", persist: join(REPO, ".wrangler/start-state") },
  });
  try {
    await worker.ready;
    const session = `npm-start-${Date.now()}`;
    const bytes = await upload(worker, session, project);
    console.log(`${bold("project")}  ${project.project} → ${project.root} (${project.files.length} files, ${(bytes / 1024).toFixed(0)} KiB)`);

    const res = await worker.fetch(`http://agent/run?session=${session}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ root: project.root, project: project.project, kind: project.kind, maxSteps }),
    });
    if (!res.ok || !res.body) throw new Error(`/run: ${res.status} ${await res.text()}`);
    let verified = false;
    let ended = false;
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const event = JSON.parse(line);
        print(event);
        if (event.type === "end") {
          ended = true;
          verified = event.verified === true;
        }
      }
    }
    if (!ended) console.log(red(bold("NOT VERIFIED: the run ended without a summary")));
    return verified ? 0 : 1;
  } finally {
    await worker.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(red(`npm start failed: ${error instanceof Error ? error.message : String(error)}`));
    process.exit(2);
  },
);
