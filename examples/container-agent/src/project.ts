/**
 * The job of one turn: a tiny Node project whose `npm test` runs the
 * built-in test runner (`node --test`) and writes a JUnit report, and the
 * JavaScript the agent runs to test it in the container through
 * `ws:container`.
 */

/** Where the project lives (Workspace path; `app/` under the container's mount point). */
export const APP = "/workspace/app";

/**
 * `npm test`: the spec reporter to stdout, and a JUnit report to
 * `reports/junit.xml` — a file the command creates, which the sync pulls
 * into the Workspace. `mkdir -p` first: the runner does not create a
 * reporter destination's directory.
 */
export const TEST_SCRIPT =
  "mkdir -p reports && node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=reports/junit.xml";

/** The project's files (path → text), written by the agent with the write tool. */
export const FILES: ReadonlyArray<readonly [path: string, content: string]> = [
  [`${APP}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module", scripts: { test: TEST_SCRIPT } }, null, 2)}\n`],
  [`${APP}/math.js`, "export function add(a, b) {\n  return a + b;\n}\n"],
  [
    `${APP}/test/math.test.js`,
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { add } from "../math.js";\n\ntest("add", () => {\n  assert.equal(add(2, 3), 5);\n});\n',
  ],
];

/**
 * The module the agent runs with the exec tool (worker-javascript): `npm
 * test` in the container, through `ws:container`. Its return value is the
 * exec tool's `result`.
 */
export const RUN_TESTS = `import { exec } from "ws:container";

export default async function () {
  const { exitCode, stdout, stderr, sync } = await exec("npm test", { cwd: "${APP}" });
  return { passed: exitCode === 0, exitCode, stdout, stderr, sync: sync.status };
}
`;

/** What {@link RUN_TESTS} returns (and what a real model is asked to return). */
export interface TestRun {
  passed: boolean;
  exitCode: number;
  stdout: string;
  stderr: string;
  sync: string;
}

/** The task, for a real model (the scripted one follows the same plan). */
export const PROMPT = [
  `Create a tiny Node project in ${APP} with the write tool:`,
  ...FILES.map(([path, content]) => `\n--- ${path}\n${content}`),
  `\nThen test it in the Linux container: run this module with the exec tool (it is JavaScript; ws:container runs the shell command in the container):\n\n${RUN_TESTS}`,
  "\nReport whether the tests passed.",
].join("\n");
