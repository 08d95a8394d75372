/**
 * Git wiring on Node (spec 04 §2.2, §2.6): `workspace.git` (unconfigured →
 * synchronous throw; configured → factory once, on first read, cached),
 * `host.git` for backends and host modules, the `ws:git` argv rules
 * (`foldCliPath`, `isNetworkCommand`), and the shell built-in's env/stdin
 * forwarding inside a real just-bash shell.
 */
import { Bash } from "just-bash";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { WorkspaceBackendHost, WorkspaceModuleBackend } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import type { GitClient, GitClientFactory, WorkspaceGitClientOptions } from "../../../src/git/index.js";
import { createGitModule, foldCliPath, GIT_PATH_OVERRIDE_MESSAGE, isNetworkCommand } from "../../../src/modules/git.js";
import { defineGitCommand } from "../../../src/backends/worker-shell/index.js";
import { decodeStdin, flattenEnv } from "../../../src/backends/worker-shell/commands.js";
import type { GitCommandOptions } from "../../../src/backends/worker-shell/index.js";

const NOT_CONFIGURED = "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git";

/** A module backend that keeps the host its connect received. */
class CaptureBackend implements WorkspaceModuleBackend {
  readonly protocol = "module" as const;
  readonly id = "capture";
  readonly type = "capture";
  host?: WorkspaceBackendHost;
  async connect(host: WorkspaceBackendHost) {
    this.host = host;
    return {
      async exec(): Promise<never> {
        throw new Error("not used");
      },
      async getExec(): Promise<never> {
        throw new Error("not used");
      },
      async killExec() {},
    } as never;
  }
}

describe("workspace.git", () => {
  it("unconfigured: throws synchronously, naming createGitClient() from agent-computer/git as WorkspaceOptions.git (code ENOCONFIG)", () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    let thrown: unknown;
    try {
      void ws.git;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(NOT_CONFIGURED);
    expect((thrown as { code?: unknown }).code).toBe("ENOCONFIG");
  });

  it("configured: the factory runs once, on the first read, with { ws, defaultIdentity }; every read is the same client", async () => {
    const calls: WorkspaceGitClientOptions[] = [];
    const real = createGitClient();
    const factory: GitClientFactory = (options) => {
      calls.push(options);
      return real(options);
    };
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: factory, defaultGitIdentity: { name: "Ada", email: "ada@example.com" } });
    expect(calls).toHaveLength(0);
    const first = ws.git;
    expect(ws.git).toBe(first);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.ws).toBe(ws);
    expect(calls[0]!.defaultIdentity).toEqual({ name: "Ada", email: "ada@example.com" });
    // The identity reaches commits made through this client.
    await ws.fs.mkdir("/repo");
    await first.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/a.txt", "a\n");
    await first.add({ dir: "/repo", paths: ["a.txt"] });
    await first.commit({ dir: "/repo", message: "one" });
    const [commit] = await first.log({ dir: "/repo" });
    expect([commit!.author.name, commit!.author.email, commit!.committer.name]).toEqual(["Ada", "ada@example.com", "Ada"]);
  });

  it("without defaultGitIdentity the factory gets no defaultIdentity key", () => {
    const calls: WorkspaceGitClientOptions[] = [];
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: (o) => (calls.push(o), createGitClient()(o)) });
    void ws.git;
    expect(Object.keys(calls[0]!)).toEqual(["ws"]);
  });

  it("a factory that throws is not cached: the next read calls it again", () => {
    let n = 0;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      git: (o) => {
        if (++n === 1) throw new Error("factory failed once");
        return createGitClient()(o);
      },
    });
    expect(() => ws.git).toThrow("factory failed once");
    expect(ws.git).toBe(ws.git);
    expect(n).toBe(2);
  });

  it("bad options throw TypeError from new Workspace", () => {
    const storage = nodeSqliteStorage(":memory:");
    expect(() => new Workspace({ storage, git: {} as never })).toThrow(
      new TypeError("Workspace git must be a git client factory such as createGitClient() from agent-computer/git, got object"),
    );
    expect(() => new Workspace({ storage, defaultGitIdentity: { name: "A" } as never })).toThrow(
      new TypeError('Workspace defaultGitIdentity must be { name, email } with non-empty strings, got {"name":"A"}'),
    );
    expect(() => new Workspace({ storage, defaultGitIdentity: "me" as never })).toThrow(
      new TypeError("Workspace defaultGitIdentity must be { name, email } with non-empty strings, got string"),
    );
  });
});

