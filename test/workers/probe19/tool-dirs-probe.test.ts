/**
 * Probe 19: a new user's pass over TOOL.md tool directories
 * (docs/tool-directories.md, examples/tool-dirs-agent) in real workerd.
 * A tool directory written as the docs say — `shout` (TypeScript, progress,
 * an `env` secret, readonly) and `lines` (bash, mutating) — is loaded and
 * offered through the AI SDK, pi and TanStack adapters; then hostile
 * TOOL.md-free inputs (bad model input, huge output, hangs, throws) and
 * mis-wiring. Plain `it`: documented behaviour that holds. `it.fails`: a
 * finding (expected vs actual and severity in the comment).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { generateText, stepCountIs, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Workspace, getWorkspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { loadToolDirectories, runToolDirectory, type LoadedToolDirectories } from "../../../src/tool-dirs/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { call, done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { runChat } from "../../node/tools/tanstack-helpers.js";
import { streamingModel } from "../tool-dirs/loop-helpers.js";

const md = (name: string, extra = "", lang = "typescript") => `---\nname: ${name}\ndescription: ${name} tool.\nlanguage: ${lang}\n${extra}---\n`;
const ts = (body: string) => `export async function execute(id, params, signal, onUpdate) {\n${body}\n}\n`;

/** My own tool directory, written as docs/tool-directories.md shows. */
const MINE: Record<string, string> = {
  "shout/TOOL.md":
    "---\nname: shout\nlabel: Shout\ndescription: Upper-case a text, with a signing key.\nversion: 1\nreadonly: true\nenv:\n  - SHOUT_KEY\ninputs:\n  text:\n    type: string\n    description: The text.\n  times:\n    type: number\n    description: Repeats.\n    default: 2\n---\n# Shout\n\nBody here.\n",
  "shout/index.ts": `type Content = { type: "text"; text: string };
export async function execute(id: string, params: { text: string; times: number }, _s: AbortSignal | undefined, onUpdate?: (p: { content: Content[] }) => void): Promise<{ content: Content[]; isError?: boolean }> {
  const key = process.env.SHOUT_KEY;
  if (!key) return { content: [{ type: "text", text: "SHOUT_KEY is not set: add it as a Worker secret" }], isError: true };
  const out: string[] = [];
  for (let i = 0; i < params.times; i++) { out.push(params.text.toUpperCase()); onUpdate?.({ content: [{ type: "text", text: \`step \${i + 1} of \${params.times}\` }] }); }
  return { content: [{ type: "text", text: out.join(" ") }, { type: "text", text: \`key=\${key.length} env=\${Object.keys(process.env).join(",")} id=\${id}\` }] };
}
`,
  "lines/TOOL.md":
    "---\nname: lines\ndescription: Write numbered lines to a file.\nlanguage: bash\ninputs:\n  path:\n    type: string\n    description: Absolute path.\n  n:\n    type: number\n    description: How many.\n    default: 3\n  loud:\n    type: boolean\n    description: Loud.\n    optional: true\n---\nBody.\n",
  "lines/index.sh": `#!/bin/bash\nseq 1 "$INPUT_N" > "$INPUT_PATH"\necho "wrote $INPUT_N lines to $INPUT_PATH loud=\${INPUT_LOUD-unset}"\ncat "$TOOL_INPUT_FILE"\n`,
};

/** Hostile tools. */
const HOSTILE: Record<string, string> = {
  "big_js/TOOL.md": md("big_js"),
  "big_js/index.ts": ts("return { content: [{ type: 'text', text: 'x'.repeat(2 * 1024 * 1024) }] };"),
  "big_sh/TOOL.md": md("big_sh", "", "bash"),
  "big_sh/index.sh": "i=0; while [ $i -lt 3000 ]; do echo \"line $i $(printf '%0100d' 0)\"; i=$((i+1)); done\n",
  "hang/TOOL.md": md("hang"),
  "hang/index.ts": ts("await new Promise(() => {}); return { content: [] };"),
  "spin/TOOL.md": md("spin"),
  "spin/index.ts": ts("await new Promise(() => setInterval(() => {}, 50)); return { content: [] };"),
  "thrower/TOOL.md": md("thrower", "env: [KEY]\n"),
  "thrower/index.ts": ts("throw new Error('bad key ' + process.env.KEY + ' ' + JSON.stringify(process.env.KEY));"),
  "flood/TOOL.md": md("flood"),
  "flood/index.ts": ts("for (let i = 0; i < 3000; i++) onUpdate({ content: [{ type: 'text', text: 'u' + i }] }); return { content: [{ type: 'text', text: 'done' }] };"),
  "weird_upd/TOOL.md": md("weird_upd"),
  "weird_upd/index.ts": ts(
    "onUpdate({ content: [{ type: 'image', data: 'x' }] }); onUpdate('str'); onUpdate({ content: [{ type: 'text', text: 'y'.repeat(300000) }] }); onUpdate({ content: [{ type: 'text', text: 'ok' }] }); const c = {}; c.c = c; onUpdate(c); return { content: [{ type: 'text', text: 'done' }] };",
  ),
  "bad_result/TOOL.md": md("bad_result"),
  "bad_result/index.ts": ts("return 'just a string';"),
  "inject/TOOL.md": md("inject", "inputs:\n  text:\n    type: string\n    description: t\n", "bash"),
  "inject/index.sh": 'echo "[$INPUT_TEXT]"; echo "id=$TOOL_CALL_ID"\n',
  "exits/TOOL.md": md("exits", "env: [KEY]\ninputs:\n  pw:\n    type: string\n    description: p\n    sensitive: true\n", "bash"),
  "exits/index.sh": 'echo out-$INPUT_PW; echo "err $KEY $INPUT_PW" >&2; exit 3\n',
  "no_export/TOOL.md": md("no_export"),
  "no_export/index.ts": "export const x = 1;\n",
  "ctor_in/TOOL.md": md("ctor_in", "inputs:\n  constructor:\n    type: string\n    description: c\n"),
  "ctor_in/index.ts": ts("return { content: [{ type: 'text', text: JSON.stringify(params) }] };"),
};

