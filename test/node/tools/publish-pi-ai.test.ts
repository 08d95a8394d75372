import { describe, expect, it } from "vitest";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { makeWorkspace } from "./helpers.js";
import { PNG, publishSetup, READONLY, SEVEN, WITH_PUBLISH } from "./publish-helpers.js";

for (const major of PI_MAJORS) describe(`publish through pi ${major.name}'s faux provider loop`, () => {
  const runLoop = major.piLoop();
  const { fauxAssistantMessage, fauxText, fauxToolCall } = major;

  it("shares files, reports a missing file as the bare message, and rejects bad expiries", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/x.png": PNG } });
    const pi = createPiTools({ workspace });
    expect(pi.tools.map((t) => t.name)).toEqual(WITH_PUBLISH);
    const publish = pi.tools.at(-1)!;
    expect(publish.constrainedSampling).toBeUndefined();
    expect(publish.parameters).toEqual({
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: expect.any(String) },
        expiresAfterMs: { type: "integer", exclusiveMinimum: 0, maximum: 9007199254740991, description: expect.any(String) },
      },
      required: ["path"],
    });
    const { results, context } = await runLoop(pi, [
      step(
        major,
        fauxToolCall("publish", { path: "/workspace/x.png" }, { id: "p1" }),
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: 604800000 }, { id: "p2" }),
        // Under strict sampling an omitted optional field arrives as null; it is dropped.
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: null }, { id: "p3" }),
      ),
      step(major, fauxToolCall("publish", { path: "/workspace/gone.png" }, { id: "missing" })),
      step(
        major,
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: 0 }, { id: "z" }),
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: -5 }, { id: "neg" }),
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: 1.5 }, { id: "frac" }),
        fauxToolCall("publish", { path: "/workspace/x.png", expiresAfterMs: "60" }, { id: "str" }),
        fauxToolCall("publish", {}, { id: "none" }),
      ),
      fauxAssistantMessage([fauxText("shared")]),
    ]);
    expect(assets.calls).toStrictEqual([
      { path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
      { path: "/workspace/x.png", options: { expiresAfter: 604800000, prefix: "agent-s1" } },
      { path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
      { path: "/workspace/gone.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
    ]);
    const url = "https://assets.test/agent-s1/x.png?expiresAfter=3600000&bytes=12";
    expect(results.get("p1")).toMatchObject({ content: [{ type: "text", text: JSON.stringify({ ok: true, url }) }], isError: false, details: { ok: true, url } });
    expect(results.get("p2")!.details).toEqual({ ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=604800000&bytes=12" });
    expect(results.get("p3")!.details).toEqual({ ok: true, url });
    // Spec 03 §6, §8: { ok: false, error } reaches the model as the bare message.
    const enoent = "ENOENT: no such file or directory, stat: /workspace/gone.png";
    expect(results.get("missing")).toMatchObject({ content: [{ type: "text", text: enoent }], isError: true, details: { ok: false, error: enoent } });
    const err = (id: string) => ({ text: (results.get(id)!.content[0] as { text: string }).text, isError: results.get(id)!.isError });
    expect(err("z")).toEqual({ text: "Invalid arguments for publish: expiresAfterMs: Too small: expected number to be >0", isError: true });
    expect(err("neg")).toEqual({ text: "Invalid arguments for publish: expiresAfterMs: Too small: expected number to be >0", isError: true });
    expect(err("frac")).toEqual({ text: "Invalid arguments for publish: expiresAfterMs: Invalid input: expected int, received number", isError: true });
    expect(err("str")).toEqual({ text: "Invalid arguments for publish: expiresAfterMs: Invalid input: expected number, received string", isError: true });
    expect(err("none")).toEqual({ text: "Invalid arguments for publish: path: Invalid input: expected string, received undefined", isError: true });
    expect(context.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "shared" }] });
  });
});

describe("publish in createPiTools", () => {
  it("an empty session id leaves the prefix key out", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "", files: { "/workspace/x.png": PNG } });
    const pi = createPiTools({ workspace });
    const result = await pi.execute({ id: "p", name: "publish", arguments: { path: "/workspace/x.png" } });
    expect(result).toEqual({
      content: [{ type: "text", text: '{"ok":true,"url":"https://assets.test/x.png?expiresAfter=3600000&bytes=12"}' }],
      isError: false,
      details: { ok: true, url: "https://assets.test/x.png?expiresAfter=3600000&bytes=12" },
    });
    expect(assets.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 3600000 } }]);
  });

  it("is absent without assets, with assets: false, and when read-only; unknown-tool text lists the set", async () => {
    const bare = await makeWorkspace();
    expect(createPiTools({ workspace: bare }).tools.map((t) => t.name)).toEqual(SEVEN);
    const { workspace } = await publishSetup({ sessionId: "s1" });
    expect(createPiTools({ workspace, assets: false }).tools.map((t) => t.name)).toEqual(SEVEN);
    expect(createPiTools({ workspace, readonly: true }).tools.map((t) => t.name)).toEqual(READONLY);
    const without = await createPiTools({ workspace, assets: false }).execute({ id: "x", name: "publish", arguments: { path: "/workspace/x.png" } });
    expect(without).toEqual({
      content: [{ type: "text", text: 'Unknown tool "publish". Available tools: "read", "ls", "find", "grep", "write", "edit", "delete".' }],
      isError: true,
    });
  });
});
