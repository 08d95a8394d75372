/**
 * A bash/python tool run removes input files of runs that never finished (`/workspace/.tool-input/<expiry>-<uuid>.json`
 * past their expiry), looking at most 256 entries per run. It always looked at the first 256 names: 256 names sorting
 * before the digits (junk such as `!x`, a subdirectory) hid every expired file from every later run, and those files
 * hold tool inputs (nineteenth attack run's leads). Each sweep now goes on where the previous one stopped.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { sweepExpiredInputFiles, TOOL_INPUT_DIR } from "../../../src/tool-dirs/run.js";

const EXPIRED = "1000-00000000-0000-4000-8000-000000000001.json";
const LIVE = "9999999999999-00000000-0000-4000-8000-000000000002.json";

describe("tool input sweep", () => {
  it("reaches an expired input file behind 300 junk names in two sweeps, and starts over after the end", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir(TOOL_INPUT_DIR, { recursive: true });
    const junk = Array.from({ length: 300 }, (_, i) => `!junk-${String(i).padStart(3, "0")}`);
    for (const name of [...junk, EXPIRED, LIVE]) await ws.fs.writeFile(`${TOOL_INPUT_DIR}/${name}`, "{}");
    const names = async () => (await ws.fs.readdir(TOOL_INPUT_DIR)).map((e) => e.name);
    await sweepExpiredInputFiles(ws);
    expect(await names()).toEqual([...junk, EXPIRED, LIVE]); // the first 256 names are junk: nothing to remove there
    await sweepExpiredInputFiles(ws);
    expect(await names()).toEqual([...junk, LIVE]); // the next window holds the expired file
    // Past the end the next sweep starts at the first name again: a new expired file among the first names goes.
    const early = "0999-00000000-0000-4000-8000-000000000003.json";
    await ws.fs.writeFile(`${TOOL_INPUT_DIR}/${early}`, "{}");
    await sweepExpiredInputFiles(ws);
    expect(await names()).toEqual([...junk, early, LIVE]); // this sweep looked at the first 256 (junk only)
    await sweepExpiredInputFiles(ws);
    expect(await names()).toEqual([...junk, LIVE]);
    await ws.close();
  });
});
