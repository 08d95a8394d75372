/**
 * Issue 20, thirty-fifth attack run: computerBundle() refuses a bundle directory that resolves through a
 * symbolic link to outside the Vite root ("the directory must be inside the root", docs/vite.md, porting.md),
 * but a symbolic link *inside* the bundle directory that leads out of the root — to a file or to a
 * directory — is followed, and the target's bytes are shipped in the Worker and mounted in the agent's
 * Workspace. A skills directory taken from elsewhere (a `git clone` makes links) with
 * `skills/notes.md -> /home/dev/.aws/credentials` or `-> ../.env` thus puts the developer's secrets where
 * the agent (and so the model) can read them; the build says nothing.
 * Tried: a file link to a file outside the root, a directory link to a directory outside the root, a
 * file link to the root's own `.env` (a dot-file, which the glob skips when it is in the directory).
 * Held: a bundle directory that is itself a link out of the root, or under a linked parent, is refused;
 * `..` segments are refused; dot-files and `node_modules` in the directory are skipped; links that stay in
 * the directory are followed with files and version agreeing (probe18).
 * Found (medium — a secret leaked into the agent's Workspace from outside the configured directory; 3 of 3
 * runs): `files` has `./leak.md` = "TOP SECRET\n" (outside the root), `./dirleak/key.pem` =
 * "PRIVATE KEY\n" (outside the root), `./env.txt` = "API_KEY=hunter2\n" (the root's .env, via a link).
 * Suggested fix: src/vite/scan.ts scanBundle — realpath every linked file and directory and refuse
 * (the checkBundleDirectory message, naming the link) one whose real path is outside the real Vite root;
 * arguably also a link to a dot-file or `node_modules`. Or document that links are followed wherever
 * they lead.
 * Fixed: src/vite/scan.ts scanBundle now resolves every link it meets (file or directory, any depth) with
 * fs.realpathSync and fails the build, naming the link and its real path, when that path is outside the
 * real Vite root (the plugin passes the root) or is one the glob skips itself (a dot-file, a dot-directory,
 * node_modules), so `-> ../.env` is refused too; docs/vite.md "Where links may lead" (issue 20, run 35,
 * fixer VT). Siblings: test/node/fix35/vite-links.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildAndImport, createProject, type Project } from "../vite/project.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function buildError(p: Project): Promise<string> {
  try {
    const { bundle } = await buildAndImport(p);
    const leaked: string[] = [];
    for (const key of ["./leak.md", "./dirleak/key.pem", "./env.txt"]) {
      if (bundle.files[key]) leaked.push(`${key}=${JSON.stringify(await bundle.files[key]())}`);
    }
    return `(built) ${leaked.join(" ")}`;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("computerBundle: links inside the bundle directory that lead out of the Vite root", () => {
  it("a file or directory link out of the root fails the build, naming the link (nothing outside the root is shipped)", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vite-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, "secret.txt"), "TOP SECRET\n");
    mkdirSync(join(outside, "d"));
    writeFileSync(join(outside, "d", "key.pem"), "PRIVATE KEY\n");
    const p = createProject("computer:bundle/skills");
    cleanups.push(p.dispose);
    symlinkSync(join(outside, "secret.txt"), join(p.root, "skills/leak.md"));
    symlinkSync(join(outside, "d"), join(p.root, "skills/dirleak"));
    const message = await buildError(p);
    // Was: (built) ./leak.md="TOP SECRET\n" ./dirleak/key.pem="PRIVATE KEY\n"
    expect(message).not.toMatch(/^\(built\)/);
    expect(message).toContain("computer:bundle/skills:");
    expect(message).toMatch(/outside the Vite root/);
  });

  it("a link to the root's .env is not shipped", async () => {
    const p = createProject("computer:bundle/skills");
    cleanups.push(p.dispose);
    p.write(".env", "API_KEY=hunter2\n");
    symlinkSync(join(p.root, ".env"), join(p.root, "skills/env.txt"));
    const message = await buildError(p);
    // Was: (built) ./env.txt="API_KEY=hunter2\n"
    expect(message).not.toContain("hunter2");
  });
});