describe("host.git for backends and host modules", () => {
  it("unconfigured: a stand-in whose methods reject (not throw) with the not-configured error", async () => {
    const backend = new CaptureBackend();
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] });
    await ws.ready("capture");
    const git = backend.host!.git;
    const pending = git.status({ dir: "/" });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toMatchObject({ message: NOT_CONFIGURED, code: "ENOCONFIG" });
    await expect(git.cli({ argv: ["init"] })).rejects.toThrow(NOT_CONFIGURED);
    // Not a thenable, so `await host.git` does not hang or call anything.
    expect((git as unknown as { then?: unknown }).then).toBeUndefined();
  });

  it("configured: workspace.git itself", async () => {
    const backend = new CaptureBackend();
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend], git: createGitClient() });
    await ws.ready("capture");
    expect(backend.host!.git).toBe(ws.git);
  });

  it("ws:git built on an unconfigured host rejects every call with the not-configured message", async () => {
    const backend = new CaptureBackend();
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] });
    await ws.ready("capture");
    const host = backend.host!;
    const fns = createGitModule()({ git: host.git, artifacts: host.artifacts, runtime: host.runtime });
    const ctx = {
      signal: new AbortController().signal,
      deadline: Date.now() + 60_000,
      access: "read-write" as const,
      root: "/workspace",
      resumed: false,
      resolvePath: async (p: string) => `/workspace/${p}`.replace(/\/\.$/, ""),
      callId: "run:1",
      interrupt: async () => {
        throw new Error("no");
      },
    };
    await expect(fns.status!([{}], ctx)).rejects.toThrow(NOT_CONFIGURED);
    await expect(fns.cli!([{ argv: ["status"] }], ctx)).rejects.toThrow(NOT_CONFIGURED);
  });
});

describe("ws:git argv rules", () => {
  it("a leading -C <path> is folded into cwd (relative joins, absolute replaces)", () => {
    expect(foldCliPath(["-C", "repo", "status", "-s"], ".")).toEqual({ argv: ["status", "-s"], cwd: "./repo" });
    expect(foldCliPath(["-C", "sub", "log"], "/workspace/repo/")).toEqual({ argv: ["log"], cwd: "/workspace/repo/sub" });
    expect(foldCliPath(["-C", "/workspace/other", "log"], "repo")).toEqual({ argv: ["log"], cwd: "/workspace/other" });
    expect(foldCliPath(["status"], "repo")).toEqual({ argv: ["status"], cwd: "repo" });
  });

  it("other -C…, --git-dir[=], --work-tree[=] anywhere are refused with the spec's message", () => {
    for (const argv of [
      ["-C", "a", "-C", "b", "status"],
      ["-Crepo", "status"],
      ["-C"],
      ["status", "-C", "x"],
      ["--git-dir", "/x", "log"],
      ["--git-dir=/x", "log"],
      ["log", "--work-tree", "/y"],
      ["--work-tree=/y", "status"],
    ]) {
      expect(() => foldCliPath(argv, "."), argv.join(" ")).toThrow(GIT_PATH_OVERRIDE_MESSAGE);
    }
    expect(GIT_PATH_OVERRIDE_MESSAGE).toBe("Git CLI path overrides are not available inside a confined Workspace runtime.");
    // Look-alikes that are not overrides pass.
    expect(foldCliPath(["log", "--git-directory-like", "-c", "x=y"], ".").argv).toEqual(["log", "--git-directory-like", "-c", "x=y"]);
  });

  it("network commands: any argument clone|fetch|pull|push|ls-remote|submodule, any case", () => {
    for (const argv of [["clone", "u"], ["FETCH"], ["Pull", "--ff-only"], ["push", "origin"], ["ls-remote"], ["submodule", "update"], ["log", "push"]]) {
      expect(isNetworkCommand(argv), argv.join(" ")).toBe(true);
    }
    for (const argv of [["status"], ["log", "--oneline"], ["remote", "add", "o", "https://x/y.git"], ["commit", "-m", "fetched"]]) {
      expect(isNetworkCommand(argv), argv.join(" ")).toBe(false);
    }
  });

  it("createGitModule validates its options and describes what it exports", () => {
    expect(() => createGitModule(null as never)).toThrow(new TypeError("createGitModule(options): options must be an object, got null"));
    expect(() => createGitModule({ allowNetwork: "yes" as never })).toThrow(new TypeError("createGitModule(options): allowNetwork must be a boolean, got string"));
    const off = createGitModule().description!;
    const on = createGitModule({ allowNetwork: true }).description!;
    for (const name of ["clone(", "diff(", "status(", "log(", "cli("]) {
      expect(off).toContain(`\`${name}`);
      expect(on).toContain(`\`${name}`);
    }
    expect(off).toContain("Network commands are not allowed here");
    expect(on).not.toContain("not allowed");
    expect(on).toContain("go out from the host");
  });
});