interface Ctx {
  ws: Workspace;
  loaded: LoadedToolDirectories;
  state: DurableObjectState;
}

/** A fresh Durable Object Workspace (JavaScript + shell backends) with `files` under /workspace/tools, loaded. */
function withTools<T>(files: Record<string, string>, fn: (c: Ctx) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER }), new WorkerShellBackend({ loader: env.LOADER })] });
    try {
      for (const [p, t] of Object.entries(files)) {
        await ws.fs.mkdir(`/workspace/tools/${p.slice(0, p.indexOf("/"))}`, { recursive: true });
        await ws.fs.writeFile(`/workspace/tools/${p}`, t);
      }
      const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      return await fn({ ws, loaded, state });
    } finally {
      await ws.close();
    }
  });
}

/** Everything a directory tool's AI SDK `execute` yields (its progress values, then the result). */
async function yields(tools: Record<string, unknown>, name: string, input: unknown, toolCallId = "c1"): Promise<unknown[]> {
  const tool = tools[name] as { execute: (i: unknown, o: unknown) => AsyncIterable<unknown> };
  const out: unknown[] = [];
  for await (const v of tool.execute(input, { toolCallId, messages: [] })) out.push(v);
  return out;
}

const BUILTINS = ["read", "ls", "find", "grep", "write", "edit", "delete", "exec"];
const SECRETS = { SHOUT_KEY: "k3y", OTHER: "not-for-shout" };

describe("my tool directory, loaded and offered as the docs show", () => {
  it("loads both tools in subdirectory order, with mutating, env, label and description = summary + blank line + body", async () => {
    const loaded = await withTools(MINE, async ({ loaded }) => loaded);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.tools.map((t) => [t.name, t.label, t.language, t.mutating, t.env, t.version, t.entry])).toEqual([
      ["lines", "lines", "bash", true, [], 0, "/workspace/tools/lines/index.sh"],
      ["shout", "Shout", "typescript", false, ["SHOUT_KEY"], 1, "/workspace/tools/shout/index.ts"],
    ]);
    expect(loaded.tools[1]!.description).toBe("Upper-case a text, with a signing key.\n\n# Shout\n\nBody here.");
    expect(loaded.tools[1]!.summary).toBe("Upper-case a text, with a signing key.");
  });

  it("AI SDK generateText: offered after the built-ins; the model sees the joined text; process.env holds only the listed name", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => {
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } });
      const model = new MockLanguageModelV4({ doGenerate: [call("a1", "shout", { text: "hi" }), call("a2", "lines", { path: "/workspace/out.txt", n: 2 }), done] as never });
      await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(5) });
      return { names: Object.keys(tools), shout: outputFor(model, "a1"), lines: outputFor(model, "a2"), file: await ws.fs.readFile("/workspace/out.txt", "utf8") };
    });
    expect(out.names).toEqual([...BUILTINS, "lines", "shout"]);
    expect(out.shout).toEqual({ type: "text", value: "HI HI\nkey=3 env=SHOUT_KEY id=a1" });
    // bash: INPUT_<NAME>, absent optional unset, $TOOL_INPUT_FILE = JSON of inputs with defaults applied.
    expect(out.lines).toEqual({ type: "text", value: 'wrote 2 lines to /workspace/out.txt loud=unset\n{"path":"/workspace/out.txt","n":2}' });
    expect(out.file).toBe("1\n2\n");
  });

  it("AI SDK streamText: each onUpdate is a preliminary tool-result, in order, then the final result", async () => {
    const results = await withTools(MINE, async ({ ws, loaded }) => {
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } });
      const result = streamText({ model: streamingModel([{ calls: [["s1", "shout", { text: "ab", times: 3 }]] }, { text: "ok" }]), prompt: "go", tools, stopWhen: stepCountIs(3) });
      const seen: Array<[boolean, unknown]> = [];
      for await (const part of result.fullStream) if (part.type === "tool-result") seen.push([part.preliminary === true, part.output]);
      return seen;
    });
    const final = "AB AB AB\nkey=3 env=SHOUT_KEY id=s1";
    expect(results.filter(([p]) => p).map(([, o]) => o)).toEqual(["step 1 of 3", "step 2 of 3", "step 3 of 3", final]);
    expect(results.filter(([p]) => !p).map(([, o]) => o)).toEqual([final]);
  });

  it("without the secret in env, the tool's own error result comes back as { error }", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "shout", { text: "x" }));
    expect(out).toEqual([{ error: "SHOUT_KEY is not set: add it as a Worker secret" }]);
  });

  it("pi: execute(call, { onUpdate }) passes { content, isError } and each update; readOnly names shout, not lines", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => {
      const pi = createPiTools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } });
      const progress: unknown[] = [];
      const result = await pi.execute({ type: "toolCall", id: "p1", name: "shout", arguments: { text: "yo", times: 2 } } as never, { onUpdate: (p) => progress.push(p) });
      const bad = await pi.execute({ type: "toolCall", id: "p2", name: "shout", arguments: { text: "yo", times: "3" } } as never);
      return { names: pi.tools.map((t) => t.name), readOnly: pi.readOnly, result, progress, bad };
    });
    expect(out.names).toEqual([...BUILTINS, "lines", "shout"]);
    expect(out.readOnly).toEqual(["read", "ls", "find", "grep", "shout"]);
    const content = [
      { type: "text", text: "YO YO" },
      { type: "text", text: "key=3 env=SHOUT_KEY id=p1" },
    ];
    expect(out.result).toEqual({ content, isError: false, details: { content } });
    expect(out.progress).toEqual([{ content: [{ type: "text", text: "step 1 of 2" }] }, { content: [{ type: "text", text: "step 2 of 2" }] }]);
    expect(out.bad).toEqual({ content: [{ type: "text", text: "Invalid arguments for shout: times: Invalid input: expected number, received string" }], isError: true });
  });

  it("TanStack chat(): progress as CUSTOM chunks named by streamEventName; approve 'mutating' marks lines only; readonly offers shout only", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => {
      const toolDirectories = { ...loaded, env: SECRETS };
      const tools = createTanStackTools({ workspace: ws, toolDirectories, streamEventName: "tool-progress" });
      const { chunks, toolMessage } = await runChat(tools, [{ calls: [{ id: "t1", name: "shout", input: { text: "ab" } }] }, { text: "fin" }]);
      const approvals = createTanStackTools({ workspace: ws, toolDirectories, approve: "mutating" }).map((t) => [t.name, t.needsApproval]);
      const ro = createTanStackTools({ workspace: ws, toolDirectories, readonly: true }).map((t) => t.name);
      return { custom: chunks.filter((c) => c.type === "CUSTOM" && c.name === "tool-progress").map((c) => c.value), result: toolMessage("t1"), approvals, ro };
    });
    expect(out.custom).toEqual([
      { toolCallId: "t1", snapshot: { content: [{ type: "text", text: "step 1 of 2" }] } },
      { toolCallId: "t1", snapshot: { content: [{ type: "text", text: "step 2 of 2" }] } },
    ]);
    expect(out.result).toBe("AB AB\nkey=3 env=SHOUT_KEY id=t1");
    expect(out.approvals.filter(([n]) => n === "lines" || n === "shout")).toEqual([
      ["lines", true],
      ["shout", undefined],
    ]);
    expect(out.ro).toEqual(["read", "ls", "find", "grep", "shout"]);
  });
});

