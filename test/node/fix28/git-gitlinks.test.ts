/**
 * Issue 20, run 28, fixer GS: a gitlink (a submodule's entry, mode 160000) is a directory git does not manage the
 * contents of (siblings of test/node/attack28c/git-reset-hard-empties-submodule-directory.test.ts and
 * git-clean-fd-removes-submodule-directory.test.ts). Each case runs the same commands in real git 2.39.5 (a copy on
 * disk) and in the Workspace, on a repository whose main holds `lib` as a gitlink (`update-index --cacheinfo
 * 160000,…`) with lib/src/x.c on disk and no lib/.git, and compares exit codes, `status --porcelain=v1`,
 * `ls-files` and the files in lib/ after each step.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, realGit, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const SUB = "1111111111111111111111111111111111111111";

function base(withFiles = true): string {
  return committedRepo({ "a.txt": "a\n" }, "base", (d) => {
    realGit(d, "branch", "nolib");
    realGit(d, "update-index", "--add", "--cacheinfo", `160000,${SUB},lib`);
    realGit(d, "commit", "-q", "-m", "add submodule lib");
    mkdirSync(join(d, "lib/src"), { recursive: true });
    if (withFiles) writeFileSync(join(d, "lib/src/x.c"), "int x;\n");
  });
}

type Step = string[] | { write: string; text: string } | { remove: string };

/** After each step: the exit code, status, index and lib/src/x.c (or "-" when absent, "dir" for an empty lib/). */
async function sideBySide(steps: Step[], withFiles = true): Promise<void> {
  const disk = base(withFiles);
  const real = diskCopy(disk);
  const { ws, git, dir } = await workspaceCopy(disk);
  const ours: string[] = [];
  const theirs: string[] = [];
  const libState = async (read: (p: string) => Promise<string | undefined>) =>
    (await read("lib/src/x.c")) ?? ((await read("lib")) !== undefined ? "dir" : "-");
  for (const step of steps) {
    if ("remove" in step) {
      rmSync(join(real, step.remove), { recursive: true });
      await ws.fs.rm(`${dir}/${step.remove}`, { recursive: true });
      continue;
    }
    if (!Array.isArray(step)) {
      writeFileSync(join(real, step.write), step.text);
      await ws.fs.writeFile(`${dir}/${step.write}`, step.text);
      continue;
    }
    const r = await git.cli({ argv: step, cwd: dir });
    const status = await git.cli({ argv: ["status", "--porcelain=v1"], cwd: dir });
    const files = await git.cli({ argv: ["ls-files"], cwd: dir });
    ours.push(
      `${step.join(" ")} → ${r.exitCode}\n${status.stdout}${files.stdout}lib: ${await libState(async (p) => {
        const st = await ws.fs.lstat(`${dir}/${p}`).catch(() => undefined);
        if (!st) return undefined;
        return st.isDirectory ? "" : ws.fs.readFile(`${dir}/${p}`, "utf8");
      })}`,
    );
    const g = realGitResult(real, ...step);
    theirs.push(
      `${step.join(" ")} → ${g.status}\n${realGit(real, "status", "--porcelain=v1")}${realGit(real, "ls-files")}lib: ${await libState(async (p) => {
        if (!existsSync(join(real, p))) return undefined;
        return p === "lib" ? "" : readFileSync(join(real, p), "utf8");
      })}`,
    );
  }
  expect(ours).toEqual(theirs);
}

const cases: [string, Step[], boolean?][] = [
  ["rm -r --cached lib stages the gitlink's removal; lib/ becomes untracked", [["rm", "-r", "--cached", "lib"]]],
  ["checkout of a branch without lib switches and leaves lib/ untracked; back again", [["checkout", "nolib"], ["checkout", "main"]]],
  ["checkout of a branch without lib removes an empty lib/; back again makes it", [["checkout", "nolib"], ["checkout", "main"]], false],
  ["reset --hard to a commit without lib keeps its files", [["reset", "--hard", "nolib"]]],
  ["diff and add -A leave the gitlink as it is", [["diff"], ["add", "-A"], ["commit", "-q", "-m", "again", "--allow-empty"]]],
  ["stash and stash pop keep lib/", [{ write: "a.txt", text: "edited\n" }, ["stash"], ["stash", "pop"]]],
  ["merge of a branch where lib is unchanged", [["checkout", "-q", "-b", "feat"], { write: "b.txt", text: "b\n" }, ["add", "b.txt"], ["commit", "-q", "-m", "b"], ["checkout", "-q", "main"], ["merge", "--no-ff", "-m", "m", "feat"]]],
  ["status shows a gitlink whose directory is gone as deleted; reset --hard makes the directory", [{ remove: "lib" }, ["status"], ["reset", "--hard"]]],
  ["rm --cached then add lib/ stages its files, as git", [["rm", "--cached", "lib"], ["add", "lib"]]],
  ["reset --hard with a.txt edited keeps lib/ (status clean)", [{ write: "a.txt", text: "edited\n" }, ["reset", "--hard"], ["clean", "-fd"]]],
];
for (const [name, steps, withFiles] of cases) {
  it(`as git: ${name}`, { timeout: 60_000 }, async () => {
    await sideBySide(steps, withFiles);
  });
}
