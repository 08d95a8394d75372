/**
 * The `root` option (spec 03 §2.4): relative paths resolve against root;
 * paths outside it — directly, through `..`, or through a symbolic link
 * (to a directory, to a file, in a chain, at the root itself) — are
 * refused and change nothing; find/grep/ls stay inside. Every script runs
 * through the real loop of each library: AI SDK generateText, pi 0.74 and
 * 1.x, TanStack chat().
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { buildCoreTools, type CreateToolsOptions } from "../../../src/tools/core/toolset.js";
import { confineFs, resolveToolPath } from "../../../src/tools/core/root.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import type { Workspace } from "../../../src/workspace.js";
import { makeWorkspace, text } from "./helpers.js";
import { publishSetup } from "./publish-helpers.js";
import { runChat } from "./tanstack-helpers.js";

type Call = { id: string; name: string; input: Record<string, unknown> };
/** What the model saw for a call: `{ error }` for a failure (returned or thrown), the parsed JSON, or the text. */
type Seen = unknown;

function fromText(value: unknown): Seen {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Runs `calls` (one per step) through one library's real loop over a fresh
 * workspace; what the model saw, by call id. `thrown` is how the library
 * shows the model a tool that threw (read's refusals): the AI SDK sends
 * `String(error)`, pi and TanStack the message.
 */
type Runner = { name: string; thrown(message: string): Seen; run(make: () => Promise<Workspace>, options: Omit<CreateToolsOptions, "workspace">, calls: Call[]): Promise<{ seen: Map<string, Seen>; workspace: Workspace }> };

const piLoops = PI_MAJORS.map((major) => ({ major, runLoop: major.piLoop() }));

const RUNNERS: Runner[] = [
  {
    name: "AI SDK generateText",
    thrown: (message) => ({ error: `Error: ${message}` }),
    async run(make, options, calls) {
      const workspace = await make();
      const model = new MockLanguageModelV4({ doGenerate: [...calls.map((c) => call(c.id, c.name, c.input)), done] });
      await generateText({ model, prompt: "go", tools: createAITools({ ...options, workspace }), stopWhen: stepCountIs(calls.length + 2) });
      const seen = new Map<string, Seen>();
      for (const c of calls) {
        const output = outputFor(model, c.id) as { type: string; value: unknown };
        seen.set(c.id, output.type === "error-text" ? { error: output.value } : output.type === "text" ? fromText(output.value) : output.value);
      }
      return { seen, workspace };
    },
  },
  ...piLoops.map(({ major, runLoop }): Runner => ({
    name: `pi ${major.name}`,
    thrown: (message) => ({ error: message }),
    async run(make, options, calls) {
      const workspace = await make();
      // The loop takes at most 20 turns: four calls per step (run in order).
      const steps = [];
      for (let i = 0; i < calls.length; i += 4) steps.push(step(major, ...calls.slice(i, i + 4).map((c) => major.fauxToolCall(c.name, c.input, { id: c.id }))));
      const { results } = await runLoop(createPiTools({ ...options, workspace }), [...steps, major.fauxAssistantMessage("done")]);
      const seen = new Map<string, Seen>();
      for (const c of calls) {
        const result = results.get(c.id)!;
        const body = result.content.map((part) => part.text).join("\n");
        seen.set(c.id, result.isError ? { error: body } : fromText(body));
      }
      return { seen, workspace };
    },
  })),
  {
    name: "TanStack chat()",
    thrown: (message) => ({ error: message }),
    async run(make, options, calls) {
      const workspace = await make();
      // chat() stops after 5 model turns: at most 4 steps of calls (a step's calls may run in parallel; the last runs alone).
      const last = calls.length - 1;
      const size = Math.max(1, Math.ceil(last / 3));
      const groups = [];
      for (let i = 0; i < last; i += size) groups.push(calls.slice(i, Math.min(i + size, last)));
      groups.push(calls.slice(last));
      const chat = await runChat(createTanStackTools({ ...options, workspace }), [
        ...groups.map((group) => ({ calls: group.map((c) => ({ id: c.id, name: c.name, input: c.input })) })),
        { text: "done" },
      ]);
      const seen = new Map<string, Seen>();
      for (const c of calls) seen.set(c.id, fromText(chat.toolMessage(c.id)));
      return { seen, workspace };
    },
  },
];

/**
 * /workspace/proj (the root): f.txt, src/a.ts, and links: ghost → /outside
 * (a directory outside), leak.txt → /outside/secret.txt (a file outside),
 * hop1 → hop2 → /outside/secret.txt (a chain), inner → src (inside root).
 * Outside it: /workspace/sibling.txt and /outside/secret.txt.
 */
async function tree(): Promise<Workspace> {
  const workspace = await makeWorkspace();
  const fs = workspace.fs;
  await fs.mkdir("/workspace/proj/src", { recursive: true });
  await fs.mkdir("/outside", { recursive: true });
  await fs.writeFile("/workspace/proj/f.txt", "inside\n");
  await fs.writeFile("/workspace/proj/src/a.ts", "export const secret = 1;\n");
  await fs.writeFile("/workspace/sibling.txt", "sibling\n");
  await fs.writeFile("/outside/secret.txt", "secret\n");
  await fs.symlink("/outside", "/workspace/proj/ghost");
  await fs.symlink("/outside/secret.txt", "/workspace/proj/leak.txt");
  await fs.symlink("hop2", "/workspace/proj/hop1");
  await fs.symlink("/outside/secret.txt", "/workspace/proj/hop2");
  await fs.symlink("src", "/workspace/proj/inner");
  return workspace;
}

const ROOT = "/workspace/proj";
const outside = (input: string) => ({ error: `Path is outside ${ROOT}: ${input}` });
const linked = (link: string) => ({ error: `Path contains a symbolic link: ${link}` });
/** An expectation for read, which throws its refusals (they are not ENOENT, spec 03 §2.4): shown per library. */
const thrown = (expected: { error: string }) => ({ thrown: expected.error });
const EDIT = [{ oldText: "secret", newText: "pwned" }];

/** Every file and link under `/`, with file contents and link targets: the whole store. */
async function snapshot(workspace: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await workspace.fs.find("/", "**")) {
    if (entry.type === "file") out[entry.path] = await text(workspace, entry.path);
    else if ((entry.type as string) === "symlink") out[entry.path] = `-> ${await workspace.fs.readlink(entry.path)}`;
    else out[entry.path] = "dir";
  }
  return out;
}

describe("root (spec 03 §2.4) through the three adapters' own loops", () => {
  it("every way out is refused, relative paths resolve against root, and nothing outside changes", async () => {
    const before = await snapshot(await tree());
    const listing = (await (await tree()).fs.readdir(ROOT)).map((e) => ({
      name: e.name, isFile: e.isFile, isDirectory: e.isDirectory, isSymbolicLink: e.isSymbolicLink,
    }));
    expect(listing.map((e) => e.name)).toEqual(["f.txt", "ghost", "hop1", "hop2", "inner", "leak.txt", "src"]);
    const calls: Call[] = [
      // Relative paths resolve against root and are echoed as given.
      { id: "rel", name: "read", input: { path: "f.txt" } },
      { id: "dot", name: "read", input: { path: "./src/../f.txt" } },
      { id: "abs", name: "read", input: { path: "/workspace/proj/f.txt" } },
      // Outside: directly, and through `..` (read throws: the error is not ENOENT).
      { id: "up", name: "read", input: { path: "../sibling.txt" } },
      { id: "deep-up", name: "read", input: { path: "src/../../sibling.txt" } },
      { id: "direct", name: "read", input: { path: "/workspace/sibling.txt" } },
      { id: "etc", name: "ls", input: { path: "/etc" } },
      // A link to a file outside, a link to a directory outside, a chain, a link that stays inside.
      { id: "leak", name: "read", input: { path: "leak.txt" } },
      { id: "ghost-read", name: "read", input: { path: "ghost/secret.txt" } },
      { id: "chain", name: "read", input: { path: "hop1" } },
      { id: "inner", name: "read", input: { path: "inner/a.ts" } },
      { id: "ghost-ls", name: "ls", input: { path: "ghost" } },
      // find and grep: the default path lies outside; from root, links are listed, never followed.
      { id: "find-default", name: "find", input: { pattern: "**" } },
      { id: "find", name: "find", input: { path: ".", pattern: "**" } },
      { id: "find-ghost", name: "find", input: { path: "ghost", pattern: "**" } },
      { id: "grep", name: "grep", input: { path: ".", query: "secret" } },
      { id: "grep-ghost", name: "grep", input: { path: "/workspace/proj/ghost", query: "secret" } },
      { id: "grep-leak", name: "grep", input: { path: "leak.txt", query: "secret" } },
      // Mutations: nothing outside is created, changed or removed.
      { id: "w-ghost", name: "write", input: { path: "ghost/new.txt", content: "x" } },
      { id: "w-up", name: "write", input: { path: "../escape.txt", content: "x" } },
      { id: "w-abs", name: "write", input: { path: "/outside/new.txt", content: "x" } },
      { id: "w-inner", name: "write", input: { path: "inner/new.txt", content: "x" } },
      { id: "e-leak", name: "edit", input: { path: "leak.txt", edits: EDIT } },
      { id: "e-chain", name: "edit", input: { path: "hop1", edits: EDIT } },
      { id: "d-ghost", name: "delete", input: { path: "ghost" } },
      { id: "d-up", name: "delete", input: { path: "../sibling.txt" } },
      { id: "w-ok", name: "write", input: { path: "sub/new.txt", content: "hello" } },
      { id: "ls", name: "ls", input: { path: "." } },
    ];
    const expected: Record<string, Seen> = {
      rel: "inside",
      dot: "inside",
      abs: "inside",
      up: thrown(outside("../sibling.txt")),
      "deep-up": thrown(outside("src/../../sibling.txt")),
      direct: thrown(outside("/workspace/sibling.txt")),
      etc: outside("/etc"),
      leak: thrown(linked("/workspace/proj/leak.txt")),
      "ghost-read": thrown(linked("/workspace/proj/ghost")),
      chain: thrown(linked("/workspace/proj/hop1")),
      inner: thrown(linked("/workspace/proj/inner")),
      "ghost-ls": linked("/workspace/proj/ghost"),
      "find-default": outside("/workspace"),
      "find-ghost": linked("/workspace/proj/ghost"),
      grep: { path: ".", query: "secret", count: 1, matches: [{ path: "/workspace/proj/src/a.ts", line: 1, text: "export const secret = 1;" }] },
      "grep-ghost": linked("/workspace/proj/ghost"),
      "grep-leak": linked("/workspace/proj/leak.txt"),
      "w-ghost": linked("/workspace/proj/ghost"),
      "w-up": outside("../escape.txt"),
      "w-abs": outside("/outside/new.txt"),
      "w-inner": linked("/workspace/proj/inner"),
      "e-leak": linked("/workspace/proj/leak.txt"),
      "e-chain": linked("/workspace/proj/hop1"),
      "d-ghost": linked("/workspace/proj/ghost"),
      "d-up": outside("../sibling.txt"),
      "w-ok": { path: "sub/new.txt", bytesWritten: 5 },
    };
    for (const runner of RUNNERS) {
      const { seen, workspace } = await runner.run(tree, { root: ROOT }, calls);
      const got = Object.fromEntries(calls.filter((c) => c.id !== "ls" && c.id !== "find").map((c) => [c.id, seen.get(c.id)]));
      const want = Object.fromEntries(Object.entries(expected).map(([id, v]) => [id, typeof v === "object" && v !== null && "thrown" in v ? runner.thrown((v as { thrown: string }).thrown) : v]));
      expect(got, runner.name).toEqual(want);
      // find from root: every entry, links reported and not descended (nothing from /outside).
      const found = seen.get("find") as { entries: Array<{ path: string; type: string }>; count: number; path: string };
      expect([found.path, found.count], runner.name).toEqual([".", 8]);
      expect(found.entries, runner.name).toEqual([
        { path: "/workspace/proj/f.txt", type: "file" },
        { path: "/workspace/proj/ghost", type: "symlink" },
        { path: "/workspace/proj/hop1", type: "symlink" },
        { path: "/workspace/proj/hop2", type: "symlink" },
        { path: "/workspace/proj/inner", type: "symlink" },
        { path: "/workspace/proj/leak.txt", type: "symlink" },
        { path: "/workspace/proj/src", type: "dir" },
        { path: "/workspace/proj/src/a.ts", type: "file" },
      ]);
      // ls of root (relative `.`): its entries, links not followed, plus the new sub/.
      const ls = seen.get("ls") as { path: string; count: number; entries: Array<Record<string, unknown>> };
      expect(ls.path, runner.name).toBe(".");
      expect(ls.entries.map((e) => ({ name: e.name, isFile: e.isFile, isDirectory: e.isDirectory, isSymbolicLink: e.isSymbolicLink })), runner.name).toEqual([
        ...listing.slice(0, 6),
        { name: "src", isFile: false, isDirectory: true, isSymbolicLink: false },
        { name: "sub", isFile: false, isDirectory: true, isSymbolicLink: false },
      ]);
      // The store: exactly the one allowed write added; everything else byte-identical.
      expect(await snapshot(workspace), runner.name).toEqual({ ...before, "/workspace/proj/sub": "dir", "/workspace/proj/sub/new.txt": "hello" });
    }
  });

  it("the issue's reproduction: with root /workspace, /workspace/ghost → /outside cannot create /outside/new.txt", async () => {
    const make = async () => {
      const workspace = await makeWorkspace();
      await workspace.fs.mkdir("/outside");
      await workspace.fs.symlink("/outside", "/workspace/ghost");
      return workspace;
    };
    // Without root the write goes through the link (today's behaviour, unchanged by default).
    const open = await make();
    expect(await createAITools({ workspace: open }).write!.execute!({ path: "/workspace/ghost/new.txt", content: "x" }, { toolCallId: "w", messages: [] } as never)).toEqual({
      path: "/workspace/ghost/new.txt",
      bytesWritten: 1,
    });
    expect(await text(open, "/outside/new.txt")).toBe("x");
    const calls: Call[] = [
      { id: "w", name: "write", input: { path: "/workspace/ghost/new.txt", content: "x" } },
      { id: "w-rel", name: "write", input: { path: "ghost/new.txt", content: "x" } },
      { id: "mk", name: "write", input: { path: "ghost/deeper/new.txt", content: "x" } },
    ];
    for (const runner of RUNNERS) {
      const { seen, workspace } = await runner.run(make, { root: "/workspace" }, calls);
      for (const c of calls) expect(seen.get(c.id), `${runner.name} ${c.id}`).toEqual({ error: "Path contains a symbolic link: /workspace/ghost" });
      expect(await workspace.fs.readdir("/outside"), runner.name).toEqual([]);
      expect(await snapshot(workspace), runner.name).toEqual({ "/outside": "dir", "/workspace": "dir", "/workspace/ghost": "-> /outside" });
    }
  });

  it("a root that is itself a link, or lies under one, is refused", async () => {
    const make = async () => {
      const workspace = await makeWorkspace();
      await workspace.fs.mkdir("/outside");
      await workspace.fs.writeFile("/outside/secret.txt", "secret\n");
      await workspace.fs.symlink("/outside", "/workspace/proj");
      return workspace;
    };
    const calls: Call[] = [
      { id: "r", name: "read", input: { path: "secret.txt" } },
      { id: "w", name: "write", input: { path: "new.txt", content: "x" } },
    ];
    for (const runner of RUNNERS) {
      const { seen, workspace } = await runner.run(make, { root: "/workspace/proj/" }, calls);
      expect(seen.get("r"), runner.name).toEqual(runner.thrown("Path contains a symbolic link: /workspace/proj"));
      expect(seen.get("w"), runner.name).toEqual({ error: "Path contains a symbolic link: /workspace/proj" });
      expect(await workspace.fs.readdir("/outside").then((l) => l.map((e) => e.name)), runner.name).toEqual(["secret.txt"]);
    }
  });
  it("a root that does not exist yet is created by the first write, relative or absolute", async () => {
    const calls: Call[] = [
      { id: "top", name: "write", input: { path: "notes.md", content: "n" } },
      { id: "read", name: "read", input: { path: "/workspace/new/notes.md" } },
    ];
    for (const runner of RUNNERS) {
      const { seen, workspace } = await runner.run(makeWorkspace, { root: "/workspace/new" }, calls);
      expect(seen.get("top"), runner.name).toEqual({ path: "notes.md", bytesWritten: 1 });
      expect(seen.get("read"), runner.name).toEqual("n");
      expect(await snapshot(workspace), runner.name).toEqual({ "/workspace": "dir", "/workspace/new": "dir", "/workspace/new/notes.md": "n" });
    }
    // Without root a relative path is still refused by the filesystem, and creates nothing.
    const workspace = await makeWorkspace();
    const result = (await buildCoreTools({ workspace }).find((t) => t.name === "write")!.execute({ path: "x/y.txt", content: "n" })) as { error: string };
    expect(result.error).toMatch(/^EINVAL/);
    expect(await snapshot(workspace)).toEqual({ "/workspace": "dir" });
  });
});

describe("root: building and sharing", () => {
  it("a relative or non-string root throws at build time in every adapter; an fs without lstat too", async () => {
    const workspace = await makeWorkspace();
    const message = 'root must be an absolute path such as "/workspace/project", got "proj"';
    expect(() => createAITools({ workspace, root: "proj" })).toThrow(new TypeError(message));
    expect(() => createPiTools({ workspace, root: "proj" })).toThrow(new TypeError(message));
    expect(() => createTanStackTools({ workspace, root: "proj" })).toThrow(new TypeError(message));
    expect(() => createAITools({ workspace, root: 7 as never })).toThrow(new TypeError('root must be an absolute path such as "/workspace/project", got number'));
    const { lstat: _lstat, ...rest } = Object.fromEntries(
      (["stat", "lstat", "readFile", "writeFile", "mkdir", "rm", "find", "grep", "readdir"] as const).map((m) => [m, workspace.fs[m].bind(workspace.fs)]),
    );
    expect(() => createAITools({ workspace: { fs: rest as never }, root: "/workspace" })).toThrow(
      new TypeError("the root option needs workspace.fs.lstat, to refuse symbolic links; pass a Workspace or a getWorkspace() client"),
    );
    // Without lstat and without root: built as before.
    expect(Object.keys(createAITools({ workspace: { fs: rest as never } }))).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
  });

  it("one confined view per (fs, root); every set over the fs locks the same file under one key, however its path is written", async () => {
    const workspace = await makeWorkspace();
    expect(confineFs(workspace.fs, "/workspace")).toBe(confineFs(workspace.fs, "/workspace"));
    expect(confineFs(workspace.fs, "/workspace")).not.toBe(confineFs(workspace.fs, "/workspace/proj"));
    await workspace.fs.mkdir("/workspace/proj");
    await workspace.fs.writeFile("/workspace/proj/x.txt", "a b c d\n");
    // Four concurrent edits of one file, each changing one word, each naming the file differently
    // (relative under root, absolute under root, through another root, with no root). Each edit
    // reads, changes and writes the whole file: without one lock, later writes drop earlier edits.
    const editOf = (options: Omit<CreateToolsOptions, "workspace">) => buildCoreTools({ workspace, ...options }).find((t) => t.name === "edit")!;
    const edit = (tool: ReturnType<typeof editOf>, path: string, from: string) =>
      tool.execute({ path, edits: [{ oldText: from, newText: from.toUpperCase() }] }) as Promise<{ editsApplied?: number; error?: string }>;
    const results = await Promise.all([
      edit(editOf({ root: "/workspace/proj" }), "x.txt", "a"),
      edit(editOf({ root: "/workspace/proj" }), "/workspace/proj/./x.txt", "b"),
      edit(editOf({ root: "/workspace" }), "proj/x.txt", "c"),
      edit(editOf({}), "/workspace/proj/x.txt", "d"),
    ]);
    expect(results.map((r) => r.error ?? r.editsApplied)).toEqual([1, 1, 1, 1]);
    expect(await text(workspace, "/workspace/proj/x.txt")).toBe("A B C D\n");
  });

  it("resolveToolPath: the single resolution every tool shares", async () => {
    const workspace = await tree();
    const fs = workspace.fs;
    expect(await resolveToolPath(fs, ROOT, "")).toBe(ROOT);
    expect(await resolveToolPath(fs, ROOT, "a//b/./c/..")).toBe("/workspace/proj/a/b");
    expect(await resolveToolPath(fs, ROOT, "/workspace/proj")).toBe(ROOT);
    // A missing component ends the check: nothing below it can be a link.
    expect(await resolveToolPath(fs, ROOT, "missing/ghost")).toBe("/workspace/proj/missing/ghost");
    // A file in the middle ends it too (the operation reports its own error).
    expect(await resolveToolPath(fs, ROOT, "f.txt/x")).toBe("/workspace/proj/f.txt/x");
    await expect(resolveToolPath(fs, ROOT, "/workspace/projx")).rejects.toMatchObject({ code: "EACCES", path: "/workspace/projx", message: "Path is outside /workspace/proj: /workspace/projx" });
    await expect(resolveToolPath(fs, ROOT, "/..")).rejects.toMatchObject({ code: "EACCES", path: "/", message: "Path is outside /workspace/proj: /.." });
    await expect(resolveToolPath(fs, ROOT, "ghost/x/y")).rejects.toMatchObject({ code: "EACCES", path: "/workspace/proj/ghost", message: "Path contains a symbolic link: /workspace/proj/ghost" });
    await expect(resolveToolPath(fs, "/", "/workspace/proj/inner")).rejects.toMatchObject({ message: "Path contains a symbolic link: /workspace/proj/inner" });
    await expect(resolveToolPath(fs, ROOT, 5 as never)).rejects.toThrow(new TypeError("path must be a string, got number"));
  });
});

describe("root: publish", () => {
  it("shares the resolved path; outside paths and links are refused before share is called", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/proj/r.md": "# r\n", "/workspace/other.md": "# o\n" } });
    await workspace.fs.symlink("/workspace/other.md", "/workspace/proj/l.md");
    const ai = createAITools({ workspace, root: ROOT });
    const pi = createPiTools({ workspace, root: ROOT });
    const ts = createTanStackTools({ workspace, root: ROOT, format: "object" });
    const ok = { ok: true, url: "https://assets.test/agent-s1/r.md?expiresAfter=3600000&bytes=4" };
    const opts = { toolCallId: "a", messages: [] } as never;
    expect(await ai.publish!.execute!({ path: "r.md" }, opts)).toEqual(ok);
    expect((await pi.execute({ id: "p", name: "publish", arguments: { path: "r.md" } })).details).toEqual(ok);
    expect(await ts.publish!.execute({ path: "r.md" })).toEqual(ok);
    expect(await ai.publish!.execute!({ path: "../other.md" }, opts)).toStrictEqual({ ok: false, error: "Path is outside /workspace/proj: ../other.md" });
    expect(await pi.execute({ id: "p", name: "publish", arguments: { path: "l.md" } })).toMatchObject({
      isError: true, content: [{ type: "text", text: "Path contains a symbolic link: /workspace/proj/l.md" }],
    });
    expect(await ts.publish!.execute({ path: "/workspace/other.md" })).toStrictEqual({ error: "Path is outside /workspace/proj: /workspace/other.md" });
    expect(assets.calls.map((c) => c.path)).toEqual(["/workspace/proj/r.md", "/workspace/proj/r.md", "/workspace/proj/r.md"]);
  });
});