describe("hostile tools and hostile model input", () => {
  const run = (name: string, input: unknown, extra: { env?: Record<string, string>; timeoutMs?: number } = {}, id = "c1") =>
    withTools(HOSTILE, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, ...extra } }), name, input, id));

  it("the loader takes every hostile tool (they are well-formed)", async () => {
    const loaded = await withTools(HOSTILE, async ({ loaded }) => loaded);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.tools.length).toBe(12);
  });

  it("a bash tool gets hostile text verbatim: no expansion, no injection; the call id is $TOOL_CALL_ID", async () => {
    const out = await run("inject", { text: "$(echo pwned) `id` ; rm -rf / \n$HOME" }, {}, "id; echo x");
    expect(out).toEqual(["[$(echo pwned) `id` ; rm -rf / \n$HOME]\nid=id; echo x\n"]);
  });

  it("a promise nothing settles ends at once with the documented sentence", async () => {
    expect(await run("hang", {})).toEqual([{ error: 'Tool "hang" never returned: execute awaits a promise that nothing can settle (the runtime found nothing left to wait for).' }]);
  });

  it("a tool kept alive by a timer is stopped at timeoutMs with the documented sentence", async () => {
    expect(await run("spin", {}, { timeoutMs: 1500 })).toEqual([{ error: 'Tool "spin" timed out after 1500 ms and was stopped.' }]);
  });

  it("a throw quoting an env value is masked, also in its JSON-escaped form", async () => {
    expect(await run("thrower", {}, { env: { KEY: 'sek"ret' } })).toEqual([{ error: 'Tool "thrower" failed (exit 1): bad key *** "***"' }]);
  });

  it("a bash non-zero exit with a one-character env value: exit code and wording intact, the tool's output masked", async () => {
    expect(await run("exits", { pw: "t" }, { env: { KEY: "3" } })).toEqual([{ error: 'Tool "exits" failed (exit 3): err *** ***\nstdout:\nou***-***\n' }]);
  });

  it("a bash non-zero exit is stderr then stdout, the sensitive input and env value masked", async () => {
    expect(await run("exits", { pw: "hunter2" }, { env: { KEY: "envtok" } })).toEqual([{ error: 'Tool "exits" failed (exit 3): err *** ***\nstdout:\nout-***\n' }]);
  });

  it("a malformed result and a missing execute export are error results that say what to write", async () => {
    expect(await run("bad_result", {})).toEqual([{ error: 'Tool "bad_result" returned a malformed result: execute returned string, not { content: [{ type: "text", text: "…" }], isError?: boolean }.' }]);
    expect(await run("no_export", {})).toEqual([
      { error: 'Tool "no_export" failed (exit 1): /workspace/tools/no_export/index.ts does not export an execute function (it exports x): add export async function execute(toolCallId, params, signal, onUpdate) { … }' },
    ]);
  });

  it("a 2 MiB JavaScript result is refused at maxResultBytes (1 MiB) as an error result", async () => {
    expect(await run("big_js", {})).toEqual([
      {
        error:
          'Tool "big_js" failed (exit 1): execute returned a result of 2097218 bytes of JSON, over the backend\'s maxResultBytes (1048576 bytes): return less (for example, write large output to a file and return its path).',
      },
    ]);
  });

  it("an input named `constructor` is not taken from Object.prototype: missing, it is reported as required", async () => {
    expect(await run("ctor_in", {})).toEqual([{ error: 'Tool "ctor_in" got bad input: input "constructor" is required (string: c).' }]);
    expect(await run("ctor_in", { constructor: "v" })).toEqual(['{"constructor":"v"}']);
  });

  it("3,000 updates in one burst: bounded delivery, in order, the last update and the result arrive", async () => {
    const out = await run("flood", {});
    expect(out.at(-1)).toBe("done");
    expect(out.at(-2)).toBe("u2999");
    const nums = out.slice(0, -1).map((v) => Number(String(v).slice(1)));
    expect(nums).toEqual([...nums].sort((a, b) => a - b));
    expect(nums.length).toBeLessThan(3000);
  });

  it("non-text, non-object, over-262,144-char and cyclic updates are dropped without failing the tool", async () => {
    expect(await run("weird_upd", {})).toEqual(["ok", "done"]);
  });

  it("bash output over 65,536 characters: the [output truncated] header, a cut marker, then the end, 65,536 characters in all", async () => {
    const [text] = (await run("big_sh", {})) as string[];
    const marker = /^\[output truncated: the whole output is in \/\.computer\/output\/[^\n\]]+\]\n\[… (\d+) characters cut …\]/.exec(text!);
    expect(marker).not.toBeNull();
    expect(text!.length).toBe(65_536);
    expect(text!.endsWith("line 2999 " + "0".repeat(100) + "\n")).toBe(true);
  });

  // FINDING (low): docs say a bash result is "its last 65,536 characters (MAX_TOOL_OUTPUT_CHARS)". Actual: 65,557
  // characters — the tail plus a "…[N characters cut]…" marker (run.ts tail()); and the marker's style differs from the
  // Workspace's own "[… N characters cut …]" (src/fs/clip.ts). Expected: at most 65,536 characters, or docs naming the marker.
  // FIXED: run.ts clipTail() fits header + clipMarker() ("[… N characters cut …]", as src/fs/clip.ts) + tail in 65,536.
  it("bash output over 65,536 characters: the result is at most 65,536 characters", async () => {
    const [text] = (await run("big_sh", {})) as string[];
    expect(text!.length).toBeLessThanOrEqual(65_536);
  });

  // FINDING (medium): docs/tool-directories.md "bash and python tools" says output past the long-output limits
  // "starts with `[output truncated: the whole output is in /.computer/output/…]`" so the model can read the whole
  // output. Actual: the cut to the last 65,536 characters removes the start of that very header; the result begins
  // "…[91 characters cut]…<tail of a uuid>.stdout.log]" and the file's path is lost.
  // FIXED: run.ts keeps the header line whole and cuts only the output after it (clipTail()).
  it("bash output over the long-output limits: the result starts with the full [output truncated: …] header", async () => {
    const [text] = (await run("big_sh", {})) as string[];
    expect(text!.startsWith("[output truncated: the whole output is in /.computer/output/")).toBe(true);
  });
});

