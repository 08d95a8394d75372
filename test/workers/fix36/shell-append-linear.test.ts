/**
 * The shell's `>>` on a large file (issue 20, run 36, fixer AP; found by attacker f): before, every `echo x >> f` read
 * the whole file and stored it again (the host's `appendBytes` → `WorkspaceFsAdapter.appendFile` → `appendStreamed`),
 * 251 ms at 1 MiB, 574 ms at 16 MiB, 1,969 ms at 48 MiB per append; and an append past 16 MiB (sent as a stream) was
 * read whole into the host's memory first. Now the host appends through `workspace.fs.appendFile`: the file's full
 * 512 KiB chunks keep their rows, only the last partial chunk is cut again with the new bytes, in one transaction.
 * Checked with the Durable Object's own SQLite: the chunk-list rows of the full chunks are the same rows (same chunk
 * ids) after a loop of appends, the store is sound (refs exact, no unleased orphan), and the bytes are bash 5.2.15's
 * (`for i in 1 2 3 4 5; do echo line$i >> log; done` appends "line1\n" … "line5\n"; `printf` as GNU's).
 * Siblings: test/node/fix36/fs-append-linear.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";

const C = 524_288;

function pattern(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 97 + ((i * 7 + (i >> 9)) % 26);
  return out;
}

describe("fix36 AP: the shell's >> keeps the file's full chunks", () => {
  it("a loop of >> to a 3-chunk file rewrites only its last chunk; bytes as bash's, store sound", async () => {
    const got = await inShellWorkspace(async (ws, state) => {
      const sql = state.storage.sql;
      await ws.fs.mkdir("/workspace", { recursive: true });
      const old = pattern(3 * C - 2);
      await ws.fs.writeFile("/workspace/log", old);
      const ino = (await ws.fs.stat("/workspace/log")).inode;
      const rows = () => [...sql.exec(`SELECT idx, chunk FROM __ws_file_chunks WHERE ino = ? ORDER BY idx`, ino)] as { idx: number; chunk: number }[];
      const before = rows();
      const r = await sh(ws, `for i in 1 2 3 4 5; do echo line$i >> log; done; printf '%s' abc >> log; : >> log; wc -c < log`, { cwd: "/workspace" });
      const after = rows();
      const bytes = new Uint8Array(await new Response(await ws.fs.readFile("/workspace/log")).arrayBuffer());
      const tail = new TextDecoder().decode(bytes.subarray(old.byteLength));
      const head = Buffer.from(bytes.subarray(0, old.byteLength)).equals(Buffer.from(old));
      // An 8 MB append (a shell command's output is bounded at 16 MiB): 15+ new chunks after the kept ones.
      const big = await sh(ws, `printf '%8000000s' '' | tr ' ' z >> log; wc -c < log; tail -c 3 log`, { cwd: "/workspace", timeoutMs: 60_000 });
      const size = (await ws.fs.stat("/workspace/log")).size;
      const afterBig = rows();
      return { r: [r.stdout, r.stderr, r.exitCode], before, after, tail, head, big: [big.stdout, big.stderr, big.exitCode], size, afterBig, problems: integrityProblems(sql), orphans: unleasedOrphans(sql) };
    });
    expect(got.r).toEqual([`${3 * C - 2 + 30 + 3}\n`, "", 0]);
    expect(got.tail).toBe("line1\nline2\nline3\nline4\nline5\nabc");
    expect(got.head).toBe(true);
    // Chunks 0 and 1 (full) are the same rows; chunk 2 was re-cut, and chunk 3 holds what passed its end.
    expect(got.after.slice(0, 2)).toEqual(got.before.slice(0, 2));
    expect(got.after.map((row) => row.idx)).toEqual([0, 1, 2, 3]);
    expect(got.after[2]!.chunk).not.toBe(got.before[2]!.chunk);
    const total = 3 * C - 2 + 33 + 8_000_000;
    expect(got.big).toEqual([`${total}\nzzz`, "", 0]);
    expect(got.size).toBe(total);
    expect(got.afterBig.slice(0, 3)).toEqual(got.after.slice(0, 3));
    expect(got.afterBig).toHaveLength(Math.ceil(total / C));
    expect(got.problems).toEqual([]);
    expect(got.orphans).toBe(0);
  }, 180_000);
});
