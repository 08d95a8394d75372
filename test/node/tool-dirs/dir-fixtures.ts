/**
 * Copies the on-disk tool-directory fixtures (test/fixtures/tool-dirs) into a
 * Workspace, keeping file modes, for the loader, sync and runner tests.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** test/fixtures/tool-dirs on disk. */
export const FIXTURES = join(import.meta.dirname, "../../fixtures/tool-dirs");

/** The fs methods the copy needs. */
interface WritableFs {
  fs: {
    mkdir(path: string, options?: { recursive?: boolean; mode?: number }): Promise<void>;
    writeFile(path: string, content: Uint8Array, options?: { mode?: number }): Promise<void>;
  };
}

/** Copies `test/fixtures/tool-dirs/<sub>` to `target` in the Workspace (created with parents). */
export async function copyFixtures(workspace: WritableFs, sub: string, target: string): Promise<void> {
  await workspace.fs.mkdir(target, { recursive: true });
  const walk = async (disk: string, dest: string): Promise<void> => {
    for (const name of readdirSync(disk).sort()) {
      const path = join(disk, name);
      const stat = statSync(path);
      if (stat.isDirectory()) {
        await workspace.fs.mkdir(`${dest}/${name}`);
        await walk(path, `${dest}/${name}`);
      } else {
        await workspace.fs.writeFile(`${dest}/${name}`, new Uint8Array(readFileSync(path)), { mode: stat.mode & 0o777 });
      }
    }
  };
  await walk(join(FIXTURES, sub), target);
}