describe("mis-wiring", () => {
  it("build-time TypeErrors with the documented openings", async () => {
    const errors = await withTools(MINE, async ({ ws, loaded }) => {
      const msg = (f: () => unknown) => {
        try {
          f();
          return "no error";
        } catch (e) {
          return `${(e as Error).name}: ${(e as Error).message}`;
        }
      };
      return [
        msg(() => createAITools({ workspace: { fs: ws.fs } as never, toolDirectories: loaded })),
        msg(() => createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { SHOUT_KEY: undefined as never } } })),
        msg(() => createPiTools({ workspace: ws, toolDirectories: { ...loaded, timeoutMs: 0 } })),
        msg(() => createTanStackTools({ workspace: ws, toolDirectories: loaded.tools as never })),
        msg(() => createAITools({ workspace: ws, toolDirectories: { tools: [...loaded.tools, loaded.tools[0]!] } })),
        msg(() => createAITools({ workspace: ws, toolDirectories: { tools: [{ ...loaded.tools[0]!, name: "grep" }] } })),
      ];
    });
    const w = "TypeError: create*Tools({ toolDirectories })";
    expect(errors).toEqual([
      `${w}: directory tools run in the Workspace's backends, so the workspace needs a runtime (a Workspace with backends, or a getWorkspace() client)`,
      `${w}: env.SHOUT_KEY must be a string, got undefined`,
      `${w}: timeoutMs must be a positive number of milliseconds, got 0`,
      `${w} needs { tools } as loadToolDirectories returns it (an array of tool directories)`,
      `${w}: two tools are named "lines"; keep one (loadToolDirectories already keeps the first)`,
      `${w}: tools[0] is named "grep", a built-in tool; rename it in its TOOL.md`,
    ]);
  });

  it("a missing backend is an error result naming the backend to add; a timeout over the backend's max says what to lower", async () => {
    const out = await withTools(MINE, async ({ ws, loaded, state }) => {
      const jsOnly = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
      const shOnly = new Workspace({ storage: state.storage, backends: [new WorkerShellBackend({ loader: env.LOADER })] });
      try {
        return [
          ...(await yields(createAITools({ workspace: jsOnly, toolDirectories: loaded }), "lines", { path: "/workspace/x" })),
          ...(await yields(createAITools({ workspace: shOnly, toolDirectories: { ...loaded, env: SECRETS } }), "shout", { text: "x" })),
          ...(await yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS, timeoutMs: 600_000 } }), "shout", { text: "x", times: 0 })),
        ];
      } finally {
        await jsOnly.close();
        await shOnly.close();
      }
    });
    expect(out).toEqual([
      { error: 'Tool "lines" is bash and needs a shell: add new WorkerShellBackend({ loader: env.LOADER }) to the Workspace\'s backends (its backends: "worker-javascript" (module)).' },
      { error: 'Tool "shout" is typescript and needs the JavaScript backend: add new WorkerJavaScriptBackend({ loader: env.LOADER }) to the Workspace\'s backends (its backends: "worker-shell" (command)).' },
      { error: 'Tool "shout" cannot run: its timeout (600000 ms) is more than the backend allows (180000 ms): lower the timeoutMs of toolDirectories (or of runToolDirectory), or raise the backend\'s maxTimeoutMs.' },
    ]);
  });

  it("runToolDirectory never throws on nonsense: no tool, an array of params, an aborted signal, a negative timeout", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => {
      const shout = loaded.tools[1]!;
      const ac = new AbortController();
      ac.abort();
      return [
        await runToolDirectory(undefined as never, { workspace: ws, params: {} } as never),
        await runToolDirectory(shout, { workspace: ws, params: [1] as never }),
        await runToolDirectory(shout, { workspace: ws, params: { text: "x" }, signal: ac.signal }),
        await runToolDirectory(shout, { workspace: ws, params: { text: "x" }, timeoutMs: -1 }),
      ].map((r) => [r.isError, r.content.map((c) => c.text).join("")]);
    });
    expect(out).toEqual([
      [true, "runToolDirectory needs a ToolDirectory as loadToolDirectories returns it (name, language, inputs, dir, entry, env)."],
      [true, 'Tool "shout" takes an object of named inputs, got an array.'],
      [true, 'Tool "shout" was cancelled before it started.'],
      [true, 'Tool "shout" cannot run: timeoutMs must be a positive number of milliseconds, got -1.'],
    ]);
  });

  // FINDING (low): docs ("Build-time errors") list "`timeoutMs` is not a positive number" as a TypeError. Actual: with
  // an empty `tools` list (a tools directory that is still empty) every other check is skipped, so timeoutMs: NaN and
  // env: { K: 1 } are accepted silently and only fail once a tool appears.
  // FIXED: env and timeoutMs are checked before the empty-list shortcut.
  it("timeoutMs: NaN is a TypeError even while the tools list is empty", async () => {
    await withTools({}, async ({ ws }) => {
      expect(() => createAITools({ workspace: ws, toolDirectories: { tools: [], timeoutMs: Number.NaN } })).toThrow(TypeError);
    });
  });

  // FINDING (low): a hand-built list whose tool name is not snake_case (what the loader enforces, and what model APIs
  // require of tool names) is accepted at build time, e.g. "bad name!" or ""; the provider rejects the request later
  // with its own error. Expected: a TypeError at build time like the other checks of tools[i].
  // FIXED: directoryTools checks the loader's name rule (checkToolShape).
  it("a tool named 'bad name!' (hand-built list) is a TypeError at build time", async () => {
    await withTools(MINE, async ({ ws, loaded }) => {
      expect(() => createAITools({ workspace: ws, toolDirectories: { tools: [{ ...loaded.tools[0]!, name: "bad name!" }] } })).toThrow(TypeError);
    });
  });

  // FINDING (low, docs): "Build-time errors" says a TypeError when "the workspace has no `runtime` to run them (a
  // `Workspace` with backends or a getWorkspace() client has one)", implying a Workspace WITHOUT backends fails at
  // build time. Actual: it builds and offers the tools; every call is then an error result ("… needs the JavaScript
  // backend: add new WorkerJavaScriptBackend(…)"). Either behaviour is defensible; the docs should say which.
  // RESOLVED in the docs: a Workspace always has a runtime, so it builds; each call says what backend to add
  // (docs/tool-directories.md "Build-time errors" now says so).
  it("a Workspace without backends builds; a call answers which backend to add", async () => {
    await withTools(MINE, async ({ ws, loaded, state }) => {
      const bare = new Workspace({ storage: state.storage });
      const tools = createAITools({ workspace: bare, toolDirectories: loaded });
      const shout = loaded.tools.find((t) => t.language === "typescript")!;
      const out = await yields(tools, shout.name, Object.fromEntries(Object.entries(shout.inputs).filter(([, i]) => !i.optional && i.default === undefined).map(([k, i]) => [k, i.type === "number" ? 1 : i.type === "boolean" ? true : i.type === "enum" ? i.values![0] : "x"])));
      expect(JSON.stringify(out)).toContain("needs the JavaScript backend");
      void ws;
    });
  });
});

