/**
 * Issue 20, twenty-ninth attack run: `command -v`, `type` and `type -P` find the commands the shell cannot run — those
 * of groups not listed (`jq`, `sqlite3`) and those that cannot run in a Dynamic Worker (`python3`, `node`) — because
 * their 127 stubs are listed in /usr/bin. So the usual feature test `if command -v jq >/dev/null; then jq …; else
 * <fallback>; fi` (or `command -v python3 >/dev/null || …`) takes the branch that runs the missing command and ends
 * with status 127 instead of taking the fallback, as bash does on a machine without them.
 *
 * Tried: in the default configuration (no command groups), side by side with bash 5.2.15 whose PATH holds none of
 * these commands: `command -v jq`, `command -v python3 >/dev/null || echo …`, `type -P node`, `type jq`, the
 * jq-or-grep fallback on a package.json; `which jq` and `[ -x /usr/bin/jq ]` also find it (the /usr/bin stub).
 * Held: `command -v nosuchcmd` (status 1, nothing printed); running `jq`/`python3`/`node` fails with 127 and a message
 * saying which group to add (docs/porting.md, Shell); `command -v git`/`sed`/`awk` find the real commands.
 * Found (medium — a script's feature detection takes the wrong branch and the command fails 127 where bash runs the
 * fallback; the idiom is common in agent scripts that probe for jq/python; 2 of 2 runs).
 * Suggested fix: src/backends/worker-shell/worker.ts `runShell`: keep the `unavailable` names out of the /usr/bin
 * listing given to WorkspaceFsAdapter (`commands`) and let just-bash's lookup for `command -v`/`type`/`which`/`hash`
 * skip them, while running one still prints the group message (a not-found hook rather than a /usr/bin entry).
 *
 * Fixed: the commands the shell cannot run are no longer listed in /usr/bin nor registered as commands
 * (src/backends/worker-shell/worker.ts passes them to just-bash as `unavailableCommands`), so `command -v`, `type`,
 * `which`, `hash`, `compgen -c` and `[ -x /usr/bin/jq ]` do not find them; just-bash's command runner, when its PATH
 * lookup finds nothing, answers the group's message with 127 (scripts/gen-shell.mjs CZ_PATCHES,
 * src/backends/worker-shell/isolate/lookup-date-gzip.ts). `command -v`/`-V` now also find an executable script in
 * PATH, as `type` did. Siblings in test/workers/fix29/shell-command-v-date-gzip.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "p.json": '{"name": "x", "version": "2.1.0"}\n' } };

it("command -v and type do not find commands the shell cannot run, as bash without them", async () => {
  const out = await shellCases(
    tree,
    [
      "command -v jq; echo rc=$?",
      "command -v python3 >/dev/null || echo 'no python3'",
      "type -P node; echo rc=$?",
      "if command -v jq >/dev/null 2>&1; then jq -r .version p.json; else grep -o '\"version\": *\"[^\"]*\"' p.json | cut -d'\"' -f4; fi; echo rc=$?",
      "type sqlite3 >/dev/null 2>&1; echo rc=$?",
    ],
    { collect: (_ws, command, r) => [command, r.stdout] },
  );
  expect(out).toEqual([
    // Was: "/usr/bin/jq\nrc=0\n".
    ["command -v jq; echo rc=$?", "rc=1\n"],
    // Was: "" (found, so no fallback).
    ["command -v python3 >/dev/null || echo 'no python3'", "no python3\n"],
    // Was: "/usr/bin/node\nrc=0\n".
    ["type -P node; echo rc=$?", "rc=1\n"],
    // Was: "rc=127\n" (the jq branch ran; stderr `bash: jq: command not found; it comes with the jq command group …`).
    [
      "if command -v jq >/dev/null 2>&1; then jq -r .version p.json; else grep -o '\"version\": *\"[^\"]*\"' p.json | cut -d'\"' -f4; fi; echo rc=$?",
      "2.1.0\nrc=0\n",
    ],
    // Was: "rc=0\n".
    ["type sqlite3 >/dev/null 2>&1; echo rc=$?", "rc=1\n"],
  ]);
});
