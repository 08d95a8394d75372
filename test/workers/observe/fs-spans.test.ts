/**
 * Spec 04 §4 in real workerd: every `workspace.fs.*` span of the RPC
 * filesystem stub (`workspace.stub().fs`) with its start and result
 * attributes, `exists` wrapping a nested `statOrNull` span, failures with
 * `error.name` and a sanitised `error.message`, and no spans at all for
 * direct `workspace.fs` calls.
 */
import { describe, expect, it } from "vitest";
import { inObservedWorkspace, named, recordingObserver, rejection } from "./helpers.js";

describe("workspace.fs.* spans of the filesystem stub", () => {
  it("records each method with its start and result attributes, in call order", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      await fs.mkdir("/w/d", { recursive: true });
      await fs.writeFile("/w/d/a.txt", "hello\nworld\n");
      await fs.writeFile("/w/d/b.txt", "hello again\n");
      expect(await fs.readFile("/w/d/a.txt", "utf8")).toBe("hello\nworld\n");
      expect((await fs.stat("/w/d/a.txt")).size).toBe(12);
      expect(await fs.statOrNull("/w/none")).toBeNull();
      await fs.symlink("a.txt", "/w/d/l");
      expect((await fs.lstat("/w/d/l")).isSymbolicLink).toBe(true);
      expect(await fs.lstatOrNull("/w/none")).toBeNull();
      expect(await fs.readlink("/w/d/l")).toBe("a.txt");
      expect((await fs.readdir("/w/d")).map((e) => e.name)).toEqual(["a.txt", "b.txt", "l"]);
      expect(await fs.ls("/w")).toEqual(["/w/d/a.txt", "/w/d/b.txt"]);
      expect((await fs.find("/w", "**/*.txt")).map((e) => e.path)).toEqual(["/w/d/a.txt", "/w/d/b.txt"]);
      expect((await fs.grep("hello", "/w")).length).toBe(2);
      await fs.chmod("/w/d/a.txt", 0o600);
      await fs.rename("/w/d/b.txt", "/w/d/c.txt");
      await fs.rm("/w/d/c.txt", { force: true });
      await fs.rm("/w", { recursive: true });
    });
    expect(named(spans)).toEqual([
      ["workspace.fs.mkdir", { "workspace.fs.path": "/w/d", "workspace.fs.recursive": true }],
      ["workspace.fs.writeFile", { "workspace.fs.path": "/w/d/a.txt" }],
      ["workspace.fs.writeFile", { "workspace.fs.path": "/w/d/b.txt" }],
      ["workspace.fs.readFile", { "workspace.fs.path": "/w/d/a.txt" }],
      ["workspace.fs.stat", { "workspace.fs.path": "/w/d/a.txt" }],
      ["workspace.fs.statOrNull", { "workspace.fs.path": "/w/none" }],
      ["workspace.fs.symlink", { "workspace.fs.path": "/w/d/l", "workspace.fs.target": "a.txt" }],
      ["workspace.fs.lstat", { "workspace.fs.path": "/w/d/l" }],
      ["workspace.fs.lstatOrNull", { "workspace.fs.path": "/w/none" }],
      ["workspace.fs.readlink", { "workspace.fs.path": "/w/d/l" }],
      ["workspace.fs.readdir", { "workspace.fs.path": "/w/d", "workspace.fs.entries": 3 }],
      ["workspace.fs.ls", { "workspace.fs.path": "/w", "workspace.fs.entries": 2 }],
      ["workspace.fs.find", { "workspace.fs.path": "/w", "workspace.fs.pattern": "**/*.txt", "workspace.fs.matches": 2 }],
      ["workspace.fs.grep", { "workspace.fs.path": "/w", "workspace.fs.pattern": "hello", "workspace.fs.matches": 2 }],
      ["workspace.fs.chmod", { "workspace.fs.path": "/w/d/a.txt", "workspace.fs.mode": 0o600 }],
      ["workspace.fs.rename", { "workspace.fs.path": "/w/d/b.txt", "workspace.fs.destination": "/w/d/c.txt" }],
      ["workspace.fs.rm", { "workspace.fs.path": "/w/d/c.txt", "workspace.fs.force": true }],
      ["workspace.fs.rm", { "workspace.fs.path": "/w", "workspace.fs.recursive": true }],
    ]);
    expect(spans.every((s) => s.outcome === "ok" && s.parent === -1)).toBe(true);
  });

  it("exists wraps a nested statOrNull span", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(observer, async (ws) => {
      await ws.fs.writeFile("/here.txt", "x");
      const fs = ws.stub().fs;
      expect(await fs.exists("/here.txt")).toBe(true);
      expect(await fs.exists("/gone.txt")).toBe(false);
    });
    expect(spans).toEqual([
      { name: "workspace.fs.exists", attributes: { "workspace.fs.path": "/here.txt" }, outcome: "ok", parent: -1 },
      { name: "workspace.fs.statOrNull", attributes: { "workspace.fs.path": "/here.txt" }, outcome: "ok", parent: 0 },
      { name: "workspace.fs.exists", attributes: { "workspace.fs.path": "/gone.txt" }, outcome: "ok", parent: -1 },
      { name: "workspace.fs.statOrNull", attributes: { "workspace.fs.path": "/gone.txt" }, outcome: "ok", parent: 2 },
    ]);
  });

  it("direct workspace.fs calls emit no span; the same calls through the stub do", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(observer, async (ws) => {
      await ws.fs.mkdir("/p", { recursive: true });
      await ws.fs.writeFile("/p/f.txt", "data");
      await ws.fs.readFile("/p/f.txt", "utf8");
      await ws.fs.readdir("/p");
      await ws.fs.grep("data", "/p");
      await ws.fs.stat("/p/missing").catch(() => {});
      await ws.fs.rm("/p", { recursive: true });
      expect(spans).toEqual([]);
      const fs = ws.stub().fs;
      await fs.mkdir("/p", { recursive: true });
      await fs.writeFile("/p/f.txt", "data");
      await fs.readFile("/p/f.txt", "utf8");
    });
    expect(spans.map((s) => s.name)).toEqual(["workspace.fs.mkdir", "workspace.fs.writeFile", "workspace.fs.readFile"]);
  });

  it("a failure sets error.name and a sanitised error.message, and the caller gets the error unchanged", async () => {
    const { observer, spans } = recordingObserver();
    const path = "/in\u0001box/password=hunter2&x=1/Bearer abc.def";
    const long = `/${"a".repeat(600)}`;
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      const error = await rejection(fs.stat(path));
      expect(error.code).toBe("ENOENT");
      // The caller's error keeps the whole message; only the span's copy is sanitised.
      expect(error.message).toBe(`ENOENT: no such file or directory, stat: ${path}`);
      const tooLong = await rejection(fs.readFile(long, "utf8"));
      expect(tooLong.code).toBe("ENOENT");
      const bad = await rejection(fs.readdir("relative/path"));
      expect(bad.code).toBe("EINVAL");
    });
    expect(spans.map((s) => [s.name, s.outcome, s.attributes["error.name"], s.attributes["error.message"]])).toEqual([
      ["workspace.fs.stat", "error", "WorkspaceFsError", "ENOENT: no such file or directory, stat: /in box/password=[REDACTED]&x=1/Bearer [REDACTED]"],
      ["workspace.fs.readFile", "error", "WorkspaceFsError", `ENOENT: no such file or directory, readFile: ${long}`.slice(0, 512)],
      ["workspace.fs.readdir", "error", "WorkspaceFsError", expect.stringMatching(/^EINVAL: /)],
    ]);
    expect((spans[1].attributes["error.message"] as string).length).toBe(512);
  });
});

describe("long attribute values", () => {
  it("a path or pattern past 4,096 characters is recorded cut to 4,096 (no half surrogate pair); the call's own error is unchanged", async () => {
    const { observer, spans } = recordingObserver();
    const longPath = "/" + "p".repeat(200_000);
    const emojiPath = "/" + "e".repeat(4094) + "😀" + "tail";
    const longPattern = "*".repeat(50_000);
    let errors: (string | undefined)[] = [];
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      await fs.mkdir("/w");
      errors = [
        (await rejection(fs.readFile(longPath))).code,
        (await rejection(fs.stat(emojiPath))).code,
      ];
      await fs.find("/w", longPattern).catch(() => undefined);
    });
    expect(errors).toEqual(["ENOENT", "ENOENT"]);
    const attrs = spans.slice(1).map((s) => [s.name, s.attributes["workspace.fs.path"], s.attributes["workspace.fs.pattern"]]);
    expect(attrs).toEqual([
      ["workspace.fs.readFile", "/" + "p".repeat(4095), undefined],
      ["workspace.fs.stat", "/" + "e".repeat(4094), undefined],
      ["workspace.fs.find", "/w", "*".repeat(4096)],
    ]);
  });
});