/** More tools: relative TypeScript imports, bash numbers/booleans, a slow bash tool. */
const MORE: Record<string, string> = {
  "echo_ts/TOOL.md": md("echo_ts", "inputs:\n  text:\n    type: string\n    description: t\n"),
  "echo_ts/index.ts":
    "import { shout } from './util.js';\nexport async function execute(id, params) { return { content: [{ type: 'text', text: shout(params.text) + ' keys=' + Object.keys(params).join(',') + ' plain=' + String(Object.getPrototypeOf(params) === Object.prototype && !('polluted' in params)) }] }; }\n",
  "echo_ts/util.ts": "export function shout(s: string): string { return s.toUpperCase(); }\n",
  "missing_imp/TOOL.md": md("missing_imp"),
  "missing_imp/index.ts": "import { x } from './nope.js';\nexport async function execute() { return { content: [{ type: 'text', text: x }] }; }\n",
  "nums/TOOL.md": md("nums", "inputs:\n  n:\n    type: number\n    description: n\n  b:\n    type: boolean\n    description: b\n  e:\n    type: enum\n    values: [a, b]\n    description: e\n    optional: true\n", "bash"),
  "nums/index.sh": 'echo "n=$INPUT_N b=$INPUT_B e=${INPUT_E-unset}"; cat "$TOOL_INPUT_FILE"\n',
  "slow_sh/TOOL.md": md("slow_sh", "inputs:\n  tag:\n    type: string\n    description: t\n", "bash"),
  "slow_sh/index.sh": 'sleep 0.2; cat "$TOOL_INPUT_FILE"\n',
  "sleepy/TOOL.md": md("sleepy", "", "bash"),
  "sleepy/index.sh": "sleep 30; echo never\n",
};

