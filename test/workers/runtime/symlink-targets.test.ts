import { describe, expect, it } from "vitest";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";
import { inWorkspace } from "./helpers.js";

const ROOT = "/workspace/proj";
const ESC = (target: string) => `EACCES paths must stay under ${ROOT}: symlink target ${target}`;
const TRAVERSE = (p: string) => `EACCES cannot traverse symbolic link: ${p}`;

/** Runs `body` (statements using `attempt`, returning a value) in the sandbox with root /workspace/proj. */
async function run(setup: (fs: WorkspaceFilesystem) => Promise<void>, body: string) {
  return inWorkspace(
    async (ws) => {
      await ws.fs.mkdir(ROOT, { recursive: true });
      await ws.fs.writeFile("/workspace/host-secret.txt", "secret");
      await setup(ws.fs);
      const r = await (
        await ws.runtime.exec(
          `import { readFile, writeFile, mkdir, rm, symlink, readlink, stat } from "node:fs/promises";
           const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return e.code + " " + e.message; } };
           export default async () => { ${body} };`,
          { cwd: ROOT },
        )
      ).result();
      return { value: r.value, secret: await ws.fs.readFile("/workspace/host-secret.txt", "utf8") };
    },
    { backend: { root: ROOT } },
  );
}

describe("symlink targets are checked as the filesystem resolves them (spec 02 §3.4, 01 §2.3)", () => {
  it("the reproduction: here -> '.', then 'here/../host-secret.txt' is refused and nothing is made", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir(ROOT, { recursive: true });
        await ws.fs.writeFile("/workspace/host-secret.txt", "secret");
        const res = await (
          await ws.runtime.exec(
            `import { symlink, readlink } from "node:fs/promises";
             const attempt = async (fn) => { try { await fn(); return "ok"; } catch (e) { return e.code + " " + e.message; } };
             export default async () => ({
               here: await attempt(() => symlink(".", "here")),
               escape: await attempt(() => symlink("here/../host-secret.txt", "escape")),
               absolute: await attempt(() => symlink("${ROOT}/here/../host-secret.txt", "escape2")),
             });`,
          )
        ).result();
        const gone = async (p: string) => ws.fs.lstat(p).then(() => "exists", (e) => e.code);
        return { value: res.value, escape: await gone(`${ROOT}/escape`), escape2: await gone(`${ROOT}/escape2`), here: (await ws.fs.lstat(`${ROOT}/here`)).isSymbolicLink };
      },
      { backend: { root: ROOT } },
    );
    expect(r.value).toEqual({
      here: "ok",
      escape: ESC("here/../host-secret.txt"),
      absolute: ESC(`${ROOT}/here/../host-secret.txt`),
    });
    expect(r).toMatchObject({ escape: "ENOENT", escape2: "ENOENT", here: true });
  });

  it("chains of links, relative and absolute, are followed; targets that stay inside are kept", async () => {
    const r = await run(
      async (fs) => {
        await fs.mkdir(`${ROOT}/sub/deep`, { recursive: true });
        await fs.mkdir("/workspace/other", { recursive: true });
        // made by the host: leads out of root
        await fs.symlink("/workspace/other", `${ROOT}/out`);
      },
      `return {
         a: await attempt(() => symlink(".", "a")),
         b: await attempt(() => symlink("a", "b")),
         c: await attempt(() => symlink("${ROOT}/b", "c")),
         viaChain: await attempt(() => symlink("c/../host-secret.txt", "e1")),
         viaChainAbs: await attempt(() => symlink("${ROOT}/c/../../x", "e2")),
         dirLink: await attempt(() => symlink("sub/deep", "s")),
         dirLinkUpInside: await attempt(() => symlink("s/../f.txt", "ok1")),
         textOutside: await attempt(() => symlink("s/../../f.txt", "e6")),
         dirLinkUpTooFar: await attempt(() => symlink("s/../../../f.txt", "e3")),
         nested: await attempt(() => symlink("../b/..", "sub/e4")),
         throughHostLink: await attempt(() => symlink("out/f", "e5")),
         hostLinkBackIn: await attempt(() => symlink("out/../proj/f.txt", "ok2")),
         missingTail: await attempt(() => symlink("nowhere/../f.txt", "ok3")),
         plain: await attempt(() => symlink("sub", "ok4")),
       };`,
    );
    expect(r.value).toEqual({
      a: "ok",
      b: "ok",
      c: "ok",
      viaChain: ESC("c/../host-secret.txt"),
      viaChainAbs: ESC(`${ROOT}/c/../../x`),
      dirLink: "ok",
      // ".." after a link: stored lexically ("f.txt") it would lead elsewhere than sub/f.txt
      dirLinkUpInside: `EINVAL symlink target s/../f.txt has ".." after a symbolic link: it leads to ${ROOT}/sub/f.txt, but a confined run stores ".." lexically ("f.txt", which leads to ${ROOT}/f.txt); write the target without ".." after a name`,
      // the text alone leaving root is still refused, though the link would lead inside
      textOutside: ESC("s/../../f.txt"),
      dirLinkUpTooFar: ESC("s/../../../f.txt"),
      nested: ESC("../b/.."),
      throughHostLink: ESC("out/f"),
      hostLinkBackIn: `EINVAL symlink target out/../proj/f.txt has ".." after a symbolic link: it leads to ${ROOT}/f.txt, but a confined run stores ".." lexically ("proj/f.txt", which leads to ${ROOT}/proj/f.txt); write the target without ".." after a name`,
      missingTail: "ok",
      plain: "ok",
    });
  });

  it("a link re-pointed after a target through it was accepted does not let sandbox reads or writes out", async () => {
    const r = await run(
      async (fs) => {
        await fs.mkdir(`${ROOT}/d`, { recursive: true });
      },
      `const made = await attempt(() => symlink("d", "a"));
       const esc = await attempt(() => symlink("a/../host-secret.txt", "esc"));
       await rm("a");
       const repointed = await attempt(() => symlink(".", "a"));
       return {
         made, esc, repointed,
         readlink: await readlink("esc"),
         read: await attempt(() => readFile("esc", "utf8")),
         write: await attempt(() => writeFile("esc", "pwned")),
         stat: await attempt(() => stat("esc")),
         readVia: await attempt(() => readFile("a/../host-secret.txt", "utf8")),
         writeAbs: await attempt(() => writeFile("${ROOT}/esc", "pwned")),
         mkdirThrough: await attempt(() => mkdir("a/x")),
       };`,
    );
    expect(r.value).toEqual({
      made: "ok",
      esc: "ok",
      repointed: "ok",
      // stored lexically, so re-pointing a cannot move it
      readlink: "host-secret.txt",
      read: TRAVERSE(`${ROOT}/esc`),
      write: TRAVERSE(`${ROOT}/esc`),
      stat: TRAVERSE(`${ROOT}/esc`),
      // lexical for the sandbox: no link is followed, so /workspace/proj/host-secret.txt
      readVia: expect.stringMatching(/^ENOENT /),
      writeAbs: TRAVERSE(`${ROOT}/esc`),
      mkdirThrough: TRAVERSE(`${ROOT}/a`),
    });
    expect(r.secret).toBe("secret");
  });

  it("a '..' after a name is stored lexically, so links made or re-pointed later cannot move a target out of root", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir(`${ROOT}/sub`, { recursive: true });
        await ws.fs.writeFile("/workspace/host-secret.txt", "secret");
        const res = await (
          await ws.runtime.exec(
            `import { symlink, readlink, rm, mkdir } from "node:fs/promises";
             const attempt = async (fn) => { try { await fn(); return "ok"; } catch (e) { return e.code + " " + e.message; } };
             export default async () => {
               const made = {
                 e1: await attempt(() => symlink("d/../host-secret.txt", "e1")),
                 e2: await attempt(() => symlink("${ROOT}/e/../host-secret.txt", "e2")),
                 e3: await attempt(() => symlink("y/z/../../host-secret.txt", "sub/e3")),
                 e4: await attempt(() => symlink("./w/./../host-secret.txt", "e4")),
                 up: await attempt(() => symlink("../x", "sub/up")),
                 dir: await attempt(() => symlink("q/../sub/", "dir")),
                 realDir: await attempt(() => mkdir("r")),
                 e5: await attempt(() => symlink("r/../host-secret.txt", "e5")),
               };
               // now make every name those targets went through lead upwards
               await rm("r", { recursive: true }); // a directory: rm without recursive is ERR_FS_EISDIR, as Node
               const later = [await attempt(() => symlink(".", "d")), await attempt(() => symlink("sub", "e")), await attempt(() => symlink("..", "sub/y")), await attempt(() => symlink(".", "w")), await attempt(() => symlink(".", "r"))];
               const stored = {};
               for (const l of ["e1", "e2", "sub/e3", "e4", "sub/up", "dir", "e5"]) stored[l] = await readlink(l);
               return { made, later, stored };
             };`,
          )
        ).result();
        const host: Record<string, string> = {};
        for (const l of ["e1", "e2", "sub/e3", "e4", "e5"]) host[l] = await ws.fs.readFile(`${ROOT}/${l}`, "utf8").catch((e: { code: string }) => e.code);
        return { value: res.value, host, secret: await ws.fs.readFile("/workspace/host-secret.txt", "utf8") };
      },
      { backend: { root: ROOT } },
    );
    expect(r).toEqual({
      value: {
        made: { e1: "ok", e2: "ok", e3: "ok", e4: "ok", up: "ok", dir: "ok", realDir: "ok", e5: "ok" },
        later: ["ok", "ok", "ok", "ok", "ok"],
        stored: {
          e1: "host-secret.txt",
          e2: `${ROOT}/host-secret.txt`,
          "sub/e3": "host-secret.txt",
          e4: "host-secret.txt",
          "sub/up": "../x",
          dir: "sub/",
          e5: "host-secret.txt",
        },
      },
      host: { e1: "ENOENT", e2: "ENOENT", "sub/e3": "ENOENT", e4: "ENOENT", e5: "ENOENT" },
      secret: "secret",
    });
  });

  it("a loop in the links a target goes through is ELOOP", async () => {
    const r = await run(
      async () => {},
      `return {
         l1: await attempt(() => symlink("l2", "l1")),
         l2: await attempt(() => symlink("l1", "l2")),
         l3: await attempt(() => symlink("l1/x", "l3")),
       };`,
    );
    expect(r.value).toMatchObject({ l1: "ok", l2: "ok" });
    expect((r.value as { l3: string }).l3).toMatch(/^ELOOP /);
  });
});
