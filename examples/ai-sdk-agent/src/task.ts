/**
 * The job `npm start` gives the agent: explore a real project in the
 * Workspace (tools and the shell), read with continuation, make a real change
 * with `edit`, write a file with `sed` in the shell, and check the change by
 * running a JavaScript module that imports both the edited file and the file
 * the shell wrote.
 */

/** A task over a project loaded under `root`. */
export interface Task {
  /** Absolute Workspace directory holding the project, e.g. `/workspace/diff`. */
  root: string;
  /** What the project is, for the transcript (e.g. `diff@9.0.0 from node_modules`). */
  project: string;
  /** The instructions a real model gets. */
  prompt: string;
  /** The exported function the change adds. */
  symbol: string;
  /** How to find where the change goes (a grep the scripted model runs). */
  locate: { query: string; regex: boolean; include: string; exclude: string[] };
  /** The text inserted before the located line. */
  insertion: string;
  /** Body of the check module's default export; `mod` is the edited module. Returns `{ verified, … }`. */
  check: string;
  /** A shell command (worker-shell backend, cwd = root) that surveys the project: grep -rn and wc -l. */
  survey: string;
}

/** The file the agent's shell step writes with sed (cwd = root), and the check module imports. */
export const CHECK_NAME_FILE = "check-name.js";

/**
 * The shell step after the edit: sed pulls the new function's name out of the
 * edited file into {@link CHECK_NAME_FILE} (`export const name = "<symbol>";`).
 */
export function nameCommand(task: Task, relativePath: string): string {
  return `sed -n 's/^export function \\(${task.symbol}\\)(.*/export const name = "\\1";/p' ${relativePath} > ${CHECK_NAME_FILE} && cat ${CHECK_NAME_FILE}`;
}

const PROJECT_EXCLUDES = ["node_modules", "node_modules/**", "dist", "dist/**", "libcjs", "libcjs/**"];

/** The default task, on jsdiff (`diff` from node_modules). */
export function diffTask(root: string, project: string): Task {
  return {
    root,
    project,
    symbol: "diffLineStats",
    locate: { query: "export function diffLines(", regex: false, include: "**/*.js", exclude: PROJECT_EXCLUDES },
    survey: `grep -rn "export function diffLines(" --include="*.js" libesm | head -5; find libesm -name "*.js" | wc -l; cat libesm/diff/*.js | wc -l`,
    insertion: [
      "/**",
      " * Counts the lines added and removed between two texts, using diffLines.",
      " * Returns { added, removed }.",
      " */",
      "export function diffLineStats(oldStr, newStr, options) {",
      "    let added = 0;",
      "    let removed = 0;",
      "    for (const change of diffLines(oldStr, newStr, options)) {",
      "        if (change.added) added += change.count;",
      "        else if (change.removed) removed += change.count;",
      "    }",
      "    return { added, removed };",
      "}",
      "",
    ].join("\n"),
    check: [
      'const stats = mod.diffLineStats("a\\nb\\nc\\n", "a\\nB\\nc\\nd\\n");',
      'console.log("diffLineStats(a b c → a B c d) =", JSON.stringify(stats));',
      "return { verified: stats.added === 2 && stats.removed === 1, stats };",
    ].join("\n"),
    prompt: [
      `The Workspace holds the source of ${project} under ${root} (an ES module build in libesm/).`,
      "Task: add an exported function diffLineStats(oldStr, newStr, options) next to diffLines that returns",
      "{ added, removed }: the number of lines added and removed, counted from diffLines(oldStr, newStr, options).",
      "Steps: explore with ls, find and grep; read the file that defines diffLines (continue truncated reads with",
      "offset = nextOffset and byteOffset = nextByteOffset); make the change with edit.",
      "exec has two backends: worker-shell (a bash shell: grep -rn, wc -l, sed, pipes) and worker-javascript (ES modules).",
      `In the shell (cwd ${root}), survey the sources with grep -rn and wc -l, and after the edit use sed to write ${CHECK_NAME_FILE}`,
      'containing export const name = "diffLineStats"; taken from the edited file. Then verify with exec on worker-javascript:',
      `run an ES module (cwd ${root}) that imports the edited file by a relative path and { name } from "./${CHECK_NAME_FILE}", calls`,
      'mod[name]("a\\nb\\nc\\n", "a\\nB\\nc\\nd\\n") and returns { verified: stats.added === 2 && stats.removed === 1, stats }.',
      "Finish with a one-paragraph report of what you changed and what the check returned.",
    ].join("\n"),
  };
}

/** The task for `npm start -- --dir <path>`: any project with an ES module file. */
export function genericTask(root: string, project: string): Task {
  return {
    root,
    project,
    symbol: "agentComputerCheck",
    locate: {
      query: "^export (async )?(function|const|class|let)\\b",
      regex: true,
      include: "**/*.{js,mjs}",
      exclude: PROJECT_EXCLUDES,
    },
    survey: `grep -rnE "^export (async )?(function|const|class|let)" --include="*.js" --include="*.mjs" . | grep -v node_modules | head -5; find . -name "*.js" -not -path "*/node_modules/*" | wc -l`,
    insertion: 'export function agentComputerCheck() {\n  return "edited in the Workspace";\n}\n\n',
    check: [
      "const value = mod.agentComputerCheck();",
      'console.log("agentComputerCheck() =", JSON.stringify(value));',
      'return { verified: value === "edited in the Workspace", value };',
    ].join("\n"),
    prompt: [
      `The Workspace holds ${project} under ${root}.`,
      "Task: find an ES module (.js or .mjs) whose imports are all relative, and add to it",
      'export function agentComputerCheck() { return "edited in the Workspace"; }',
      "Explore with ls, find and grep; read the file (continue truncated reads with nextOffset/nextByteOffset);",
      "make the change with edit. exec has two backends: worker-shell (a bash shell) and worker-javascript (ES modules).",
      `In the shell (cwd ${root}), survey with grep -rn and wc -l; after the edit use sed to write ${CHECK_NAME_FILE} containing`,
      'export const name = "agentComputerCheck"; taken from the edited file. Then verify with exec on worker-javascript: an ES module',
      `(cwd ${root}) that imports the edited file by a relative path and { name } from "./${CHECK_NAME_FILE}", and returns`,
      '{ verified: mod[name]() === "edited in the Workspace" }.',
      "Finish with a short report.",
    ].join("\n"),
  };
}

/**
 * The source of the module that checks the change, run with `cwd` = task
 * root: it imports the edited file and the name the shell step wrote.
 */
export function checkModule(task: Task, relativePath: string): string {
  return [
    `import * as mod from "./${relativePath}";`,
    `import { name } from "./${CHECK_NAME_FILE}";`,
    "",
    "export default function () {",
    `  if (name !== ${JSON.stringify(task.symbol)}) return { verified: false, reason: "${CHECK_NAME_FILE} names " + JSON.stringify(name) };`,
    ...task.check.replaceAll(`mod.${task.symbol}(`, "mod[name](").split("\n").map((line) => "  " + line),
    "}",
    "",
  ].join("\n");
}