describe("more model input and language details", () => {
  it("TypeScript: ./util.js finds util.ts; a __proto__ key from the model's JSON and undeclared keys are dropped", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) =>
      yields(createAITools({ workspace: ws, toolDirectories: loaded }), "echo_ts", JSON.parse('{"__proto__": {"polluted": 1}, "text": "abc", "extra": 1}')),
    );
    expect(out).toEqual(["ABC keys=text plain=true"]);
  });

  it("a missing relative import is an error result naming the file looked for", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "missing_imp", {}));
    expect(out).toEqual([{ error: 'Tool "missing_imp" failed: Cannot find module "./nope.js" imported from /workspace/tools/missing_imp/index.ts (looked for /workspace/tools/missing_imp/nope.js)' }]);
  });

  it("bash: numbers and booleans as JSON in INPUT_<NAME>, an absent optional input unset, $TOOL_INPUT_FILE without it", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => {
      const tools = createAITools({ workspace: ws, toolDirectories: loaded });
      return [...(await yields(tools, "nums", { n: 1.5, b: true, e: "b" })), ...(await yields(tools, "nums", { n: 1e21, b: false }))];
    });
    expect(out).toEqual(['n=1.5 b=true e=b\n{"n":1.5,"b":true,"e":"b"}', 'n=1e+21 b=false e=unset\n{"n":1e+21,"b":false}']);
  });

  it("AI SDK: three parallel calls of one bash tool each get their own $TOOL_INPUT_FILE, and every file is removed", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => {
      const tools = createAITools({ workspace: ws, toolDirectories: loaded });
      const parallel = {
        content: [1, 2, 3].map((i) => ({ type: "tool-call" as const, toolCallId: `p${i}`, toolName: "slow_sh", input: JSON.stringify({ tag: `t${i}` }) })),
        finishReason: { unified: "tool-calls" as const, raw: undefined },
        usage,
        warnings: [],
      };
      const model = new MockLanguageModelV4({ doGenerate: [parallel, done] as never });
      await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(3) });
      return { results: [1, 2, 3].map((i) => outputFor(model, `p${i}`)), left: await ws.fs.readdir("/workspace/.tool-input") };
    });
    expect(out.results).toEqual([1, 2, 3].map((i) => ({ type: "text", value: `{"tag":"t${i}"}` })));
    expect(out.left).toEqual([]);
  });

  it("a 3 MB string input from the model is refused (maxInputBytes, 1 MiB) as an error result", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "echo_ts", { text: "x".repeat(3_000_000) }));
    expect(out).toEqual([{ error: 'Tool "echo_ts" failed: input is 3000040 bytes of JSON, over maxInputBytes (1048576)' }]);
  });

  it("a bash tool past timeoutMs reads as for JavaScript", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, timeoutMs: 1000 } }), "sleepy", {}));
    expect(out).toEqual([{ error: 'Tool "sleepy" timed out after 1000 ms and was stopped.' }]);
  });

  it("TanStack: bad input and non-JSON arguments come back as { error } texts, the loop goes on", async () => {
    const out = await withTools(MORE, async ({ ws, loaded }) => {
      const { toolMessage, chunks } = await runChat(createTanStackTools({ workspace: ws, toolDirectories: loaded }), [
        { calls: [{ id: "x1", name: "echo_ts", input: { text: 7 } }, { id: "x2", name: "echo_ts", args: "{not json" }] },
        { text: "fin" },
      ]);
      return { x1: toolMessage("x1"), x2: toolMessage("x2"), finished: chunks.filter((c) => c.type === "RUN_FINISHED").length };
    });
    expect(out).toEqual({
      x1: JSON.stringify({ error: "Input validation failed for tool echo_ts: Validation failed: text: Invalid input: expected string, received number" }),
      x2: JSON.stringify({ error: "Failed to parse tool arguments as JSON: {not json" }),
      finished: 2,
    });
  });

  it("TanStack without streamEventName: progress is dropped, the result arrives", async () => {
    const out = await withTools(MINE, async ({ ws, loaded }) => {
      const { chunks, toolMessage } = await runChat(createTanStackTools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } }), [{ calls: [{ id: "t1", name: "shout", input: { text: "q" } }] }, { text: "fin" }]);
      return { custom: chunks.filter((c) => c.type === "CUSTOM").length, result: toolMessage("t1") };
    });
    expect(out).toEqual({ custom: 0, result: "Q Q\nkey=3 env=SHOUT_KEY id=t1" });
  });
});

/** Tools for links, limits, python and masking. */
const EDGE: Record<string, string> = {
  "thrower/TOOL.md": md("thrower", "env: [KEY]\n"),
  "thrower/index.ts": "export async function execute() { throw new Error('the key is ' + JSON.stringify(process.env.KEY) + ' here'); }\n",
  "late/TOOL.md": md("late"),
  "late/index.ts": "export async function execute(id, p, s, onUpdate) { setTimeout(() => onUpdate({ content: [{ type: 'text', text: 'late' }] }), 10); return { content: [{ type: 'text', text: 'early' }] }; }\n",
  "py/TOOL.md": md("py", "", "python"),
  "py/index.py": "print('hi')\n",
  "dir_entry/TOOL.md": md("dir_entry"),
  "dir_entry/index.ts/x": "x",
  "tooldir_md/TOOL.md/x": "x",
};

/** Like withTools, but files may sit in nested directories, with links added and all four languages loaded. */
function withEdge<T>(fn: (c: Ctx) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER }), new WorkerShellBackend({ loader: env.LOADER })] });
    try {
      for (const [p, t] of Object.entries(EDGE)) {
        const full = `/workspace/tools/${p}`;
        await ws.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
        await ws.fs.writeFile(full, t);
      }
      await ws.fs.symlink("/workspace/tools", "/workspace/tools/loop");
      await ws.fs.symlink("/workspace/tools/self", "/workspace/tools/self");
      await ws.fs.symlink("/workspace/tools/thrower", "/workspace/tools/thrower_link");
      const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"], languages: ["typescript", "javascript", "bash", "python"] });
      return await fn({ ws, loaded, state });
    } finally {
      await ws.close();
    }
  });
}

