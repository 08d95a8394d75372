/**
 * Issue 20, run 35, fixer VT — sibling of test/node/attack35b/vite-link-inside-bundle-ships-file-outside-root.test.ts.
 * `import.meta.glob` ships whatever a symbolic link in a bundle directory leads to, so computerBundle()'s
 * scan (src/vite/scan.ts scanBundle) judges every link by its real path: outside the real Vite root, or at a
 * path the glob skips itself (a dot-file, a dot-directory, node_modules — docs/vite.md "Symbolic links"),
 * the build (or the import under `vite dev`) fails naming the link and where it leads. The neighbourhood:
 * absolute and relative links, file and directory links, links at depth and inside a linked directory, a
 * chain that leaves the root and comes back (followed: judged by where it ends), a chain that ends at the
 * root's `.env` through an innocent-looking file, links that stay inside the root (followed, files and
 * version agreeing with the bytes on disk), a dangling link and a dot-named link (skipped, as before), and
 * the dev server. Expected real paths come from Node's fs.realpathSync; the expected version from the
 * project helper's own hash of the files read through the links.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createServer } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { computerBundle } from "../../../src/vite/index.js";
import { scanBundle } from "../../../src/vite/scan.js";
import { BUNDLED, buildAndImport, createProject, expectedVersion, type BuiltBundle, type Project } from "../vite/project.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const SPEC = "computer:bundle/skills";
const PATHS = Object.keys(BUNDLED);

function project(): Project {
  const p = createProject(SPEC);
  cleanups.push(p.dispose);
  return p;
}

/** A directory outside every project: `secret.txt` and `d/key.pem`. */
function outside(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "fix35-vt-outside-")));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "secret.txt"), "TOP SECRET\n");
  mkdirSync(join(dir, "d"));
  writeFileSync(join(dir, "d", "key.pem"), "PRIVATE KEY\n");
  return dir;
}

async function build(p: Project): Promise<BuiltBundle | Error> {
  try {
    return (await buildAndImport(p)).bundle;
  } catch (e) {
    return e as Error;
  }
}

const outsideMessage = (p: Project, link: string, real: string) =>
  `${SPEC}: ${join(p.root, link)} resolves through a symbolic link to ${real}, outside the Vite root (${p.root}); ` +
  "a link in the directory must stay inside the root — move or copy the files into it, or remove the link";
const skippedMessage = (p: Project, link: string, real: string) =>
  `${SPEC}: ${join(p.root, link)} resolves through a symbolic link to ${real}, a dot-file, dot-directory or node_modules path, ` +
  "which import.meta.glob skips; a link must not ship it either — copy the files to a path the glob picks, or remove the link";

async function refused(p: Project, message: string): Promise<void> {
  const result = await build(p);
  expect(result).toBeInstanceOf(Error);
  expect((result as Error).message).toContain(message);
  expect((result as Error).message).not.toMatch(/TOP SECRET|PRIVATE KEY|hunter2/);
}

describe("computerBundle: links out of the Vite root fail the build, naming the link", () => {
  it("an absolute file link", async () => {
    const out = outside();
    const p = project();
    symlinkSync(join(out, "secret.txt"), join(p.root, "skills/leak.md"));
    await refused(p, outsideMessage(p, "skills/leak.md", join(out, "secret.txt")));
  });

  it("a relative file link (../../ out of the root)", async () => {
    const out = outside();
    const p = project();
    const rel = relative(join(p.root, "skills/pdf"), join(out, "secret.txt"));
    expect(rel.startsWith("../../../")).toBe(true);
    symlinkSync(rel, join(p.root, "skills/pdf/leak.md"));
    await refused(p, outsideMessage(p, "skills/pdf/leak.md", join(out, "secret.txt")));
  });

  it("a directory link, absolute and relative", async () => {
    const out = outside();
    const a = project();
    symlinkSync(join(out, "d"), join(a.root, "skills/dirleak"));
    await refused(a, outsideMessage(a, "skills/dirleak", join(out, "d")));
    const b = project();
    symlinkSync(relative(join(b.root, "skills"), join(out, "d")), join(b.root, "skills/dirleak"));
    await refused(b, outsideMessage(b, "skills/dirleak", join(out, "d")));
  });

  it("a link inside a linked directory that stays in the root", async () => {
    const out = outside();
    const p = project();
    p.write("docs/guide.md", "guide\n");
    symlinkSync("../docs", join(p.root, "skills/docs"));
    symlinkSync(join(out, "secret.txt"), join(p.root, "docs/k.md"));
    await refused(p, outsideMessage(p, "skills/docs/k.md", join(out, "secret.txt")));
  });

  it("a link to the root's parent directory", async () => {
    const p = project();
    symlinkSync("../..", join(p.root, "skills/up"));
    await refused(p, outsideMessage(p, "skills/up", realpathSync(join(p.root, ".."))));
  });
});

