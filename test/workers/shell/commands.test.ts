/**
 * Shell commands against durable files (issue 14, spec 02 §6): real workerd,
 * the real Worker Loader and real just-bash. Every case checks the exact
 * stdout, stderr and exit code, and the bytes `workspace.fs` holds afterwards;
 * the reverse direction (workspace.fs writes, the next command reads) too.
 */
import { describe, expect, it } from "vitest";
import jq from "../../../src/shell/jq.js";
import type { Workspace } from "../../../src/index.js";
import { inShellWorkspace, sh } from "./helpers.js";

type Out = { exitCode: number; stdout: string; stderr: string; status?: string };
const pick = (r: Out) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, status: r.status });
const ok = (stdout: string) => ({ exitCode: 0, stdout, stderr: "", status: "completed" });
const run = async (ws: Workspace, source: string, options: Parameters<typeof sh>[2] = {}) => pick(await sh(ws, source, options));
const text = (ws: Workspace, path: string) => ws.fs.readFile(path, "utf8");
const bytes = async (ws: Workspace, path: string) => [...new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer())];
const utf8 = (s: string) => [...new TextEncoder().encode(s)];

/** A small project: files at two depths, written by workspace.fs. */
async function seed(ws: Workspace): Promise<void> {
  await ws.fs.mkdir("/workspace/src/lib", { recursive: true });
  await ws.fs.writeFile("/workspace/a.txt", "hello\nTODO: a\n");
  await ws.fs.writeFile("/workspace/src/x.ts", "// TODO x\nconst x = 1;\n// TODO y\n");
  await ws.fs.writeFile("/workspace/src/lib/y.ts", "nothing\n");
}