describe("links, limits, python without a container, late updates, masking", () => {
  it("a link to the tools directory, a self-link, a linked duplicate, a directory named index.ts or TOOL.md: each skipped with a reason", async () => {
    const loaded = await withEdge(async ({ loaded }) => loaded);
    expect(loaded.tools.map((t) => t.name)).toEqual(["late", "py", "thrower"]);
    expect(loaded.skipped).toEqual([
      { dir: "/workspace/tools/dir_entry", name: "dir_entry", code: "no-entry", reason: "no entry file: a typescript tool needs index.ts or index.js next to TOOL.md" },
      { dir: "/workspace/tools/loop", code: "no-tool-file", reason: "no TOOL.md in the directory; a tool directory holds TOOL.md and an entry file" },
      { dir: "/workspace/tools/self", code: "unreadable", reason: "cannot read the tool directory: ELOOP: too many levels of symbolic links, stat: /workspace/tools/self" },
      { dir: "/workspace/tools/thrower_link", name: "thrower", code: "duplicate-name", reason: 'the name "thrower" is already taken by /workspace/tools/thrower; the first directory found wins' },
      { dir: "/workspace/tools/tooldir_md", code: "no-tool-file", reason: "TOOL.md is not a regular file" },
    ]);
  });

  it("a python tool loaded with languages incl. python but no container: the documented error result", async () => {
    const out = await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "py", {}));
    expect(out).toEqual([
      { error: 'Tool "py" is python and needs a container backend (ContainerBackend), which this Workspace does not have (its backends: "worker-javascript" (module), "worker-shell" (command)).' },
    ]);
  });

  it("an onUpdate after execute returned is not delivered", async () => {
    expect(await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "late", {}))).toEqual(["early"]);
  });

  it("300 tool directories: 256 load (maxTools), the rest are skipped as limit", async () => {
    const r = await withTools({}, async ({ ws }) => {
      for (let i = 0; i < 300; i++) {
        const d = `/many/t${String(i).padStart(3, "0")}`;
        await ws.fs.mkdir(d, { recursive: true });
        await ws.fs.writeFile(`${d}/TOOL.md`, md(`t${i}`));
        await ws.fs.writeFile(`${d}/index.ts`, "export async function execute() { return { content: [] }; }\n");
      }
      return loadToolDirectories({ workspace: ws, dirs: ["/many"] });
    });
    expect([r.tools.length, r.skipped.length]).toEqual([256, 44]);
    expect(r.skipped[0]).toEqual({ dir: "/many/t256", name: "t256", code: "limit", reason: "more than 256 tools (maxTools); this one was not loaded" });
  });

  it("a realistic env value is masked in the error text", async () => {
    const out = await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { KEY: "tok-123456" } } }), "thrower", {}));
    expect(out).toEqual([{ error: 'Tool "thrower" failed (exit 1): the key is "***" here' }]);
  });

  // FINDING (medium): docs ("Secrets") say every `env` value the tool received is replaced by `***` in error texts.
  // `env` is documented for any host variable, not only secrets, so short values ("1", "us", "true") are normal.
  // Masking is a plain substring replace over the WHOLE text, the runner's own words included: with KEY="1" the error
  // reads 'Tool "thrower" failed (exit ***): the key is "***" here'; with KEY="e" it is
  // 'Tool "throw***r" fail***d (***xit 1): th*** k***y is …' — unreadable, and the masked positions spell out the value.
  // Expected: the runner's own prefix intact (mask only the tool's output/message, or skip values too short to be secrets).
  // FIXED: run.ts no longer masks the whole error text; each error is the runner's unmasked words + the masked part
  // from the tool (stderr, stdout, thrown message, its own isError result, shown input values).
  it("a short env value (KEY=\"1\") leaves the runner's own 'failed (exit 1)' wording intact", async () => {
    const out = await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { KEY: "1" } } }), "thrower", {}));
    expect(String((out[0] as { error: string }).error)).toMatch(/^Tool "thrower" failed \(exit 1\): /);
  });

  it("short env values: the runner's words stay whole, the tool's own text is still masked", async () => {
    const one = await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { KEY: "1" } } }), "thrower", {}));
    expect(one).toEqual([{ error: 'Tool "thrower" failed (exit 1): the key is "***" here' }]);
    const e = await withEdge(async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { KEY: "e" } } }), "thrower", {}));
    expect(e).toEqual([{ error: 'Tool "thrower" failed (exit 1): th*** k***y is "***" h***r***' }]);
  });
});

const TICKER: Record<string, string> = {
  ...MINE,
  "ticker/TOOL.md": md("ticker", "readonly: true\n"),
  "ticker/index.ts":
    "export async function execute(id, p, s, onUpdate) { let i = 0; await new Promise(() => setInterval(() => onUpdate({ content: [{ type: 'text', text: 'tick ' + (++i) }] }), 20)); return { content: [] }; }\n",
};

describe("over Workers RPC (a getWorkspace() client of GitAgent)", () => {
  it("pi: my tools load through the client; progress crosses RPC; aborting on the second tick kills the run", async () => {
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    for (const [p, t] of Object.entries(TICKER)) {
      await ws.fs.mkdir(`/workspace/tools/${p.slice(0, p.indexOf("/"))}`, { recursive: true });
      await ws.fs.writeFile(`/workspace/tools/${p}`, t);
    }
    const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
    expect(loaded.tools.map((t) => t.name)).toEqual(["lines", "shout", "ticker"]);
    const pi = createPiTools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } });
    const progress: string[] = [];
    const shout = await pi.execute({ type: "toolCall", id: "r1", name: "shout", arguments: { text: "rpc" } } as never, { onUpdate: (p) => progress.push((p.content[0] as { text: string }).text) });
    expect([shout.content, progress]).toEqual([
      [
        { type: "text", text: "RPC RPC" },
        { type: "text", text: "key=3 env=SHOUT_KEY id=r1" },
      ],
      ["step 1 of 2", "step 2 of 2"],
    ]);
    const ac = new AbortController();
    const ticks: string[] = [];
    const ticker = await pi.execute({ type: "toolCall", id: "r2", name: "ticker", arguments: {} } as never, {
      abortSignal: ac.signal,
      onUpdate: (p) => {
        ticks.push((p.content[0] as { text: string }).text);
        if (ticks.length === 2) ac.abort();
      },
    });
    const cancelled = [{ type: "text", text: 'Tool "ticker" was cancelled.' }];
    expect(ticker).toEqual({ content: cancelled, isError: true, details: { content: cancelled, isError: true } });
    expect(ticks.slice(0, 2)).toEqual(["tick 1", "tick 2"]);
    expect(ticks.length).toBeLessThan(50);
  });
});

const SHAPES: Record<string, string> = {
  "loose_err/TOOL.md": md("loose_err"),
  "loose_err/index.ts": ts("return { content: [{ type: 'text', text: 'a', extra: 1 }], isError: 'yes', details: { x: 1 } };"),
  "img_block/TOOL.md": md("img_block"),
  "img_block/index.ts": ts("return { content: [{ type: 'image', text: 'pic' }, { type: 'text', text: 'b' }] };"),
  "num_text/TOOL.md": md("num_text"),
  "num_text/index.ts": ts("return { content: [{ type: 'text', text: 42 }] };"),
  "empty_content/TOOL.md": md("empty_content"),
  "empty_content/index.ts": ts("return { content: [] };"),
};

describe("result shapes", () => {
  it("pi: isError other than true is false, extra keys dropped, every block a text block; empty content is an empty result", async () => {
    const out = await withTools(SHAPES, async ({ ws, loaded }) => {
      const pi = createPiTools({ workspace: ws, toolDirectories: loaded });
      const r = async (name: string) => {
        const { content, isError } = await pi.execute({ type: "toolCall", id: "s", name, arguments: {} } as never);
        return { content, isError };
      };
      return [await r("loose_err"), await r("img_block"), await r("empty_content")];
    });
    expect(out).toEqual([
      { content: [{ type: "text", text: "a" }], isError: false },
      { content: [{ type: "text", text: "pic" }, { type: "text", text: "b" }], isError: false },
      { content: [], isError: false },
    ]);
  });

  it("a block whose text is not a string is a malformed result", async () => {
    const out = await withTools(SHAPES, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: loaded }), "num_text", {}));
    expect(out).toEqual([
      { error: 'Tool "num_text" returned a malformed result: execute returned content[0] = an object without a string type and text: return { content: [{ type: "text", text: "…" }], isError?: boolean }.' },
    ]);
  });
});

