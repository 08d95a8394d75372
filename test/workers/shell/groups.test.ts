/**
 * Command groups (spec 02 §6): core always; each `<pkg>/shell/<group>` adds
 * its commands; python, sqlite and js-exec need a Node worker thread, which a
 * Dynamic Worker lacks, so their commands say so (exit 127).
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "./helpers.js";
import python from "../../../src/shell/python.js";
import sqlite from "../../../src/shell/sqlite.js";
import jsExec from "../../../src/shell/js-exec.js";
import yq from "../../../src/shell/yq.js";
import xan from "../../../src/shell/xan.js";
import jq from "../../../src/shell/jq.js";
import file from "../../../src/shell/file.js";
import htmlToMarkdown from "../../../src/shell/html-to-markdown.js";
import core from "../../../src/shell/core.js";

const run = (cases: [string, string][], commands: Parameters<typeof inShellWorkspace>[1] extends infer O ? (O extends { shell?: infer S } ? S : never) : never) =>
  inShellWorkspace(async (ws) => {
    const out: Record<string, [number, string, string]> = {};
    for (const [name, command] of cases) {
      const r = await sh(ws, command, { timeoutMs: 20_000 });
      out[name] = [r.exitCode, r.stdout, r.stderr];
    }
    return out;
  }, { shell: commands });

describe("worker-shell command groups", () => {
  it("runs each optional group's command when the group is listed", async () => {
    const out = await run(
      [
        ["yq", "echo 'a: 1' | yq .a"],
        ["xan", "printf 'a,b\\n1,2\\n3,4\\n' | xan count"],
        ["jq", "echo '{\"a\":[1,2]}' | jq -c .a"],
        ["file", "printf 'hi\\n' > f.txt; file f.txt"],
        ["html-to-markdown", "echo '<h1>Hi</h1><p>x <b>y</b></p>' | html-to-markdown"],
        ["tar", "tar -cf x.tar f.txt && tar -tf x.tar"],
        ["gzip", "gzip -k f.txt && zcat f.txt.gz"],
      ],
      { commands: [yq, xan, jq, file, htmlToMarkdown] },
    );
    expect(out).toEqual({
      yq: [0, "1\n", ""],
      xan: [0, "2\n", ""],
      jq: [0, "[1,2]\n", ""],
      file: [0, "f.txt: ASCII text\n", ""],
      "html-to-markdown": [0, "# Hi\n\nx **y**\n", ""],
      tar: [0, "f.txt\n", ""],
      gzip: [0, "hi\n", ""],
    });
  });

  it("without its group a command is not found (127) and the message names the group; core alone has grep, sed, awk", async () => {
    const out = await run(
      [
        ["jq", "echo '{}' | jq ."],
        ["yq", "yq --version"],
        ["core", "printf 'b\\na\\n' | sort | sed s/a/A/ | awk '{print NR\": \"$0}'"],
      ],
      {},
    );
    expect(out).toEqual({
      jq: [127, "", 'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))\n'],
      yq: [127, "", 'bash: yq: command not found; it comes with the yq command group (import "agent-computer/shell/yq" and pass it in WorkerShellBackend({ commands }))\n'],
      core: [0, "1: A\n2: b\n", ""],
    });
  });

  it("python, sqlite and js-exec say why they cannot run in a Dynamic Worker", async () => {
    const out = await run(
      [
        ["python3", "python3 -c 'print(1)'"],
        ["sqlite3", "sqlite3 :memory: 'select 1'"],
        ["js-exec", "js-exec -c 'console.log(1)'"],
        ["node", "node -e 1"],
      ],
      { commands: [python, sqlite, jsExec] },
    );
    expect(out.python3).toEqual([127, "", `${python.unavailable}\n`]);
    expect(out.sqlite3).toEqual([127, "", `${sqlite.unavailable}\n`]);
    expect(out["js-exec"]).toEqual([127, "", `${jsExec.unavailable}\n`]);
    expect(out.node).toEqual([127, "", `${jsExec.unavailable}\n`]);
    expect(python.unavailable).toMatch(/^python3 is not available in the Worker shell: .*Node worker thread/);
    expect([python.modules, sqlite.modules, jsExec.modules]).toEqual([{}, {}, {}]);
    expect(core.commands).toContain("grep");
  });
});