describe("computerBundle: links to paths the glob skips fail the build", () => {
  it("a link to the root's .env, absolute or relative", async () => {
    for (const target of ["ABS", "../.env"]) {
      const p = project();
      p.write(".env", "API_KEY=hunter2\n");
      symlinkSync(target === "ABS" ? join(p.root, ".env") : target, join(p.root, "skills/env.txt"));
      await refused(p, skippedMessage(p, "skills/env.txt", join(p.root, ".env")));
    }
  });

  it("a link into a dot-directory, into node_modules, and into the bundle's own dot-directory", async () => {
    const cases: Array<[string, string]> = [
      [".config/token", "../.config/token"],
      ["node_modules/pkg/README.md", "../node_modules/pkg/README.md"],
      ["skills/.cache/state.txt", ".cache/state.txt"],
      ["skills/.env", ".env"],
    ];
    for (const [real, target] of cases) {
      const p = project();
      if (!real.startsWith("skills/")) p.write(real, "hunter2\n");
      symlinkSync(target, join(p.root, "skills/x.md"));
      await refused(p, skippedMessage(p, "skills/x.md", join(p.root, real)));
    }
  });

  it("a chain that ends at .env through a bundled-looking file", async () => {
    const p = project();
    p.write(".env", "API_KEY=hunter2\n");
    mkdirSync(join(p.root, "public"));
    symlinkSync("../.env", join(p.root, "public/config.txt"));
    symlinkSync("../public/config.txt", join(p.root, "skills/config.txt"));
    await refused(p, skippedMessage(p, "skills/config.txt", join(p.root, ".env")));
  });
});

describe("computerBundle: links that end inside the root at a bundled path still work", () => {
  it("relative and absolute links to a file and a directory in the root, and a chain through a dot-named link", async () => {
    const p = project();
    p.write("docs/guide.md", "guide\n");
    p.write("docs/sub/deep.md", "deep\n");
    p.write("shared/tool.sh", "#!/bin/sh\necho hi\n");
    symlinkSync("../docs/guide.md", join(p.root, "skills/guide.md"));
    symlinkSync(join(p.root, "shared/tool.sh"), join(p.root, "skills/tool.sh"));
    symlinkSync("../docs", join(p.root, "skills/docs"));
    symlinkSync("README.md", join(p.root, "skills/readme-again.md")); // inside the bundle itself
    // A dot-named link in the root whose real path is bundled: judged by where it ends.
    symlinkSync("shared/tool.sh", join(p.root, ".hidden-tool"));
    symlinkSync("../.hidden-tool", join(p.root, "skills/via-hidden.sh"));
    // Dot-named links in the bundle are skipped by name, wherever they lead; dangling links are skipped.
    symlinkSync("/etc/passwd", join(p.root, "skills/.passwd"));
    symlinkSync("../missing.md", join(p.root, "skills/dangling.md"));
    const bundle = await build(p);
    expect(bundle).not.toBeInstanceOf(Error);
    const { files, version } = bundle as BuiltBundle;
    const paths = [...PATHS, "guide.md", "tool.sh", "docs/guide.md", "docs/sub/deep.md", "readme-again.md", "via-hidden.sh"];
    expect(Object.keys(files).sort()).toEqual(paths.map((path) => `./${path}`).sort());
    expect(await files["./guide.md"]()).toBe("guide\n");
    expect(await files["./docs/sub/deep.md"]()).toBe("deep\n");
    expect(await files["./via-hidden.sh"]()).toBe("#!/bin/sh\necho hi\n");
    expect(await files["./readme-again.md"]()).toBe(BUNDLED["README.md"]);
    expect(version).toBe(expectedVersion(join(p.root, "skills"), paths));
  });

  it("a chain that leaves the root and comes back is followed (judged by its real path)", async () => {
    const out = outside();
    const p = project();
    p.write("shared/a.md", "back home\n");
    symlinkSync(join(p.root, "shared/a.md"), join(out, "hop"));
    symlinkSync(join(out, "hop"), join(p.root, "skills/a.md"));
    const bundle = await build(p);
    expect(bundle).not.toBeInstanceOf(Error);
    expect(await (bundle as BuiltBundle).files["./a.md"]()).toBe("back home\n");
    expect((bundle as BuiltBundle).version).toBe(expectedVersion(join(p.root, "skills"), [...PATHS, "a.md"]));
  });
});

describe("scanBundle without a root: links must stay in the bundle directory", () => {
  it("a link to a sibling of the directory is outside", () => {
    const p = project();
    p.write("docs/guide.md", "guide\n");
    symlinkSync("../docs/guide.md", join(p.root, "skills/guide.md"));
    const dir = join(p.root, "skills");
    expect(() => scanBundle(SPEC, dir, { maxFiles: 100, maxBytes: 1 << 20 })).toThrow(
      `${SPEC}: ${dir}/guide.md resolves through a symbolic link to ${join(p.root, "docs/guide.md")}, outside the Vite root (${dir}); `,
    );
    expect(scanBundle(SPEC, dir, { maxFiles: 100, maxBytes: 1 << 20 }, p.root).files.map((f) => f.path)).toContain("guide.md");
  });
});

describe("computerBundle under vite dev", () => {
  it("ssrLoadModule of the entry fails naming the link", async () => {
    const out = outside();
    const p = project();
    symlinkSync(join(out, "secret.txt"), join(p.root, "skills/leak.md"));
    const server = await createServer({
      root: p.root,
      configFile: false,
      logLevel: "silent",
      appType: "custom",
      plugins: [computerBundle()],
      server: { middlewareMode: true, ws: false, hmr: false, watch: null },
    });
    cleanups.unshift(() => server.close());
    const error = await server.ssrLoadModule("/entry.js").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain(outsideMessage(p, "skills/leak.md", join(out, "secret.txt")));
  });
});