const BURST: Record<string, string> = {
  "burst/TOOL.md": md("burst"),
  "burst/index.ts": ts("for (let i = 1; i <= 100; i++) onUpdate({ content: [{ type: 'text', text: 'u' + i }] }); return { content: [{ type: 'text', text: 'done' }] };"),
};

describe("progress bursts and the schema the model sees", () => {
  it("the JSON Schema the AI SDK sends: descriptions, the default, only `text` required", async () => {
    const schema = await withTools(MINE, async ({ ws, loaded }) => {
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env: SECRETS } });
      const model = new MockLanguageModelV4({ doGenerate: [done] as never });
      await generateText({ model, prompt: "go", tools });
      const t = (model.doGenerateCalls[0]!.tools ?? []).find((x) => x.name === "shout") as { inputSchema: Record<string, unknown>; description: string };
      return { s: t.inputSchema, d: t.description };
    });
    expect(schema.d).toBe("Upper-case a text, with a signing key.\n\n# Shout\n\nBody here.");
    expect(schema.s.required).toEqual(["text"]);
    expect(schema.s.properties).toEqual({ text: { type: "string", description: "The text." }, times: { type: "number", description: "Repeats.", default: 2 } });
  });

  // FINDING (low, docs vs code): "Every update is delivered, in order, before the result — also when several arrive in
  // one burst of output" — the bound (64 waiting updates) is described as applying "while the loop is busy". A burst
  // of 100 updates printed at once, consumed by an idle pi caller, delivers only the last 64 (u37…u100): the burst
  // itself overflows the queue. Expected (per the sentence): u1…u100; actual: 64 of them. Either the docs should say
  // that a burst over 64 loses its oldest, or a burst should be delivered whole.
  // RESOLVED in the docs: a burst over the queue's 64 updates loses its oldest (the docs now say the queue bounds
  // bursts too); the last 64 arrive, in order.
  it("pi: a burst of 100 updates with an idle caller delivers the last 64, in order", async () => {
    const got = await withTools(BURST, async ({ ws, loaded }) => {
      const seen: string[] = [];
      await createPiTools({ workspace: ws, toolDirectories: loaded }).execute({ type: "toolCall", id: "b", name: "burst", arguments: {} } as never, { onUpdate: (p) => seen.push((p.content[0] as { text: string }).text) });
      return seen;
    });
    expect(got).toEqual(Array.from({ length: 64 }, (_, i) => `u${i + 37}`));
  });
});

const CLASH: Record<string, string> = {
  "clash/TOOL.md": md("clash", "env: [INPUT_PATH, TOOL_INPUT_FILE, TOOL_CALL_ID, PATH]\ninputs:\n  path:\n    type: string\n    description: p\n", "bash"),
  "clash/index.sh": 'echo "path=$INPUT_PATH id=$TOOL_CALL_ID PATH=$PATH"; case "$TOOL_INPUT_FILE" in /workspace/.tool-input/*.json) echo file-ok;; *) echo "file=$TOOL_INPUT_FILE";; esac\n',
  "bigenv/TOOL.md": md("bigenv", "env: [BIG]\n"),
  "bigenv/index.ts": "export async function execute() { return { content: [{ type: 'text', text: String(process.env.BIG.length) }] }; }\n",
};

describe("env names that clash with the runner's variables, and env size", () => {
  it("host env cannot override INPUT_<NAME>, $TOOL_INPUT_FILE or $TOOL_CALL_ID: a tool listing them is skipped", async () => {
    const skipped = await withTools(CLASH, async ({ loaded }) => loaded.skipped.map((k) => [k.name, k.code, k.reason]));
    expect(skipped).toEqual([
      [
        "clash",
        "invalid",
        "TOOL.md: env cannot list INPUT_PATH: the runner sets it (PATH, HOME, PWD, SHELL, IFS, TOOL_INPUT_FILE, TOOL_CALL_ID and INPUT_<NAME> are reserved); pass the value under another name",
      ],
    ]);
  });

  it("an env value over 1 MiB is an error result (maxEnvBytes; not in the docs)", async () => {
    const out = await withTools(CLASH, async ({ ws, loaded }) => yields(createAITools({ workspace: ws, toolDirectories: { ...loaded, env: { BIG: "k".repeat(2_000_000) } } }), "bigenv", {}));
    expect(out).toEqual([{ error: 'Tool "bigenv" failed: env is 2000003 bytes, over maxEnvBytes (1048576)' }]);
  });

  // FINDING (low): the loader accepts `env: [PATH]` (and INPUT_*/TOOL_* names, which never reach the tool). When the
  // host's one env map holds PATH (docs: "One map can serve every tool"), it replaces the shell's PATH and every bash
  // tool listing it dies with 'Tool "clash" failed (exit 127): bash: pwd: command not found\nbash: bash: command not
  // found' — nothing says PATH came from `env`. Expected: the loader refuses reserved names (PATH, INPUT_*, TOOL_*) with
  // a reason, or the runner keeps the shell's PATH.
  // FIXED: the loader refuses reserved env names (RESERVED_ENV_NAMES, INPUT_*), naming the one it found, so a host
  // PATH can no longer replace the shell's.
  it("a bash tool listing PATH under env is skipped with a reason naming PATH", async () => {
    const files = { "pathy/TOOL.md": md("pathy", "env: [PATH]\n", "bash"), "pathy/index.sh": "pwd\n" };
    const skipped = await withTools(files, async ({ loaded }) => loaded.skipped.map((k) => [k.name, k.code, k.reason.split(":").slice(0, 2).join(":")]));
    expect(skipped).toEqual([["pathy", "invalid", "TOOL.md: env cannot list PATH"]]);
  });
});
