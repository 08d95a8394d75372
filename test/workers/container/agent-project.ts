/**
 * The small real Node project of the container agent-loop test (issue 17,
 * "Done when"): the files the scripted agent writes, the edits it makes, the
 * JavaScript it runs through `ws:container`, and what `npm test` must print
 * and leave behind. Checked against the `node` on the daemon's PATH (Node 22
 * from the `node` devDependency under `npx vitest` / `npm test`; Node 20's
 * spec reporter words a failure differently, so only the lines both share
 * are fixed here).
 */

/** Where the project lives, in the Workspace and (under the mount point) in the container. */
export const APP = "/workspace/app";

/**
 * `npm test`: the built-in runner with coverage, the spec reporter to stdout
 * and an lcov report to `coverage/lcov.info`. `mkdir -p` first: the runner
 * opens a reporter destination without creating its directory (ENOENT on a
 * fresh checkout, Node 20 and 22 alike).
 */
export const TEST_SCRIPT =
  "mkdir -p coverage && node --test --experimental-test-coverage --test-reporter=spec --test-reporter=lcov --test-reporter-destination=stdout --test-reporter-destination=coverage/lcov.info";

/** The files the agent writes, in order (path → text). `math.js` starts with a bug the agent then edits away. */
export const FILES: ReadonlyArray<[path: string, text: string]> = [
  [
    `${APP}/package.json`,
    `${JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module", scripts: { test: TEST_SCRIPT }, dependencies: { dep: "file:./dep" } }, null, 2)}\n`,
  ],
  [`${APP}/dep/package.json`, `${JSON.stringify({ name: "dep", version: "1.0.0", type: "module", main: "index.js" }, null, 2)}\n`],
  [`${APP}/dep/index.js`, "export const double = (n) => n * 2;\n"],
  [`${APP}/math.js`, 'import { double } from "dep";\nexport function add(a, b) { return a - b; }\nexport function quadruple(n) { return double(double(n)); }\n'],
  [
    `${APP}/test/math.test.js`,
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { add, quadruple } from "../math.js";\ntest("add", () => { assert.equal(add(2, 3), 5); });\ntest("quadruple", () => { assert.equal(quadruple(3), 12); });\n',
  ],
];

/** The agent's fix (edit tool): `add` really adds. */
export const FIX = { path: `${APP}/math.js`, edits: [{ oldText: "return a - b;", newText: "return a + b;" }] };
/** The agent's breaking edit: the `add` test now expects 6. */
export const BREAK = { path: `${APP}/test/math.test.js`, edits: [{ oldText: "add(2, 3), 5)", newText: "add(2, 3), 6)" }] };

/**
 * What the agent runs with the exec tool (JavaScript, the only backend it is
 * offered): `npm install` (only a `file:` dependency, so no registry) and
 * `npm test` in the container, through `ws:container`.
 */
export const RUN_TESTS = `import { exec } from "ws:container";
export default async () => {
  const node = await exec("node --version");
  const i = await exec("npm install --offline --no-audit --no-fund", { cwd: "/workspace/app" });
  const t = await exec("npm test", { cwd: "/workspace/app" });
  return { node: node.stdout.trim(), install: i.exitCode, installOut: i.stdout, exitCode: t.exitCode, passed: t.exitCode === 0, stdout: t.stdout, stderr: t.stderr, sync: t.sync.status };
};
`;

/** The module's return value, as the model sees it in the exec tool's `result`. */
export interface RunResult {
  node: string;
  install: number;
  installOut: string;
  exitCode: number;
  passed: boolean;
  stdout: string;
  stderr: string;
  sync: string;
}

/** The lcov report the runner writes (identical on Node 20 and 22, passing or failing: the same lines run). */
export const LCOV = [
  "TN:",
  "SF:dep/index.js",
  "FN:1,double",
  "FNDA:2,double",
  "FNF:1",
  "FNH:1",
  "BRDA:1,0,0,1",
  "BRDA:1,1,0,2",
  "BRF:2",
  "BRH:2",
  "DA:1,1",
  "LH:1",
  "LF:1",
  "end_of_record",
  "SF:math.js",
  "FN:2,add",
  "FN:3,quadruple",
  "FNDA:1,add",
  "FNDA:1,quadruple",
  "FNF:2",
  "FNH:2",
  "BRDA:1,0,0,1",
  "BRDA:2,1,0,1",
  "BRDA:3,2,0,1",
  "BRF:3",
  "BRH:3",
  "DA:1,1",
  "DA:2,1",
  "DA:3,1",
  "LH:3",
  "LF:3",
  "end_of_record",
  "SF:test/math.test.js",
  "FN:4,anonymous_0",
  "FN:5,anonymous_1",
  "FNDA:1,anonymous_0",
  "FNDA:1,anonymous_1",
  "FNF:2",
  "FNH:2",
  "BRDA:1,0,0,1",
  "BRDA:4,1,0,1",
  "BRDA:5,2,0,1",
  "BRF:3",
  "BRH:3",
  "DA:1,1",
  "DA:2,1",
  "DA:3,1",
  "DA:4,1",
  "DA:5,1",
  "LH:5",
  "LF:5",
  "end_of_record",
  "",
].join("\n");

/** Timings out of the spec reporter's text: `(1.23ms)` → `(…ms)`, `duration_ms 12.3` → `duration_ms …`. */
export function normalize(stdout: string): string {
  return stdout.replace(/\(\d+(?:\.\d+)?ms\)/g, "(…ms)").replace(/duration_ms \d+(?:\.\d+)?/g, "duration_ms …");
}

/** What npm prints before the script's own output. */
export const NPM_HEADER = `\n> app@1.0.0 test\n> ${TEST_SCRIPT}\n\n`;

/** The runner's summary for two tests, `pass` of them passing, up to the coverage table. */
export const summary = (pass: number) =>
  `ℹ tests 2\nℹ suites 0\nℹ pass ${pass}\nℹ fail ${2 - pass}\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms …\nℹ start of coverage report\n`;
