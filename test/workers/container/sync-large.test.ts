/**
 * Issue 17, sync at size (spec 02 §7.3): a 50 MiB file and 5,000 small
 * files, each way, between a Workspace in workerd and a real `computerd`.
 * Bytes are compared by SHA-256 on both sides (`sha256sum` in the
 * container, workerd's `DigestStream` in the Workspace); counts are the
 * result's `pushed` / `pulled`.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, patternStream, sh, sha256Hex, startContainer } from "./helpers.js";

const MiB = 1024 * 1024;
const BIG = 50 * MiB;
const hex = async (data: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", data))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** 5,000 files in 50 directories; each holds its own path and a line of filler. */
const MANY = Array.from({ length: 5000 }, (_, i) => {
  const path = `many/d${String(i % 50).padStart(2, "0")}/f${String(i).padStart(4, "0")}.txt`;
  return { path, text: `${path}\n${"x".repeat(i % 97)}\n` };
});
const manyDigest = () => {
  const sorted = [...MANY].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return hex(new TextEncoder().encode(sorted.map((f) => f.text).join("")));
};
/** In the container: the number of files under many/, then the SHA-256 of their contents in byte order of their paths. */
const MANY_CHECK = "export LC_ALL=C; find many -type f | wc -l; find many -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-64";

describe("sync at size", () => {
  it("a 50 MiB file from the Workspace reaches the container byte for byte", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const want = await sha256Hex(patternStream(BIG, 17));
      await ws.fs.writeFile("/workspace/big.bin", patternStream(BIG, 17));
      expect(await sha256Hex((await ws.fs.readFile("/workspace/big.bin")) as ReadableStream<Uint8Array>)).toBe(want);
      const r = await sh(ws, "stat -c %s big.bin && sha256sum big.bin | cut -c1-64 && ls -a");
      expect(r.stdout).toBe(`${BIG}\n${want}\n.\n..\nbig.bin\n`); // no temporary piece left beside it
      expect([r.exitCode, r.pushed, r.pulled]).toEqual([0, 1, 0]);
      // Rewritten in the Workspace: the new bytes replace the old.
      const again = await sha256Hex(patternStream(BIG - 3, 99));
      await ws.fs.writeFile("/workspace/big.bin", patternStream(BIG - 3, 99));
      const r2 = await sh(ws, "stat -c %s big.bin && sha256sum big.bin | cut -c1-64");
      expect(r2.stdout).toBe(`${BIG - 3}\n${again}\n`);
      expect([r2.pushed, r2.pulled]).toEqual([1, 0]);
    });
  });

  it("a 50 MiB file made by a command is pulled into the Workspace byte for byte", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, `head -c ${BIG} /dev/urandom > out.bin && sha256sum out.bin | cut -c1-64`);
      expect([r.exitCode, r.pushed, r.pulled]).toEqual([0, 0, 1]);
      expect(r.sync).toEqual({ status: "complete", applied: 1, skipped: [] });
      const st = await ws.fs.stat("/workspace/out.bin");
      expect(st.size).toBe(BIG);
      expect(`${await sha256Hex((await ws.fs.readFile("/workspace/out.bin")) as ReadableStream<Uint8Array>)}\n`).toBe(r.stdout);
      // Pulled bytes are not pushed back.
      const idle = await sh(ws, "true");
      expect([idle.pushed, idle.pulled]).toEqual([0, 0]);
    });
  });

  it("5,000 small files from the Workspace: every one in the container with its bytes", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      for (let d = 0; d < 50; d++) await ws.fs.mkdir(`/workspace/many/d${String(d).padStart(2, "0")}`, { recursive: true });
      for (const f of MANY) await ws.fs.writeFile(`/workspace/${f.path}`, f.text);
      const r = await sh(ws, MANY_CHECK);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`5000\n${await manyDigest()}\n`);
      expect([r.pushed, r.pulled]).toEqual([5000 + 50 + 1, 0]); // files, d00..d49, many
      expect(r.sync).toEqual({ status: "complete", applied: 0, skipped: [] });
    });
  });

  it("5,000 small files made by a command: every one in the Workspace with its bytes", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      // The container writes the same files (a script generated here, run there).
      const script = MANY.map((f) => `printf '${f.text.replace(/\n/g, "\\n")}' > ${f.path}`).join("\n");
      await ws.fs.writeFile("/workspace/gen.sh", `mkdir -p ${Array.from({ length: 50 }, (_, d) => `many/d${String(d).padStart(2, "0")}`).join(" ")}\n${script}\n`);
      const r = await sh(ws, `sh gen.sh && rm gen.sh && ${MANY_CHECK}`);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`5000\n${await manyDigest()}\n`);
      // pushed gen.sh; pulled the files, d00..d49, many, and gen.sh's deletion
      expect([r.pushed, r.pulled]).toEqual([1, 5000 + 50 + 1 + 1]);
      expect(r.sync).toEqual({ status: "complete", applied: 5052, skipped: [] });
      const files = await ws.fs.ls("/workspace/many");
      expect(files).toEqual(MANY.map((f) => `/workspace/${f.path}`).sort());
      for (const f of MANY) expect(await ws.fs.readFile(`/workspace/${f.path}`, "utf8")).toBe(f.text);
      await expect(ws.fs.stat("/workspace/gen.sh")).rejects.toMatchObject({ code: "ENOENT" });
      const idle = await sh(ws, "true");
      expect([idle.pushed, idle.pulled]).toEqual([0, 0]);
    });
  });
});
