/**
 * A hostile smart-HTTP git server for the attack15b tests, on 127.0.0.1 only: it advertises one branch, then
 * answers `git-upload-pack` with a NAK and side-band pack data it makes up — a trickle (one 1 KB packet every
 * 100 ms, forever) or a flood (`floodBytes` of packets as fast as the client reads, then a flush; with
 * `declareLength`, its `content-length` is sent first).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Workspace } from "../../../src/index.js";
import type { GitClient } from "../../../src/git/index.js";
import { newWorkspace, wsSnapshot } from "../git/worktree-helpers.js";

function pkt(data: string | Buffer): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

export interface HostileServer {
  url: string;
  /** Pack bytes written so far. */
  served(): number;
  close(): void;
}

export async function hostileGitServer(mode: { trickle: true } | { floodBytes: number; declareLength?: boolean }): Promise<HostileServer> {
  const oid = "a".repeat(40);
  let served = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
      res.end(
        Buffer.concat([
          pkt("# service=git-upload-pack\n"),
          Buffer.from("0000"),
          pkt(`${oid} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main\n`),
          pkt(`${oid} refs/heads/main\n`),
          Buffer.from("0000"),
        ]),
      );
      return;
    }
    req.resume();
    const nak = pkt("NAK\n");
    const packet = 65520;
    const length =
      "floodBytes" in mode && mode.declareLength ? { "content-length": String(nak.length + Math.ceil(mode.floodBytes / packet) * packet + 4) } : {};
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-result", ...length });
    res.write(nak);
    if ("trickle" in mode) {
      const chunk = pkt(Buffer.concat([Buffer.from([1]), Buffer.alloc(1000, 0x50)]));
      const timer = setInterval(() => {
        served += chunk.length;
        res.write(chunk);
      }, 100);
      res.on("close", () => clearInterval(timer));
      return;
    }
    const chunk = pkt(Buffer.concat([Buffer.from([1]), Buffer.alloc(65515, 0x50)]));
    const pump = () => {
      while (served < mode.floodBytes) {
        served += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end(Buffer.from("0000"));
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`,
    served: () => served,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A Workspace whose `/r` holds one commit ("one", `a.txt`) and the remote `origin` at `url`; `before` is its snapshot. */
export async function repoWithRemote(url: string): Promise<{ ws: Workspace; git: GitClient; before: Record<string, string> }> {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  await ws.fs.writeFile("/r/a.txt", "a\n");
  await git.add({ dir: "/r", paths: ["a.txt"] });
  await git.commit({ dir: "/r", message: "one" });
  await git.remoteAdd({ dir: "/r", name: "origin", url });
  return { ws, git, before: await wsSnapshot(ws, "/r") };
}