describe("the shell's git built-in (in a real just-bash shell)", () => {
  it("forwards argv, cwd, the exported GIT_* variables and UTF-8 stdin; prints stdout/stderr and exits with exitCode", async () => {
    const seen: [string[], string, GitCommandOptions | undefined][] = [];
    const git = defineGitCommand({
      async git(args, cwd, options) {
        seen.push([args, cwd, options]);
        return { stdout: `out ${args.join(",")}\n`, stderr: "warn\n", exitCode: args[0] === "bad" ? 129 : 0 };
      },
    });
    const bash = new Bash({ customCommands: [git as never], cwd: "/repo", env: { KEEP: "k" }, defenseInDepth: false });
    await bash.fs.mkdir("/repo/sub", { recursive: true });
    const r = await bash.exec('cd sub && printf "h\\u00e9llo\\n" | GIT_AUTHOR_NAME="Zoë" git hash-object --stdin; git bad; echo "rc=$?"');
    expect([r.stdout, r.stderr]).toEqual(["out hash-object,--stdin\nout bad\nrc=129\n", "warn\nwarn\n"]);
    expect(seen[0]![0]).toEqual(["hash-object", "--stdin"]);
    expect(seen[0]![1]).toBe("/repo/sub");
    expect(seen[0]![2]!.stdin).toBe("héllo\n");
    // Only GIT_* of what bash passes a child (issue 20, run 25: every variable before): KEEP is exported, not GIT_*.
    expect(seen[0]![2]!.env).toEqual({ GIT_AUTHOR_NAME: "Zoë" });
    expect(seen[1]![2]!.stdin).toBeUndefined();
  });

  it("a rejection prints git: <message>, exit 1", async () => {
    const git = defineGitCommand({
      async git() {
        throw Object.assign(new Error(NOT_CONFIGURED), { code: "ENOCONFIG" });
      },
    });
    const bash = new Bash({ customCommands: [git as never], defenseInDepth: false });
    const r = await bash.exec("git status; echo rc=$?");
    expect([r.stdout, r.stderr]).toEqual(["rc=1\n", `git: ${NOT_CONFIGURED}\n`]);
  });

  it("decodeStdin: Latin-1 byte strings → UTF-8 text when valid, else the bytes; empty → undefined", () => {
    expect(decodeStdin("")).toBeUndefined();
    expect(decodeStdin(undefined)).toBeUndefined();
    expect(decodeStdin("abc\n")).toBe("abc\n");
    expect(decodeStdin("\xc3\xa9\xe2\x82\xac")).toBe("é€");
    expect(decodeStdin("\xff\xfe\x00")).toEqual(new Uint8Array([0xff, 0xfe, 0x00]));
    // A BOM is kept (git hashes the bytes as given).
    expect(decodeStdin("\xef\xbb\xbfx")).toBe("\ufeffx");
    // Already text (a char above U+00FF): as it is.
    expect(decodeStdin("€")).toBe("€");
  });

  it("flattenEnv: a Map or an object → a plain object of strings", () => {
    expect(flattenEnv(new Map([["A", "1"], ["B", "2"]]))).toEqual({ A: "1", B: "2" });
    expect(flattenEnv({ A: "1" })).toEqual({ A: "1" });
    expect(flattenEnv(undefined)).toEqual({});
  });
});

// The GitClient type is what host.git is typed as.
const _typecheck: (h: WorkspaceBackendHost) => GitClient = (h) => h.git;
void _typecheck;
