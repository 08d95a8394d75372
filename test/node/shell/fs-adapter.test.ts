/**
 * `WorkspaceFsAdapter` (spec 02 §6): real just-bash 3.4.2 commands over a
 * real Workspace on node:sqlite. Every command's stdout, stderr and exit code
 * are checked exactly, and so are the bytes the Workspace holds afterwards;
 * the reverse direction (written with `workspace.fs`, read by the shell) too.
 */
import { describe, expect, it } from "vitest";
import { Bash } from "just-bash";
import { Workspace, WorkerBundle } from "../../../src/index.js";
import { DEFAULT_MAX_READ_BYTES, WorkspaceFsAdapter, type WorkspaceFs } from "../../../src/backends/worker-shell/fs-adapter.js";
import { memoryStorages } from "../tools/helpers.js";

const memoryStorage = memoryStorages();

async function setup(options: { maxReadBytes?: number; wrap?: (fs: WorkspaceFs) => WorkspaceFs } = {}) {
  let t = Date.UTC(2026, 0, 2, 3, 4, 5);
  const storage = memoryStorage();
  const ws = new Workspace({
    storage,
    now: () => t++,
    mounts: { "/ro": WorkerBundle({ "a.txt": "read only\n", "sub/b.txt": "b\n" }) },
  });
  await ws.ready();
  await ws.fs.mkdir("/workspace");
  const fs = options.wrap ? options.wrap(ws.fs) : ws.fs;
  const adapter = new WorkspaceFsAdapter(fs, options.maxReadBytes === undefined ? {} : { maxReadBytes: options.maxReadBytes });
  const bash = new Bash({ fs: adapter, cwd: "/workspace" });
  const run = async (command: string) => {
    const r = await bash.exec(command);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  };
  const bytes = async (path: string) => [...new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer())];
  const text = (path: string) => ws.fs.readFile(path, "utf8");
  return { storage, ws, adapter, bash, run, bytes, text };
}

const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0 });
const utf8 = (s: string) => [...new TextEncoder().encode(s)];

