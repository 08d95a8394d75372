/**
 * `source: { type: "external-runtime" }` (spec 02 §6): the backend runs its
 * commands on a runtime you connect. Here the runtime is this package's own
 * `ShellWorker` (a plain class off workerd, with just-bash imported on first
 * use) on Node, over a Workspace on node:sqlite — the whole shell backend
 * without a Worker Loader.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ShellWorker, WorkerShellBackend, type WorkspaceEgressPolicy } from "../../../src/backends/worker-shell/index.js";
import jq from "../../../src/shell/jq.js";
import { memoryStorages } from "../tools/helpers.js";

const memoryStorage = memoryStorages();

function workspace(connect: (o: { egress: WorkspaceEgressPolicy }) => ShellWorker) {
  const storage = memoryStorage();
  return new Workspace({ storage, backends: [new WorkerShellBackend({ source: { type: "external-runtime", connect }, commands: [jq] })] });
}

it("runs commands on the connected runtime, once per connect, over the Workspace's files", async () => {
  const connects: WorkspaceEgressPolicy[] = [];
  const ws = workspace((o) => {
    connects.push(o.egress);
    return new ShellWorker(undefined, undefined);
  });
  await ws.fs.mkdir("/workspace", { recursive: true });
  await ws.fs.writeFile("/workspace/in.json", '{"n": 41}');
  const first = await (await ws.runtime.exec("jq '.n + 1' in.json > out.txt; cat out.txt", { encoding: "utf8" })).result();
  const second = await (await ws.runtime.exec("echo $GREETING; cat", { encoding: "utf8", env: { GREETING: "héllo" }, stdin: "from stdin\n" })).result();
  expect([first.exitCode, first.stdout, first.stderr]).toEqual([0, "42\n", ""]);
  expect(await ws.fs.readFile("/workspace/out.txt", "utf8")).toBe("42\n");
  expect([second.exitCode, second.stdout]).toEqual([0, "héllo\nfrom stdin\n"]);
  expect(connects).toEqual([{ mode: "none" }]);
  await ws.close();
});

it("a ShellWorker subclass adds commands through options(); a timeout is 124 with the output made before it", async () => {
  class MyShell extends ShellWorker {
    protected override options() {
      return { customCommands: [{ name: "hello", execute: async (args: string[]) => ({ stdout: `hello ${args.join(" ")}\n`, stderr: "", exitCode: 0 }) }] };
    }
  }
  const ws = workspace(() => new MyShell(undefined, undefined));
  const hello = await (await ws.runtime.exec("hello big world | tr a-z A-Z", { encoding: "utf8" })).result();
  expect([hello.exitCode, hello.stdout]).toEqual([0, "HELLO BIG WORLD\n"]);
  const started = Date.now();
  const slow = await (await ws.runtime.exec("echo before; sleep 5; echo after", { encoding: "utf8", timeoutMs: 300 })).result();
  expect([slow.status, slow.exitCode, slow.stdout, slow.stderr]).toEqual(["failed", 124, "before\n", "Execution timed out after 300 ms\n"]);
  expect(Date.now() - started).toBeLessThan(3000);
  await ws.close();
});

it("source and loader together, or a source of another type, are refused with what to pass", () => {
  const loader = { get: () => ({ getEntrypoint: () => ({}) }) };
  expect(() => new WorkerShellBackend({ loader, source: { type: "external-runtime", connect: () => new ShellWorker(undefined, undefined) } })).toThrow(
    "WorkerShellBackend: pass either source or loader/workspace/ctx, not both",
  );
  expect(() => new WorkerShellBackend({ source: { type: "http" } as never })).toThrow(
    'WorkerShellBackend: source must be { type: "loader", loader, workspace, ctx } or { type: "external-runtime", connect }',
  );
  expect(() => new WorkerShellBackend({} as never)).toThrow(
    "WorkerShellBackend: loader is required: pass the Worker Loader binding (env.LOADER, [[worker_loaders]] in wrangler config), or source",
  );
  expect(() => new WorkerShellBackend({ loader, egress: { mode: "proxy" } as never })).toThrow(
    'WorkerShellBackend: egress.mode must be "none", "direct" or "http-gateway", not "proxy"',
  );
});
