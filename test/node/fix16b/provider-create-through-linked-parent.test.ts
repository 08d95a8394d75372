/**
 * Issue 20, found by the lead after the fifteenth attack run: the provider's `#create` (src/fs/provider.ts: what
 * `open` with a create flag and `appendFile` run for a path that is a dangling link) took a relative link target
 * from the link's directory as written, not from its real directory (its parent's links resolved), so a link
 * reached through a linked directory had its target created (or found) in the wrong place. The shell's `>>`
 * already takes it from `realpathOf` the parent (b3ed2a2).
 * Tried: /ws/linkdir -> /ws/real/sub; the dangling link /ws/real/sub/l -> "../x" (which leads to /ws/real/x, as
 * `workspace.fs` and realpath resolve it); then, through the linked parent, `appendFile("/ws/linkdir/l", …)`,
 * `open("/ws/linkdir/l", "w")` and `open(…, "a")`; and the same with a file already at /ws/x.
 * Found (medium, 3 of 3 calls): the new file was made at /ws/x (from "/ws/linkdir" + "/../x") and /ws/real/x stayed
 * missing: `appendFile` resolved with "APP" in /ws/x and the link still dangling; `open(…, "w"/"a")` left an empty
 * /ws/x and rejected "ENOENT: no such file or directory, open '/ws/linkdir/l'" (its stat of the link after the
 * create); with a file already at /ws/x, `appendFile` rejected "EEXIST: file already exists" after 10 tries.
 * Fixed: the target is taken from the real directory of the link (`realpathOf` its parent, as the shell does).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

async function setup(withDecoy: boolean) {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.fs.mkdir("/ws/real/sub", { recursive: true });
  await ws.fs.symlink("/ws/real/sub", "/ws/linkdir");
  await ws.fs.symlink("../x", "/ws/real/sub/l");
  if (withDecoy) await ws.fs.writeFile("/ws/x", "DECOY");
  const state = async () => ({
    real: await ws.fs.readFile("/ws/real/x", "utf8").catch((e: { code?: string }) => String(e.code)),
    decoy: await ws.fs.readFile("/ws/x", "utf8").catch((e: { code?: string }) => String(e.code)),
    viaLink: await ws.fs.readFile("/ws/linkdir/l", "utf8").catch((e: { code?: string }) => String(e.code)),
  });
  return { ws, provider: ws.provider(), state };
}

const settle = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => `${String(e.code)} ${String(e.message)}`);

describe("fix16b: a dangling link reached through a linked directory is created through from its real directory", () => {
  it("appendFile creates /ws/real/x (not /ws/x)", async () => {
    const { provider, state } = await setup(false);
    expect(await settle(provider.appendFile("/ws/linkdir/l", "APP"))).toBe("ok");
    // Found: { real: "ENOENT", decoy: "APP", viaLink: "ENOENT" }.
    expect(await state()).toEqual({ real: "APP", decoy: "ENOENT", viaLink: "APP" });
  });

  it("open 'w' and 'a' create /ws/real/x and write there", async () => {
    for (const flags of ["w", "a"]) {
      const { provider, state } = await setup(false);
      const opened = await settle(
        (async () => {
          const handle = await provider.open("/ws/linkdir/l", flags);
          await handle.write(new TextEncoder().encode(flags));
          await handle.close();
        })(),
      );
      // Found: "ENOENT ENOENT: no such file or directory, open '/ws/linkdir/l'" with an empty /ws/x left behind.
      expect({ flags, opened, ...(await state()) }).toEqual({ flags, opened: "ok", real: flags, decoy: "ENOENT", viaLink: flags });
    }
  });

  it("a file at the lexical place (/ws/x) is left alone", async () => {
    const { provider, state } = await setup(true);
    expect(await settle(provider.appendFile("/ws/linkdir/l", "APP"))).toBe("ok");
    expect(await state()).toEqual({ real: "APP", decoy: "DECOY", viaLink: "APP" });
  });
});
