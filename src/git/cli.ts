// PLACEHOLDER (issue 15, in progress): replaced by the CLI of spec 04 §2.5.
import type { GitCliInput, GitCliResult, GitClient } from "./types.js";

export async function runGitCli(_client: GitClient, _input: GitCliInput): Promise<GitCliResult> {
  return { stdout: "", stderr: "git: not implemented yet\n", exitCode: 1 };
}
