/**
 * Helpers of the repository and diff tests (issue 15): the same edits
 * applied to a Workspace and to a directory on disk, the real git at a
 * chosen date, and `git fsck --strict` of a Workspace's `.git`.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Workspace } from "../../../src/workspace.js";
import type { StatusEntry } from "../../../src/git/types.js";
import { IDENTITY, exportDir, gitDated, newWorkspace, realGit, tempDir } from "./worktree-helpers.js";

/** One file to write: text/bytes, `{ exec }` (mode 755), `{ link }` (a symbolic link), or `null` to delete. */
export type FileSpec = string | Uint8Array | { exec: string } | { link: string } | null;

/** Applies the same files to the Workspace directory `wsDir` (`""` for the root) and the disk directory `diskDir`. */
export async function writeBoth(ws: Workspace, wsDir: string, diskDir: string, files: Record<string, FileSpec>): Promise<void> {
  for (const [path, spec] of Object.entries(files)) {
    const full = join(diskDir, path);
    const wsPath = `${wsDir}/${path}`;
    rmSync(full, { force: true });
    await ws.fs.rm(wsPath, { force: true });
    if (spec === null) continue;
    mkdirSync(join(full, ".."), { recursive: true });
    const parent = wsPath.slice(0, wsPath.lastIndexOf("/"));
    if (parent !== "") await ws.fs.mkdir(parent, { recursive: true });
    if (typeof spec === "object" && "link" in spec) {
      symlinkSync(spec.link, full);
      await ws.fs.symlink(spec.link, wsPath);
    } else if (typeof spec === "object" && "exec" in spec) {
      writeFileSync(full, spec.exec);
      chmodSync(full, 0o755);
      await ws.fs.writeFile(wsPath, spec.exec, { mode: 0o755 });
    } else {
      writeFileSync(full, spec);
      await ws.fs.writeFile(wsPath, spec);
    }
  }
}

/** The real git in `cwd` with author and committer dates set to `time` (seconds, `+0000`); returns stdout. */
export function gitAt(cwd: string, time: number, ...args: string[]): string {
  return gitDated(cwd, { author: `@${time} +0000`, committer: `@${time} +0000` }, ...args);
}

export { gitDated };

/** An empty repository in the Workspace (`/repo`) and on disk, both on branch main. */
export async function twin() {
  const { ws, git } = newWorkspace();
  const dir = "/repo";
  await git.init({ dir });
  const disk = tempDir();
  realGit(disk, "init", "-q", "-b", "main");
  return { ws, git, dir, disk };
}

/** The author/committer a Workspace commit gets to match {@link gitAt} at `time`. */
export function at(time: number) {
  return { author: { ...IDENTITY, timestamp: time, timezoneOffset: 0 }, committer: { ...IDENTITY, timestamp: time, timezoneOffset: 0 } };
}

/** Our status as `git status --porcelain=v1` lines (`??` for untracked), sorted by path then line. */
export function porcelain(entries: StatusEntry[]): string[] {
  return entries.map((e) => (e.worktree === "?" ? `?? ${e.path}` : `${e.index}${e.worktree} ${e.path}`)).sort(byPathThenLine);
}

/** The real git's `status --porcelain=v1 -uall --no-renames` lines of `dir`, sorted the same way. */
export function realPorcelain(dir: string): string[] {
  const out = realGit(dir, "-c", "core.quotePath=false", "status", "--porcelain=v1", "--untracked-files=all", "--no-renames");
  return out.split("\n").filter((l) => l !== "").sort(byPathThenLine);
}

function byPathThenLine(a: string, b: string): number {
  const pa = a.slice(3);
  const pb = b.slice(3);
  return pa < pb ? -1 : pa > pb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** Copies the Workspace repository at `dir` to disk and runs `git fsck --strict` there; returns its output (throws on failure). */
export async function fsckWorkspace(ws: Workspace, dir: string): Promise<{ disk: string; output: string }> {
  const disk = await exportDir(ws, dir);
  const output = execFileSync("/usr/bin/git", ["fsck", "--strict", "--no-progress", "--no-dangling"], {
    cwd: disk,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: disk, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return { disk, output };
}