describe("WorkspaceFsAdapter under just-bash: commands on durable files", () => {
  it("cat reads what workspace.fs wrote; a missing file prints bash's message with exit 1", async () => {
    const { ws, run } = await setup();
    await ws.fs.writeFile("/workspace/a.txt", "hello\nworld\n");
    expect(await run("cat a.txt")).toEqual(ok("hello\nworld\n"));
    expect(await run("cat /workspace/a.txt nope")).toEqual({ stdout: "hello\nworld\n", stderr: "cat: nope: No such file or directory\n", exitCode: 1 });
    expect(await run("cat nope")).toEqual({ stdout: "", stderr: "cat: nope: No such file or directory\n", exitCode: 1 });
    expect(await run("cat /workspace")).toEqual({ stdout: "", stderr: "cat: /workspace: No such file or directory\n", exitCode: 1 });
    expect(await run("cat < nope")).toEqual({ stdout: "", stderr: "bash: nope: No such file or directory\n", exitCode: 1 });
  });

  it("grep -rn walks the Workspace tree", async () => {
    const { ws, run } = await setup();
    await ws.fs.mkdir("/workspace/src/lib", { recursive: true });
    await ws.fs.writeFile("/workspace/a.txt", "one\nTODO: a\n");
    await ws.fs.writeFile("/workspace/src/x.ts", "// TODO x\nconst x = 1;\n// TODO y\n");
    await ws.fs.writeFile("/workspace/src/lib/y.ts", "nothing\n");
    expect(await run("grep -rn TODO .")).toEqual(ok("a.txt:2:TODO: a\nsrc/x.ts:1:// TODO x\nsrc/x.ts:3:// TODO y\n"));
    expect(await run("grep -rn TODO src")).toEqual(ok("src/x.ts:1:// TODO x\nsrc/x.ts:3:// TODO y\n"));
    expect(await run("grep -rn NOPE .")).toEqual({ stdout: "", stderr: "", exitCode: 1 });
    expect(await run("grep -c TODO src/x.ts a.txt")).toEqual(ok("src/x.ts:2\na.txt:1\n"));
  });

  it("sed -i rewrites the file in the Workspace and keeps its mode and inode", async () => {
    const { ws, run, bytes } = await setup();
    await ws.fs.writeFile("/workspace/run.sh", "#!/bin/sh\necho world\n", { mode: 0o755 });
    const before = await ws.fs.stat("/workspace/run.sh");
    expect(await run("sed -i 's/world/there/' run.sh")).toEqual(ok(""));
    expect(await bytes("/workspace/run.sh")).toEqual(utf8("#!/bin/sh\necho there\n"));
    const after = await ws.fs.stat("/workspace/run.sh");
    expect(after.mode).toBe(0o755);
    expect(after.inode).toBe(before.inode);
    expect(await run("stat -c %a run.sh")).toEqual(ok("755\n"));
  });

  it("find -name and xargs", async () => {
    const { ws, run } = await setup();
    await ws.fs.mkdir("/workspace/src/deep", { recursive: true });
    await ws.fs.writeFile("/workspace/src/a.ts", "A\n");
    await ws.fs.writeFile("/workspace/src/deep/b.ts", "B\n");
    await ws.fs.writeFile("/workspace/src/c.md", "C\n");
    expect(await run("find . -name '*.ts'")).toEqual(ok("./src/a.ts\n./src/deep/b.ts\n"));
    expect(await run("find src -type d")).toEqual(ok("src\nsrc/deep\n"));
    expect(await run("find . -name '*.ts' | xargs cat")).toEqual(ok("A\nB\n"));
    expect(await run("find . -name '*.ts' | xargs wc -l")).toEqual(ok("  1 ./src/a.ts\n  1 ./src/deep/b.ts\n  2 total\n"));
  });

  it("jq reads a file workspace.fs wrote, and its output redirected lands in the Workspace", async () => {
    const { ws, run, text } = await setup();
    await ws.fs.writeFile("/workspace/data.json", JSON.stringify({ users: [{ name: "Zoë", age: 31 }, { name: "Ann", age: 40 }] }));
    expect(await run("jq -r '.users[].name' data.json")).toEqual(ok("Zoë\nAnn\n"));
    expect(await run("jq -c '[.users[] | select(.age > 35)]' data.json > old.json")).toEqual(ok(""));
    expect(await text("/workspace/old.json")).toBe('[{"name":"Ann","age":40}]\n');
    expect(await run("cat data.json | jq '.users | length'")).toEqual(ok("2\n"));
  });

  it("pipes and redirects: >, >>, 2>&1, < and /dev/null", async () => {
    const { ws, run, bytes } = await setup();
    await ws.fs.writeFile("/workspace/in.txt", "b\na\nc\n");
    expect(await run("echo one > o.txt; echo two >> o.txt")).toEqual(ok(""));
    expect(await bytes("/workspace/o.txt")).toEqual(utf8("one\ntwo\n"));
    expect(await run("echo three > o.txt")).toEqual(ok(""));
    expect(await bytes("/workspace/o.txt")).toEqual(utf8("three\n"));
    expect(await run("cat in.txt nope > both.txt 2>&1")).toEqual({ stdout: "", stderr: "", exitCode: 1 });
    expect(await bytes("/workspace/both.txt")).toEqual(utf8("b\na\nc\ncat: nope: No such file or directory\n"));
    expect(await run("cat nope 2>&1 | tr a-z A-Z")).toEqual(ok("CAT: NOPE: NO SUCH FILE OR DIRECTORY\n"));
    expect(await run("sort < in.txt | head -2 > sorted.txt")).toEqual(ok(""));
    expect(await bytes("/workspace/sorted.txt")).toEqual(utf8("a\nb\n"));
    expect(await run("cat nope 2>/dev/null; echo $?")).toEqual(ok("1\n"));
    expect(await run("echo gone > /dev/null; cat /dev/null; wc -c < /dev/null")).toEqual(ok("0\n"));
    expect(await ws.fs.readdir("/").then((d) => d.map((e) => e.name))).toEqual(["ro", "workspace"]); // /dev/null stored nothing
    expect(await run("echo hi > /workspace")).toEqual({ stdout: "", stderr: "bash: /workspace: Is a directory\n", exitCode: 1 });
    expect(await run("echo hi > nodir/f")).toEqual({
      stdout: "",
      stderr: "bash: ENOENT: no such file or directory, write '/workspace/nodir/f'\n",
      exitCode: 1,
    });
  });

  it("cd and relative paths", async () => {
    const { ws, run, bytes } = await setup();
    await ws.fs.mkdir("/workspace/src");
    await ws.fs.writeFile("/workspace/src/x.ts", "x\n");
    expect(await run("cd src && cat x.ts && echo up > ../up.txt && echo here > ./here.txt && pwd")).toEqual(ok("x\n/workspace/src\n"));
    expect(await bytes("/workspace/up.txt")).toEqual(utf8("up\n"));
    expect(await bytes("/workspace/src/here.txt")).toEqual(utf8("here\n"));
    expect(await run("cd nope")).toEqual({ stdout: "", stderr: "bash: cd: nope: No such file or directory\n", exitCode: 1 });
    expect(await run("cd src/x.ts")).toEqual({ stdout: "", stderr: "bash: cd: src/x.ts: Not a directory\n", exitCode: 1 });
    expect(await run("cd src/../src/./ && cat ../src/x.ts")).toEqual(ok("x\n"));
  });

  it("globbing lists Workspace directories", async () => {
    const { ws, run } = await setup();
    for (const name of ["b.txt", "a.txt", "c.md", ".hidden.txt"]) await ws.fs.writeFile(`/workspace/${name}`, `${name}\n`);
    await ws.fs.mkdir("/workspace/d");
    await ws.fs.writeFile("/workspace/d/e.txt", "e\n");
    expect(await run("echo *.txt")).toEqual(ok("a.txt b.txt\n"));
    expect(await run("cat *.txt")).toEqual(ok("a.txt\nb.txt\n"));
    expect(await run("echo */*.txt")).toEqual(ok("d/e.txt\n"));
    expect(await run("echo *.nomatch")).toEqual(ok("*.nomatch\n"));
    expect(await run('for f in *.txt; do echo "[$f]"; done')).toEqual(ok("[a.txt]\n[b.txt]\n"));
  });

  it("quoting with spaces and Unicode names (é, 日本, emoji) round-trips both ways", async () => {
    const { ws, run, bytes } = await setup();
    expect(await run("mkdir -p 'd é/日本/🎉' && echo 'é 日本 🎉' > 'd é/日本/🎉/f 1.txt'")).toEqual(ok(""));
    expect((await ws.fs.readdir("/workspace/d é/日本/🎉")).map((e) => e.name)).toEqual(["f 1.txt"]);
    expect(await bytes("/workspace/d é/日本/🎉/f 1.txt")).toEqual(utf8("é 日本 🎉\n"));
    expect(await run('cat "d é"/*/*/*')).toEqual(ok("é 日本 🎉\n"));
    await ws.fs.writeFile("/workspace/ü ñ.txt", "naïve ☃\n");
    expect(await run("cat 'ü ñ.txt'; ls")).toEqual(ok("naïve ☃\nd é\nü ñ.txt\n"));
    expect(await run("grep -rn ☃ .")).toEqual(ok("ü ñ.txt:1:naïve ☃\n"));
  });

  it("mkdir -p and rm -r create and remove Workspace entries", async () => {
    const { ws, run } = await setup();
    expect(await run("mkdir -p a/b/c && echo x > a/b/c/f && echo y > a/g")).toEqual(ok(""));
    expect(await ws.fs.ls("/workspace")).toEqual(["/workspace/a/b/c/f", "/workspace/a/g"]);
    expect(await run("mkdir a")).toEqual({ stdout: "", stderr: "mkdir: cannot create directory 'a': File exists\n", exitCode: 1 });
    expect(await run("mkdir x/y")).toEqual({ stdout: "", stderr: "mkdir: cannot create directory 'x/y': No such file or directory\n", exitCode: 1 });
    expect(await run("rm a")).toEqual({ stdout: "", stderr: "rm: cannot remove 'a': Is a directory\n", exitCode: 1 });
    expect(await run("rmdir a")).toEqual({ stdout: "", stderr: "rmdir: failed to remove 'a': Directory not empty\n", exitCode: 1 });
    expect(await run("rm -r a")).toEqual(ok(""));
    await expect(ws.fs.lstat("/workspace/a")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await ws.fs.ls("/workspace")).toEqual([]);
    expect(await run("rm nope")).toEqual({ stdout: "", stderr: "rm: cannot remove 'nope': No such file or directory\n", exitCode: 1 });
    expect(await run("rm -f nope")).toEqual(ok(""));
  });

  it("mv renames in place (same inode, same bytes)", async () => {
    const { ws, run, bytes } = await setup();
    await ws.fs.writeFile("/workspace/a.txt", "A\n");
    await ws.fs.mkdir("/workspace/dir");
    const inode = (await ws.fs.stat("/workspace/a.txt")).inode;
    expect(await run("mv a.txt b.txt && mv b.txt dir/")).toEqual(ok(""));
    expect((await ws.fs.stat("/workspace/dir/b.txt")).inode).toBe(inode);
    expect(await bytes("/workspace/dir/b.txt")).toEqual(utf8("A\n"));
    await expect(ws.fs.lstat("/workspace/a.txt")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await run("mv nope x")).toEqual({ stdout: "", stderr: "mv: cannot stat 'nope': No such file or directory\n", exitCode: 1 });
  });

  it("cp -r copies bytes and modes, and links as links", async () => {
    const { ws, run, bytes } = await setup();
    await ws.fs.mkdir("/workspace/src/sub", { recursive: true });
    await ws.fs.writeFile("/workspace/src/run.sh", "#!/bin/sh\n", { mode: 0o755 });
    await ws.fs.writeFile("/workspace/src/sub/bin", new Uint8Array([0, 255, 128, 10]));
    await ws.fs.symlink("sub/bin", "/workspace/src/link");
    expect(await run("cp src/run.sh copy.sh && cp -r src dst")).toEqual(ok(""));
    expect(await bytes("/workspace/copy.sh")).toEqual(utf8("#!/bin/sh\n"));
    expect((await ws.fs.stat("/workspace/copy.sh")).mode).toBe(0o755);
    expect((await ws.fs.readdir("/workspace/dst")).map((e) => [e.name, e.isFile, e.isDirectory, e.isSymbolicLink])).toEqual([
      ["link", false, false, true],
      ["run.sh", true, false, false],
      ["sub", false, true, false],
    ]);
    expect(await ws.fs.readlink("/workspace/dst/link")).toBe("sub/bin");
    expect(await bytes("/workspace/dst/sub/bin")).toEqual([0, 255, 128, 10]);
    expect(await bytes("/workspace/dst/link")).toEqual([0, 255, 128, 10]);
    expect((await ws.fs.stat("/workspace/dst/run.sh")).mode).toBe(0o755);
    expect(await run("cp src nodst")).toEqual({ stdout: "", stderr: "cp: -r not specified; omitting directory 'src'\n", exitCode: 1 });
    expect(await run("cp -r . ./inside")).toEqual({ stdout: "", stderr: "cp: cannot copy '.' into itself, '/workspace/inside'\n", exitCode: 1 });
    expect(await run("cp nope x")).toEqual({ stdout: "", stderr: "cp: cannot stat 'nope': No such file or directory\n", exitCode: 1 });
  });

  it("ln -s and readlink; a hard link is refused with ENOSYS and creates nothing", async () => {
    const { ws, run } = await setup();
    await ws.fs.writeFile("/workspace/a.txt", "A\n");
    expect(await run("ln -s a.txt l && readlink l && cat l")).toEqual(ok("a.txt\nA\n"));
    expect(await ws.fs.readlink("/workspace/l")).toBe("a.txt");
    expect(await run("readlink -f l")).toEqual(ok("/workspace/a.txt\n"));
    expect(await run("readlink a.txt")).toEqual({ stdout: "", stderr: "", exitCode: 1 });
    expect(await run("ln -s a.txt l")).toEqual({ stdout: "", stderr: "ln: failed to create symbolic link 'l': File exists\n", exitCode: 1 });
    expect(await run("ln -s nowhere dangling; cat dangling")).toEqual({ stdout: "", stderr: "cat: dangling: No such file or directory\n", exitCode: 1 });
    expect(await run("echo made > dangling && cat nowhere")).toEqual(ok("made\n")); // written through the link
    expect(await run("ln a.txt hard")).toEqual({ stdout: "", stderr: "ln: ENOSYS: function not implemented, link '/workspace/a.txt'\n", exitCode: 1 });
    await expect(ws.fs.lstat("/workspace/hard")).rejects.toMatchObject({ code: "ENOENT" });
    await ws.fs.mkdir("/workspace/d");
    expect(await run("ln -s d dl && cd -P dl && pwd")).toEqual(ok("/workspace/d\n"));
  });

  it("binary bytes survive cat > and base64 (reverse direction: bytes written by workspace.fs)", async () => {
    const { ws, run, bytes } = await setup();
    const all = Array.from({ length: 256 }, (_, i) => i);
    await ws.fs.writeFile("/workspace/b.bin", new Uint8Array(all));
    expect(await run("cat b.bin > c.bin && wc -c c.bin")).toEqual(ok("256 c.bin\n"));
    expect(await bytes("/workspace/c.bin")).toEqual(all);
    await ws.fs.writeFile("/workspace/s.bin", new Uint8Array([0, 255, 128, 65]));
    expect(await run("base64 s.bin")).toEqual(ok("AP+AQQ==\n"));
    expect(await run("base64 s.bin | base64 -d > t.bin")).toEqual(ok(""));
    expect(await bytes("/workspace/t.bin")).toEqual([0, 255, 128, 65]);
  });

  it("a read-only mount refuses rm and > with EROFS and keeps its bytes", async () => {
    const { run, bytes } = await setup();
    expect(await run("cat /ro/a.txt")).toEqual(ok("read only\n"));
    expect(await run("rm /ro/a.txt")).toEqual({
      stdout: "",
      stderr: "rm: cannot remove '/ro/a.txt': EROFS: read-only file system, rm '/ro/a.txt'\n",
      exitCode: 1,
    });
    expect(await run("rm -r /ro/sub")).toEqual({
      stdout: "",
      stderr: "rm: cannot remove '/ro/sub': EROFS: read-only file system, rm '/ro/sub'\n",
      exitCode: 1,
    });
    // just-bash's rm -f swallows every error (GNU rm -f would still report EROFS); the bytes stay all the same.
    expect(await run("rm -rf /ro/sub")).toEqual(ok(""));
    expect(await run("echo x > /ro/a.txt")).toEqual({ stdout: "", stderr: "bash: EROFS: read-only file system, write '/ro/a.txt'\n", exitCode: 1 });
    expect(await run("echo x >> /ro/a.txt")).toEqual({ stdout: "", stderr: "bash: EROFS: read-only file system, append '/ro/a.txt'\n", exitCode: 1 });
    expect(await run("cd /ro && echo x > new.txt")).toEqual({ stdout: "", stderr: "bash: EROFS: read-only file system, write '/ro/new.txt'\n", exitCode: 1 });
    // just-bash's sed reports any failure of the file as "No such file or directory" (its own wording, not ours).
    expect(await run("sed -i s/read/write/ /ro/a.txt")).toEqual({ stdout: "", stderr: "sed: /ro/a.txt: No such file or directory\n", exitCode: 1 });
    expect(await bytes("/ro/a.txt")).toEqual(utf8("read only\n"));
    expect(await bytes("/ro/sub/b.txt")).toEqual(utf8("b\n"));
  });

  it("reads past maxReadBytes are refused with EFBIG; streamed cp and >> still work", async () => {
    const { ws, adapter, run, bytes } = await setup({ maxReadBytes: 100 });
    await ws.fs.writeFile("/workspace/big", "x".repeat(150));
    await ws.fs.writeFile("/workspace/small", "y".repeat(100));
    const err = await adapter.readFile("/workspace/big").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      code: "EFBIG",
      syscall: "open",
      path: "/workspace/big",
      message: "EFBIG: file too large (the shell reads at most 100 bytes of a file), open '/workspace/big'",
    });
    await expect(adapter.readFileBuffer("/workspace/big")).rejects.toMatchObject({ code: "EFBIG" });
    expect((await adapter.readFileBuffer("/workspace/small")).byteLength).toBe(100);
    // just-bash's file commands print "No such file or directory" for any read failure, whatever its code.
    expect(await run("cat big")).toEqual({ stdout: "", stderr: "cat: big: No such file or directory\n", exitCode: 1 });
    expect(await run("wc -c small")).toEqual(ok("100 small\n"));
    expect(await run("cp big big2 && echo z >> big && echo done")).toEqual(ok("done\n"));
    expect(await bytes("/workspace/big2")).toEqual(utf8("x".repeat(150)));
    expect(await bytes("/workspace/big")).toEqual(utf8(`${"x".repeat(150)}z\n`));
  });

  it("an over-limit read stops pulling the Workspace stream early", async () => {
    let pulled = 0;
    const { ws, adapter } = await setup({
      maxReadBytes: 600 * 1024,
      wrap: (fs) => ({
        ...fs,
        stat: fs.stat.bind(fs),
        lstat: fs.lstat.bind(fs),
        readdir: fs.readdir.bind(fs),
        readFile: (async (path: string) => {
          const stream = await fs.readFile(path);
          return stream.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                pulled += chunk.byteLength;
                controller.enqueue(chunk);
              },
            }),
          );
        }) as WorkspaceFs["readFile"],
      }),
    });
    await ws.fs.writeFile("/workspace/huge", new Uint8Array(4 * 1024 * 1024));
    await expect(adapter.readFileBuffer("/workspace/huge")).rejects.toMatchObject({ code: "EFBIG" });
    expect(pulled).toBeGreaterThan(600 * 1024);
    expect(pulled).toBeLessThanOrEqual(2 * 512 * 1024 + 64 * 1024);
    expect(DEFAULT_MAX_READ_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe("WorkspaceFsAdapter methods", () => {
  it("encodings: utf8 (BOM kept), latin1/binary 1:1, ascii, base64, hex", async () => {
    const { ws, adapter, bytes } = await setup();
    await adapter.writeFile("/workspace/l.bin", "\u00ff\u0000\u0080A", "latin1");
    expect(await bytes("/workspace/l.bin")).toEqual([255, 0, 128, 65]);
    expect(await adapter.readFile("/workspace/l.bin", "binary")).toBe("\u00ff\u0000\u0080A");
    expect(await adapter.readFile("/workspace/l.bin", { encoding: "latin1" })).toBe("\u00ff\u0000\u0080A");
    expect(await adapter.readFile("/workspace/l.bin", "ascii")).toBe("\u007f\u0000\u0000A");
    expect(await adapter.readFile("/workspace/l.bin", "hex")).toBe("ff008041");
    expect(await adapter.readFile("/workspace/l.bin", "base64")).toBe("/wCAQQ==");
    await adapter.writeFile("/workspace/h.bin", "00ff10", { encoding: "hex" });
    expect(await bytes("/workspace/h.bin")).toEqual([0, 255, 16]);
    await adapter.writeFile("/workspace/b64.bin", "/wCAQQ==", "base64");
    expect(await bytes("/workspace/b64.bin")).toEqual([255, 0, 128, 65]);
    await adapter.writeFile("/workspace/u.txt", "\ufeffé日🎉");
    expect(await bytes("/workspace/u.txt")).toEqual(utf8("\ufeffé日🎉"));
    expect(await adapter.readFile("/workspace/u.txt")).toBe("\ufeffé日🎉");
    expect(await adapter.readFile("/workspace/u.txt", "utf-8")).toBe("\ufeffé日🎉");
    expect(String(await adapter.readFileBytes("/workspace/l.bin"))).toBe("\u00ff\u0000\u0080A");
    await adapter.appendFile("/workspace/u.txt", "ff", "hex");
    expect(await bytes("/workspace/u.txt")).toEqual([...utf8("\ufeffé日🎉"), 255]);
    await adapter.appendFile("/workspace/new.txt", new Uint8Array([1, 2]));
    expect(await bytes("/workspace/new.txt")).toEqual([1, 2]);
    await expect(ws.fs.readFile("/workspace/u.txt", "utf8")).resolves.toBe("é日🎉\ufffd"); // the Workspace drops the BOM; the adapter does not
  });

  it("errors carry code, syscall, path, just-bash's message and the Workspace error as cause", async () => {
    const { adapter } = await setup();
    const err = (p: Promise<unknown>) => p.then(() => "resolved", (e: Error & { code?: string; cause?: { code?: string } }) => [e.code, e.message, e.cause?.code]);
    await adapter.mkdir("/workspace/d");
    await adapter.writeFile("/workspace/f", "F");
    expect(await err(adapter.readFile("/workspace/nope"))).toEqual(["ENOENT", "ENOENT: no such file or directory, open '/workspace/nope'", "ENOENT"]);
    expect(await err(adapter.readFile("/workspace/d"))).toEqual(["EISDIR", "EISDIR: illegal operation on a directory, read '/workspace/d'", "EISDIR"]);
    expect(await err(adapter.readdir("/workspace/f"))).toEqual(["ENOTDIR", "ENOTDIR: not a directory, scandir '/workspace/f'", "ENOTDIR"]);
    expect(await err(adapter.stat("/workspace/nope"))).toEqual(["ENOENT", "ENOENT: no such file or directory, stat '/workspace/nope'", "ENOENT"]);
    expect(await err(adapter.mkdir("/workspace/d"))).toEqual(["EEXIST", "EEXIST: file already exists, mkdir '/workspace/d'", "EEXIST"]);
    await adapter.writeFile("/workspace/d/x", "x");
    expect(await err(adapter.rm("/workspace/d"))).toEqual(["ENOTEMPTY", "ENOTEMPTY: directory not empty, rm '/workspace/d'", "ENOTEMPTY"]);
    expect(await err(adapter.rm("/ro/a.txt"))).toEqual(["EROFS", "EROFS: read-only file system, rm '/ro/a.txt'", "EROFS"]);
    expect(await err(adapter.readlink("/workspace/f"))).toEqual(["EINVAL", "EINVAL: invalid argument, readlink '/workspace/f'", "EINVAL"]);
    expect(await err(adapter.link("/workspace/f", "/workspace/g"))).toEqual(["ENOSYS", "ENOSYS: function not implemented, link '/workspace/f'", undefined]);
    expect(await err(adapter.appendFile("/workspace/d", "x"))).toEqual(["EISDIR", "EISDIR: illegal operation on a directory, append '/workspace/d'", undefined]);
    expect(await err(adapter.cp("/workspace/d", "/workspace/e"))).toEqual(["EISDIR", "EISDIR: is a directory, cp '/workspace/d'", undefined]);
    expect(await err(adapter.cp("/workspace/d", "/workspace/d/in", { recursive: true }))).toEqual([
      "EINVAL",
      "EINVAL: cannot copy '/workspace/d' into itself, '/workspace/d/in', cp '/workspace/d'",
      undefined,
    ]);
    expect(await err(adapter.utimes("/workspace/nope", new Date(), new Date()))).toEqual(["ENOENT", "ENOENT: no such file or directory, utimes '/workspace/nope'", "ENOENT"]);
    expect(await err(adapter.readFile("/workspace/a\0b"))).toEqual(["ENOENT", "ENOENT: path contains null byte, open '/workspace/a\0b'", undefined]);
    expect(await adapter.link("/x", "/y").catch((e: unknown) => e instanceof Error)).toBe(true);
  });

  it("stat, lstat, readdir, readdirWithFileTypes, exists", async () => {
    const { ws, adapter } = await setup();
    await ws.fs.writeFile("/workspace/f", "four", { mode: 0o600 });
    await ws.fs.symlink("f", "/workspace/l");
    await ws.fs.symlink("nowhere", "/workspace/dangling");
    await ws.fs.mkdir("/workspace/d");
    const ws_f = await ws.fs.stat("/workspace/f");
    expect(await adapter.stat("/workspace/l")).toEqual({
      isFile: true,
      isDirectory: false,
      isSymbolicLink: false,
      mode: 0o600,
      size: 4,
      mtime: new Date(ws_f.mtime),
      ino: ws_f.inode,
      identity: `workspace:${ws_f.inode}`,
    });
    expect(await adapter.lstat("/workspace/l")).toMatchObject({ isFile: false, isSymbolicLink: true, mode: 0o777, size: 1 });
    expect(await adapter.readdir("/workspace")).toEqual(["d", "dangling", "f", "l"]);
    expect(await adapter.readdirWithFileTypes("/workspace")).toEqual([
      { name: "d", isFile: false, isDirectory: true, isSymbolicLink: false },
      { name: "dangling", isFile: false, isDirectory: false, isSymbolicLink: true },
      { name: "f", isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "l", isFile: false, isDirectory: false, isSymbolicLink: true },
    ]);
    expect(await adapter.exists("/workspace/f")).toBe(true);
    expect(await adapter.exists("/workspace/l")).toBe(true);
    expect(await adapter.exists("/workspace/dangling")).toBe(false);
    expect(await adapter.exists("/workspace/nope")).toBe(false);
    expect(await adapter.exists("/dev/null")).toBe(true);
    expect(adapter.getAllPaths()).toEqual([]);
  });

  it("realpath resolves links (relative and absolute, mid-path), ELOOP past 40 hops", async () => {
    const { ws, adapter } = await setup();
    await ws.fs.mkdir("/workspace/real/inner", { recursive: true });
    await ws.fs.writeFile("/workspace/real/inner/f", "f");
    await ws.fs.symlink("real", "/workspace/r");
    await ws.fs.symlink("/workspace/r/inner", "/workspace/abs");
    await ws.fs.symlink("../inner/f", "/workspace/real/inner/up");
    expect(await adapter.realpath("/workspace/r/inner/f")).toBe("/workspace/real/inner/f");
    expect(await adapter.realpath("/workspace/abs/f")).toBe("/workspace/real/inner/f");
    expect(await adapter.realpath("/workspace/abs/up")).toBe("/workspace/real/inner/f");
    expect(await adapter.realpath("/workspace/./r/../r/inner")).toBe("/workspace/real/inner");
    expect(await adapter.realpath("/")).toBe("/");
    await expect(adapter.realpath("/workspace/r/nope")).rejects.toMatchObject({ code: "ENOENT", message: "ENOENT: no such file or directory, realpath '/workspace/r/nope'" });
    await expect(adapter.realpath("/workspace/real/inner/f/x")).rejects.toMatchObject({ code: "ENOTDIR" });
    await ws.fs.symlink("loop2", "/workspace/loop1");
    await ws.fs.symlink("loop1", "/workspace/loop2");
    await expect(adapter.realpath("/workspace/loop1")).rejects.toMatchObject({
      code: "ELOOP",
      message: "ELOOP: too many levels of symbolic links, realpath '/workspace/loop1'",
    });
    for (let i = 0; i < 41; i++) await ws.fs.symlink(`c${i + 1}`, `/workspace/c${i}`);
    await ws.fs.writeFile("/workspace/c41", "end");
    await expect(adapter.realpath("/workspace/c1")).resolves.toBe("/workspace/c41"); // 40 hops
    await expect(adapter.realpath("/workspace/c0")).rejects.toMatchObject({ code: "ELOOP" }); // 41 hops
  });

  it("resolvePath joins and normalises like POSIX", async () => {
    const { adapter } = await setup();
    expect(adapter.resolvePath("/workspace", "a/b")).toBe("/workspace/a/b");
    // A path that can only name a directory keeps that form (a trailing `/`, a last `.`). A `..` is kept for the
    // method to walk physically (it goes up from where a link before it leads), one at `/` dropped (fixer DD, run 35).
    expect(adapter.resolvePath("/workspace/src", "../x//y/./z/")).toBe("/workspace/src/../x/y/z/"); // fixer DD
    expect(adapter.resolvePath("/workspace", "f.txt/./")).toBe("/workspace/f.txt/.");
    expect(adapter.resolvePath("/workspace", "f.txt/..")).toBe("/workspace/f.txt/.."); // fixer DD
    expect(adapter.resolvePath("/workspace", "./")).toBe("/workspace");
    expect(adapter.resolvePath("/workspace", "/")).toBe("/");
    expect(adapter.resolvePath("/workspace", "/abs/../b")).toBe("/abs/../b"); // fixer DD
    expect(adapter.resolvePath("/", "../../..")).toBe("/");
    expect(adapter.resolvePath("/workspace", ".")).toBe("/workspace");
    expect(adapter.resolvePath("/", "é 日本/🎉")).toBe("/é 日本/🎉");
  });

  it("a path in directory form (f/, f/.) must lead to a directory: codes as open(2)/stat(2), nothing written", async () => {
    const { ws, adapter } = await setup();
    await ws.fs.writeFile("/workspace/f.txt", "keep\n");
    await ws.fs.mkdir("/workspace/d");
    const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);
    expect({
      statF: await code(adapter.stat("/workspace/f.txt/")),
      lstatF: await code(adapter.lstat("/workspace/f.txt/.")),
      statD: (await adapter.stat("/workspace/d/")).isDirectory,
      exists: [await adapter.exists("/workspace/f.txt/"), await adapter.exists("/workspace/d/."), await adapter.exists("/workspace/f.txt")],
      read: await code(adapter.readFile("/workspace/f.txt/")),
      writeF: await code(adapter.writeFile("/workspace/f.txt/", "x")),
      writeDotF: await code(adapter.writeFile("/workspace/f.txt/.", "x")),
      writeNew: await code(adapter.writeFile("/workspace/new/", "x")),
      writeNewDot: await code(adapter.writeFile("/workspace/new/.", "x")),
      appendF: await code(adapter.appendFile("/workspace/f.txt/.", "x")),
      cpTo: await code(adapter.cp("/workspace/f.txt", "/workspace/g.txt/")),
      cpFrom: await code(adapter.cp("/workspace/f.txt/", "/workspace/g.txt")),
      mvTo: await code(adapter.mv("/workspace/f.txt", "/workspace/d2/")),
      mvFrom: await code(adapter.mv("/workspace/f.txt/", "/workspace/g.txt")),
      rm: await code(adapter.rm("/workspace/f.txt/")),
      chmod: await code(adapter.chmod("/workspace/f.txt/", 0o600)),
      utimes: await code(adapter.utimes("/workspace/f.txt/", new Date(0), new Date(0))),
      mkdirDot: await code(adapter.mkdir("/workspace/new/.")),
      realpath: await code(adapter.realpath("/workspace/f.txt/")),
      realpathD: await adapter.realpath("/workspace/d/."),
    }).toEqual({
      statF: "ENOTDIR",
      lstatF: "ENOTDIR",
      statD: true,
      exists: [false, true, true],
      read: "ENOTDIR",
      writeF: "EISDIR",
      writeDotF: "ENOTDIR",
      writeNew: "EISDIR",
      writeNewDot: "ENOENT",
      appendF: "ENOTDIR",
      cpTo: "EISDIR",
      cpFrom: "ENOTDIR",
      mvTo: "ENOTDIR",
      mvFrom: "ENOTDIR",
      rm: "ENOTDIR",
      chmod: "ENOTDIR",
      utimes: "ENOTDIR",
      mkdirDot: "ENOENT",
      realpath: "ENOTDIR",
      realpathD: "/workspace/d",
    });
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["d", "f.txt"]);
    expect(await ws.fs.readFile("/workspace/f.txt", "utf8")).toBe("keep\n");
    expect((await ws.fs.stat("/workspace/f.txt")).mode).toBe(0o644);
    // A directory in that form is the directory: moved into, written under, made.
    await adapter.mkdir("/workspace/e/", { recursive: true });
    await adapter.mv("/workspace/d/", "/workspace/e/d/");
    await adapter.writeFile("/workspace/e/d/./x", "x");
    expect(await ws.fs.readFile("/workspace/e/d/x", "utf8")).toBe("x");
  });

  it("utimes only checks existence; chmod and symlink go to the Workspace", async () => {
    const { ws, adapter } = await setup();
    await ws.fs.writeFile("/workspace/f", "f");
    const before = await ws.fs.stat("/workspace/f");
    await adapter.utimes("/workspace/f", new Date(0), new Date(0));
    expect(await ws.fs.stat("/workspace/f")).toEqual(before);
    await adapter.chmod("/workspace/f", 0o700);
    expect((await ws.fs.stat("/workspace/f")).mode).toBe(0o700);
    await adapter.symlink("f", "/workspace/s");
    expect(await ws.fs.readlink("/workspace/s")).toBe("f");
    await adapter.mv("/workspace/s", "/workspace/t");
    expect(await ws.fs.readlink("/workspace/t")).toBe("f");
  });

  it("works over an RPC-shaped stub: plain-data results, errors as plain Errors with only a code", async () => {
    const { ws, run, bytes } = await setup({
      wrap: (fs) => {
        const stub: Record<string, unknown> = {};
        for (const name of ["readFile", "writeFile", "stat", "lstat", "readdir", "mkdir", "rm", "rename", "symlink", "readlink", "chmod"] as const) {
          stub[name] = async (...args: unknown[]) => {
            try {
              const result = await (fs[name] as (...a: unknown[]) => Promise<unknown>).apply(fs, args);
              return result instanceof ReadableStream ? result : structuredClone(result);
            } catch (e) {
              throw Object.assign(new Error((e as Error).message), { code: (e as { code?: string }).code });
            }
          };
        }
        return stub as unknown as WorkspaceFs;
      },
    });
    await ws.fs.writeFile("/workspace/a.txt", "a\n");
    expect(await run("cat a.txt nope; ls; echo b >> a.txt; mkdir -p x/y; cp a.txt x/y/")).toEqual({
      stdout: "a\na.txt\n",
      stderr: "cat: nope: No such file or directory\n",
      exitCode: 0,
    });
    expect(await bytes("/workspace/x/y/a.txt")).toEqual(utf8("a\nb\n"));
    expect(await run("rm /ro/a.txt")).toEqual({
      stdout: "",
      stderr: "rm: cannot remove '/ro/a.txt': EROFS: read-only file system, rm '/ro/a.txt'\n",
      exitCode: 1,
    });
  });

  it("rejects a bad maxReadBytes", () => {
    const fs = {} as WorkspaceFs;
    expect(() => new WorkspaceFsAdapter(fs, { maxReadBytes: 0 })).toThrow("WorkspaceFsAdapter: maxReadBytes must be a positive safe integer");
    expect(() => new WorkspaceFsAdapter(fs, { maxReadBytes: 1.5 })).toThrow(TypeError);
  });
});
