/**
 * The job `npm start` gives the agent: explore a real project in the
 * Workspace, read with continuation, make a real change with `edit`, and check
 * it by running a JavaScript module that imports the edited file.
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
}

const PROJECT_EXCLUDES = ["node_modules", "node_modules/**", "dist", "dist/**", "libcjs", "libcjs/**"];

/** The default task, on jsdiff (`diff` from node_modules). */
export function diffTask(root: string, project: string): Task {
  return {
    root,
    project,
    symbol: "diffLineStats",
    locate: { query: "export function diffLines(", regex: false, include: "**/*.js", exclude: PROJECT_EXCLUDES },
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
      "offset = nextOffset and byteOffset = nextByteOffset); make the change with edit; then verify it with exec:",
      "run an ES module (cwd " + root + ") that imports the edited file by a relative path, calls",
      'diffLineStats("a\\nb\\nc\\n", "a\\nB\\nc\\nd\\n") and returns { verified: stats.added === 2 && stats.removed === 1, stats }.',
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
      "make the change with edit; then verify it with exec: an ES module (cwd " + root + ") that imports the edited file",
      'by a relative path and returns { verified: mod.agentComputerCheck() === "edited in the Workspace" }.',
      "Finish with a short report.",
    ].join("\n"),
  };
}

/** The source of the module that checks the change, run with `cwd` = task root. */
export function checkModule(task: Task, relativePath: string): string {
  return [
    `import * as mod from "./${relativePath}";`,
    "",
    "export default function () {",
    ...task.check.split("\n").map((line) => "  " + line),
    "}",
    "",
  ].join("\n");
}
