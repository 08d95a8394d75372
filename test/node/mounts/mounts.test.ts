import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { defineMountCases } from "../../shared/mounts/cases.js";

describe("mounts (node)", () =>
  defineMountCases({
    suite: "node",
    async run(body) {
      const storage = nodeSqliteStorage(":memory:");
      try {
        await body(storage);
      } finally {
        storage.close();
      }
    },
  }));

describe("WorkerBundle(directory) on Node", () => {
  it("copies an absolute directory read through node:fs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bundle-"));
    try {
      mkdirSync(join(dir, "skills", "pdf"), { recursive: true });
      writeFileSync(join(dir, "skills", "pdf", "SKILL.md"), "# PDF\n");
      writeFileSync(join(dir, "run"), "#!/bin/sh\n");
      writeFileSync(join(dir, "bytes.bin"), new Uint8Array([0, 255, 1]));
      const storage = nodeSqliteStorage();
      const ws = new Workspace({ storage, mounts: { "/skills": WorkerBundle(dir) } });
      await ws.ready();
      expect((await ws.fs.find("/skills")).map((e) => e.path)).toEqual([
        "/skills/bytes.bin",
        "/skills/run",
        "/skills/skills",
        "/skills/skills/pdf",
        "/skills/skills/pdf/SKILL.md",
      ]);
      expect(await ws.fs.readFile("/skills/skills/pdf/SKILL.md", "utf8")).toBe("# PDF\n");
      expect((await ws.fs.stat("/skills/run")).mode).toBe(0o755);
      const bytes = new Uint8Array(await new Response(await ws.fs.readFile("/skills/bytes.bin")).arrayBuffer());
      expect([...bytes]).toEqual([0, 255, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a missing directory throws at construction; outside workerd the message is just that", () => {
    expect(() => WorkerBundle("/definitely/not/here")).toThrow('WorkerBundle("/definitely/not/here"): /definitely/not/here is not a directory');
    // Relative paths are read under /bundle, where workerd shows the upload.
    expect(() => WorkerBundle("skills")).toThrow('WorkerBundle("skills"): /bundle/skills is not a directory');
  });
});
