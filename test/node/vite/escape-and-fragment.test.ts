/**
 * computerBundle(): a bundle directory that resolves through a symbolic link to outside the Vite
 * root is refused (the same escape as ".."), a link that stays inside the root is followed, and a
 * "#" in the directory name is refused with the plugin's rename message (Vite would cut the
 * generated imports at "#").
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED, buildAndImport, createProject, type Project } from "./project.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function project(specifier: string): Project {
  const p = createProject(specifier);
  cleanups.push(p.dispose);
  return p;
}

async function buildError(p: Project): Promise<string> {
  try {
    await buildAndImport(p);
  } catch (e) {
    return (e as Error).message;
  }
  return "(built)";
}

describe("computerBundle: symbolic links out of the Vite root", () => {
  it("a bundle directory that is a link to outside the root → the plugin's error naming both paths", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vite-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, "secret.txt"), "outside\n");
    const p = project("computer:bundle/linked");
    symlinkSync(outside, join(p.root, "linked"));
    const message = await buildError(p);
    expect(message).toContain(
      `computer:bundle/linked: ${p.root}/linked resolves through a symbolic link to ${realpathSync(outside)}, outside the Vite root (${p.root}); ` +
        "the directory must be inside the root — move or copy the files into it, or import a directory that is",
    );
  });

  it("a directory under a linked parent that leads outside the root is refused too", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vite-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    mkdirSync(join(outside, "inner"));
    writeFileSync(join(outside, "inner", "f.md"), "f\n");
    const p = project("computer:bundle/parent/inner");
    symlinkSync(outside, join(p.root, "parent"));
    expect(await buildError(p)).toContain(`computer:bundle/parent/inner: ${p.root}/parent/inner resolves through a symbolic link to ${realpathSync(outside)}/inner, outside the Vite root`);
  });

  it("a link that stays inside the root is followed: same files and version as the target", async () => {
    const p = project("computer:bundle/alias");
    symlinkSync(join(p.root, "skills"), join(p.root, "alias"));
    const { bundle } = await buildAndImport(p);
    expect(Object.keys(bundle.files).sort()).toEqual(Object.keys(BUNDLED).map((k) => `./${k}`).sort());
    expect(await bundle.files["./README.md"]()).toBe(BUNDLED["README.md"]);
  });
});

describe("computerBundle: '#' in the directory name", () => {
  for (const dir of ["a#b", "#x", "skills/c#"]) {
    it(`computer:bundle/${dir} → the rename message`, async () => {
      const p = project(`computer:bundle/${dir}`);
      p.write(`${dir}/f.md`, "f\n");
      expect(await buildError(p)).toContain(
        `computer:bundle/${dir}: the directory name has "#", which Vite reads as the start of a URL fragment in the imports import.meta.glob generates; rename the directory`,
      );
    });
  }
});