describe("worker-shell: commands against durable files", () => {
  it("cat reads files workspace.fs wrote, whole and several at once", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      return [await run(ws, "cat a.txt"), await run(ws, "cat /workspace/a.txt src/lib/y.ts"), await run(ws, "cat < a.txt")];
    });
    expect(out).toEqual([ok("hello\nTODO: a\n"), ok("hello\nTODO: a\nnothing\n"), ok("hello\nTODO: a\n")]);
  });

  it("grep -rn walks the tree; no match is exit 1 with no output", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      return [await run(ws, "grep -rn TODO ."), await run(ws, "grep -rn TODO src"), await run(ws, "grep -rn NOPE .")];
    });
    expect(out[0]).toEqual(ok("./a.txt:2:TODO: a\n./src/x.ts:1:// TODO x\n./src/x.ts:3:// TODO y\n"));
    expect(out[1]).toEqual(ok("src/x.ts:1:// TODO x\nsrc/x.ts:3:// TODO y\n"));
    expect(out[2]).toEqual({ exitCode: 1, stdout: "", stderr: "", status: "failed" });
  });

  it("sed -i rewrites the durable file in place (bytes checked), and leaves the others", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      const r = await run(ws, "sed -i 's/TODO/DONE/' src/x.ts");
      return { r, x: await bytes(ws, "/workspace/src/x.ts"), a: await text(ws, "/workspace/a.txt"), list: await ws.fs.readdir("/workspace/src") };
    });
    expect(out.r).toEqual(ok(""));
    expect(out.x).toEqual(utf8("// DONE x\nconst x = 1;\n// DONE y\n"));
    expect(out.a).toBe("hello\nTODO: a\n");
    // sed -i leaves no temporary file behind.
    expect(out.list.map((e) => e.name)).toEqual(["lib", "x.ts"]);
  });

  it("find -name, and find | xargs (plain and -print0/-0) over the Workspace", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      await ws.fs.writeFile("/workspace/src/lib/with space.ts", "TODO z\n");
      return [
        await run(ws, "find . -name '*.ts' | sort"),
        await run(ws, "find src -name 'x.*'"),
        await run(ws, "find . -name '*.ts' -print0 | xargs -0 grep -l TODO | sort"),
        await run(ws, "find src/lib -name 'y.ts' | xargs wc -l"),
        await run(ws, "find . -name '*.ts' -print0 | xargs -0 sed -i 's/TODO/FIXED/' && grep -rc FIXED src | sort"),
      ];
    });
    expect(out[0]).toEqual(ok("./src/lib/with space.ts\n./src/lib/y.ts\n./src/x.ts\n"));
    expect(out[1]).toEqual(ok("src/x.ts\n"));
    expect(out[2]).toEqual(ok("./src/lib/with space.ts\n./src/x.ts\n"));
    expect(out[3]).toEqual(ok("1 src/lib/y.ts\n"));
    expect(out[4]).toEqual(ok("src/lib/with space.ts:1\nsrc/lib/y.ts:0\nsrc/x.ts:2\n"));
  });

  it("jq (with the jq group) reads a durable JSON file and writes one; without the group jq is 127 command not found", async () => {
    const withJq = await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace");
        await ws.fs.writeFile("/workspace/data.json", '{"a":{"b":[1,"é"]},"n":2}');
        const r = [
          await run(ws, "jq -c .a data.json"),
          await run(ws, "jq '.n * 21' data.json"),
          await run(ws, "jq -c '{sum: (.a.b[0] + .n)}' data.json > out.json"),
          await run(ws, "echo '{\"x\":[1,2]}' | jq -c '.x | map(. * 2)'"),
          await run(ws, "jq . nope.json"),
        ];
        return { r, written: await bytes(ws, "/workspace/out.json") };
      },
      { shell: { commands: [jq] } },
    );
    expect(withJq.r.slice(0, 4)).toEqual([ok('{"b":[1,"é"]}\n'), ok("42\n"), ok(""), ok("[2,4]\n")]);
    expect(withJq.r[4]).toEqual({ exitCode: 2, stdout: "", stderr: "jq: error: Could not open file nope.json: No such file or directory\n", status: "failed" });
    expect(withJq.written).toEqual(utf8('{"sum":3}\n'));

    const withoutJq = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace");
      await ws.fs.writeFile("/workspace/data.json", "{}");
      return [await run(ws, "jq . data.json"), await run(ws, "echo '{}' | jq .; echo rc=$?")];
    });
    const notFound = 'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))\n';
    expect(withoutJq[0]).toEqual({ exitCode: 127, stdout: "", stderr: notFound, status: "failed" });
    expect(withoutJq[1]).toEqual({ exitCode: 0, stdout: "rc=127\n", stderr: notFound, status: "completed" });
  });

  it("pipes chain commands, reading durable files", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      return [
        await run(ws, "printf 'b\\na\\nc\\n' | sort | head -2 | tr a-z A-Z"),
        await run(ws, "cat src/x.ts | grep TODO | wc -l"),
        await run(ws, "grep -rh TODO . | sed 's/.*TODO:* *//' | sort -r | tr '\\n' ,"),
      ];
    });
    expect(out).toEqual([ok("A\nB\n"), ok("2\n"), ok("y,x,a,")]);
  });

  it("redirects > (truncates), >> (appends), 2>&1 and 2> land in durable files byte-exact", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace");
      await ws.fs.writeFile("/workspace/o.txt", "old content that is longer\n");
      const r = [
        await run(ws, "echo a > o.txt; echo b >> o.txt; printf 'c' >> o.txt"),
        await run(ws, "cat nope > both.txt 2>&1; echo rc=$?"),
        await run(ws, "cat nope 2> err.txt; echo rc=$?"),
        await run(ws, "cat nope 2>&1 | tr a-z A-Z"),
        await run(ws, "echo to-err >&2"),
        await run(ws, "(echo out; echo err >&2) > mixed.txt 2>&1"),
      ];
      return {
        r,
        o: await bytes(ws, "/workspace/o.txt"),
        both: await text(ws, "/workspace/both.txt"),
        err: await text(ws, "/workspace/err.txt"),
        mixed: await text(ws, "/workspace/mixed.txt"),
      };
    });
    expect(out.r[0]).toEqual(ok(""));
    expect(out.o).toEqual(utf8("a\nb\nc"));
    expect(out.r[1]).toEqual(ok("rc=1\n"));
    expect(out.both).toBe("cat: nope: No such file or directory\n");
    expect(out.r[2]).toEqual(ok("rc=1\n"));
    expect(out.err).toBe("cat: nope: No such file or directory\n");
    expect(out.r[3]).toEqual(ok("CAT: NOPE: NO SUCH FILE OR DIRECTORY\n"));
    expect(out.r[4]).toEqual({ exitCode: 0, stdout: "", stderr: "to-err\n", status: "completed" });
    expect(out.r[5]).toEqual(ok(""));
    expect(out.mixed).toBe("out\nerr\n");
  });

  it("cd and relative paths: reads and writes relative to the shell's cwd, and exec's cwd option", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      const r = [
        await run(ws, "cd src && pwd && cat x.ts | head -1 && cd lib && ls && cat ../x.ts | wc -l && echo rel > ../../rel.txt && cd .. && echo here > here.txt"),
        await run(ws, "pwd; ls", { cwd: "/workspace/src/lib" }),
        await run(ws, "pwd; head -1 x.ts; echo deep > deep.txt; cat ../a.txt | wc -l", { cwd: "src" }),
        await run(ws, "cd /nope"),
        await run(ws, "pwd"),
      ];
      return { r, rel: await text(ws, "/workspace/rel.txt"), here: await text(ws, "/workspace/src/here.txt"), deep: await text(ws, "/workspace/src/deep.txt") };
    });
    expect(out.r[0]).toEqual(ok("/workspace/src\n// TODO x\ny.ts\n3\n"));
    expect(out.r[1]).toEqual(ok("/workspace/src/lib\ny.ts\n"));
    expect(out.r[2]).toEqual(ok("/workspace/src\n// TODO x\n2\n"));
    expect(out.r[3]).toEqual({ exitCode: 1, stdout: "", stderr: "bash: cd: /nope: No such file or directory\n", status: "failed" });
    // Each command starts in the default cwd again: a cd does not outlive its command.
    expect(out.r[4]).toEqual(ok("/workspace\n"));
    expect([out.rel, out.here, out.deep]).toEqual(["rel\n", "here\n", "deep\n"]);
  });

  it("globbing: *, ?, [..], across directories, and a glob that matches nothing stays literal", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await seed(ws);
      await ws.fs.writeFile("/workspace/b.txt", "b\n");
      await ws.fs.writeFile("/workspace/c.md", "c\n");
      return [
        await run(ws, "echo *.txt"),
        await run(ws, "echo ?.md [ab].txt"),
        await run(ws, "echo src/*.ts src/*/*.ts"),
        await run(ws, "cat *.txt"),
        await run(ws, "echo *.nothing"),
        await run(ws, "rm *.txt && ls"),
      ];
    });
    expect(out).toEqual([
      ok("a.txt b.txt\n"),
      ok("c.md a.txt b.txt\n"),
      ok("src/x.ts src/lib/y.ts\n"),
      ok("hello\nTODO: a\nb\n"),
      ok("*.nothing\n"),
      ok("c.md\nsrc\n"),
    ]);
  });

  it("quoting: names with spaces and Unicode (é, 日本, emoji) written by the shell are the Workspace's names, byte-exact", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace");
      const r = [
        await run(ws, "echo 'with space' > 'my file.txt'; cat \"my file.txt\"; cat my\\ file.txt"),
        await run(ws, "echo é > é.txt; echo 日本語 > 日本.txt; echo '🎉 ok' > '🎉 party.txt'; mkdir 'dir é'; echo in > 'dir é/日本 🎉.txt'"),
        await run(ws, "ls; cat 日本.txt '🎉 party.txt' 'dir é'/*"),
        await run(ws, "grep -rl 日本 .; find . -name '*🎉*' | sort"),
        await run(ws, "mv é.txt 'e é.txt' && ls | grep é"),
        await run(ws, "x='a  b'; echo $x; echo \"$x\"; echo '$x'"),
      ];
      return {
        r,
        names: (await ws.fs.readdir("/workspace")).map((e) => e.name),
        space: await bytes(ws, "/workspace/my file.txt"),
        nihon: await bytes(ws, "/workspace/日本.txt"),
        emoji: await bytes(ws, "/workspace/🎉 party.txt"),
        nested: await text(ws, "/workspace/dir é/日本 🎉.txt"),
        moved: await bytes(ws, "/workspace/e é.txt"),
      };
    });
    expect(out.r[0]).toEqual(ok("with space\nwith space\n"));
    expect(out.r[1]).toEqual(ok(""));
    expect(out.r[2]).toEqual(ok("dir é\nmy file.txt\né.txt\n日本.txt\n🎉 party.txt\n日本語\n🎉 ok\nin\n"));
    // grep -r names files under an explicit "." with GNU grep's "./" prefix; sort orders by bytes as GNU's C locale
    // (`d` before the emoji's f0; just-bash's localeCompare put the emoji first — issue 20, run 24).
    expect(out.r[3]).toEqual(ok("./日本.txt\n./dir é/日本 🎉.txt\n./🎉 party.txt\n"));
    expect(out.r[4]).toEqual(ok("dir é\ne é.txt\n"));
    expect(out.r[5]).toEqual(ok("a b\na  b\n$x\n"));
    expect(out.names).toEqual(["dir é", "e é.txt", "my file.txt", "日本.txt", "🎉 party.txt"]);
    expect(out.space).toEqual(utf8("with space\n"));
    expect(out.nihon).toEqual(utf8("日本語\n"));
    expect(out.emoji).toEqual(utf8("🎉 ok\n"));
    expect(out.nested).toBe("in\n");
    expect(out.moved).toEqual(utf8("é\n"));
  });

  it("reverse direction: what workspace.fs writes between commands (Unicode names, bytes, deletes) is what the next command sees", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/日本", { recursive: true });
      const r: Out[] = [];
      await ws.fs.writeFile("/workspace/日本/é 🎉.txt", "première\n");
      r.push(await run(ws, "cat '日本/é 🎉.txt'; ls 日本"));
      await ws.fs.writeFile("/workspace/日本/é 🎉.txt", "seconde\n");
      r.push(await run(ws, "cat 日本/*"));
      await ws.fs.writeFile("/workspace/bin.dat", new Uint8Array([0, 1, 2, 255, 10]));
      r.push(await run(ws, "wc -c < bin.dat; od -An -t x1 bin.dat"));
      await ws.fs.rm("/workspace/日本", { recursive: true });
      r.push(await run(ws, "ls; cat '日本/é 🎉.txt'"));
      await ws.fs.symlink("/workspace/bin.dat", "/workspace/link");
      r.push(await run(ws, "readlink link; wc -c link"));
      return r.map(pick);
    });
    expect(out[0]).toEqual(ok("première\né 🎉.txt\n"));
    expect(out[1]).toEqual(ok("seconde\n"));
    expect(out[2]).toEqual(ok("5\n 00 01 02 ff 0a\n"));
    expect(out[3]).toEqual({ exitCode: 1, stdout: "bin.dat\n", stderr: "cat: 日本/é 🎉.txt: No such file or directory\n", status: "failed" });
    expect(out[4]).toEqual(ok("/workspace/bin.dat\n5 link\n"));
  });

  it("binary bytes copied by the shell land unchanged (cp, cat >); printf's \\x80-\\xff escapes write those bytes", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace");
      await ws.fs.writeFile("/workspace/in.bin", new Uint8Array([0, 128, 255, 1, 0xc3]));
      const r = [await run(ws, "printf '\\x00\\x80\\xff\\n' > p.bin"), await run(ws, "cp in.bin copy.bin && cat in.bin > cat.bin")];
      return { r, p: await bytes(ws, "/workspace/p.bin"), copy: await bytes(ws, "/workspace/copy.bin"), cat: await bytes(ws, "/workspace/cat.bin") };
    });
    expect(out.r).toEqual([ok(""), ok("")]);
    // As bash: one byte per escape (just-bash wrote U+0080 and U+00FF as UTF-8, c2 80 c3 bf; fixer SP, run 24).
    expect(out.p).toEqual([0, 0x80, 0xff, 10]);
    expect(out.copy).toEqual([0, 128, 255, 1, 0xc3]);
    expect(out.cat).toEqual([0, 128, 255, 1, 0xc3]);
  });
});
