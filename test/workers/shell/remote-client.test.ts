/**
 * The shell through a remote client: `getWorkspace(stub)` from the test
 * Worker into a `withWorkspace` Durable Object with both backends. A command
 * run over RPC writes a file the client reads at once, sees a file the client
 * wrote, streams its result back, and the AI SDK tools built from the remote
 * client offer both backends.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

const agent = () => env.SHELL_AGENT.get(env.SHELL_AGENT.newUniqueId());

async function last<T>(it: AsyncIterable<T> | T): Promise<T> {
  if (!(it && typeof it === "object" && Symbol.asyncIterator in it)) return it as T;
  let value!: T;
  for await (const v of it as AsyncIterable<T>) value = v;
  return value;
}

it("exec on worker-shell over RPC: the command's files and the client's files are the same files", async () => {
  using ws = await getWorkspace(agent());
  await ws.fs.mkdir("/workspace", { recursive: true });
  await ws.fs.writeFile("/workspace/data.json", '{"items":[1,2,3]}\n');
  using handle = await ws.runtime.exec("jq '.items | length' data.json > count.txt && cat count.txt && echo oops >&2", {
    backend: "worker-shell",
    encoding: "utf8",
  });
  const r = await handle.result();
  expect([r.status, r.exitCode, r.stdout, r.stderr]).toEqual(["completed", 0, "3\n", "oops\n"]);
  expect(await ws.fs.readFile("/workspace/count.txt", "utf8")).toBe("3\n");
  expect(ws.runtime.backends().map((b) => [b.id, b.protocol, b.callable])).toEqual([
    ["worker-javascript", "module", true],
    ["worker-shell", "command", false],
  ]);
  await expect(ws.runtime.getExec(handle.id, { backend: "worker-shell" })).rejects.toMatchObject({ code: "ENOENT" });
});

it("the AI SDK tools from a remote client run exec on both backends", async () => {
  using ws = await getWorkspace(agent());
  await ws.fs.mkdir("/workspace", { recursive: true });
  await ws.fs.writeFile("/workspace/a.txt", "TODO one\nnothing\nTODO two\n");
  const tools = createAITools({ workspace: ws });
  const execute = tools.exec!.execute!;
  const options = { toolCallId: "c1", messages: [] } as never;
  const shell = await last(execute({ command: "grep -c TODO a.txt", backend: "worker-shell" } as never, options));
  const js = await last(execute({ command: "export default () => 6 * 7", backend: "worker-javascript" } as never, options));
  expect(shell).toMatchObject({ backend: "worker-shell", exitCode: 0, stdout: "2\n", stderr: "" });
  expect(js).toMatchObject({ backend: "worker-javascript", exitCode: 0, result: 42 });
});
