/**
 * A smart-HTTP git server on 127.0.0.1 for the fix16c tests: `git-upload-pack` is the real git's
 * (`git upload-pack --stateless-rpc` on a one-commit repository made by the real git), the ref advertisement
 * (`info/refs`, for the service asked: a push's `git-receive-pack` too, though a push is not served further) is
 * written here — HEAD and main, then `tags` lightweight tags at the same commit — so its size and how it arrives
 * can be chosen:
 * - `whole`: in one write, chunked (no content-length);
 * - `split`: HEAD and main first, then (`splitDelayMs` later, 100 by default) the tags, chunked;
 * - `declared`: in one write with its content-length.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { committedRepo, realGit } from "../git/worktree-helpers.js";

function pkt(data: string): Buffer {
  const body = Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

export interface AdvertServer {
  url: string;
  /** The commit main is at. */
  oid: string;
  /** Bytes of the ref advertisement. */
  advertBytes: number;
  /** The upload-pack requests the server answered. */
  packs(): number;
  close(): void;
}

export async function advertServer(mode: "whole" | "split" | "declared", tags: number, splitDelayMs = 100): Promise<AdvertServer> {
  const disk = committedRepo({ "a.txt": "from the server\n" }, "server");
  const oid = realGit(disk, "rev-parse", "HEAD").trim();
  const head = (service: string) => Buffer.concat([
    pkt(`# service=${service}\n`),
    Buffer.from("0000"),
    pkt(`${oid} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main\n`),
    pkt(`${oid} refs/heads/main\n`),
  ]);
  const rest = Buffer.concat([...Array.from({ length: tags }, (_, k) => pkt(`${oid} refs/tags/t${String(k).padStart(5, "0")}\n`)), Buffer.from("0000")]);
  let packs = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      // The service asked for (git-upload-pack, or git-receive-pack for a push).
      const service = new URL(req.url ?? "/", "http://x").searchParams.get("service") ?? "git-upload-pack";
      const type = { "content-type": `application/x-${service}-advertisement` };
      if (mode === "declared") {
        res.writeHead(200, { ...type, "content-length": String(head(service).length + rest.length) });
        res.end(Buffer.concat([head(service), rest]));
      } else if (mode === "whole") {
        res.writeHead(200, type);
        res.write(Buffer.concat([head(service), rest]));
        res.end();
      } else {
        res.writeHead(200, type);
        res.write(head(service));
        setTimeout(() => {
          res.write(rest);
          res.end();
        }, splitDelayMs);
      }
      return;
    }
    packs++;
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
    const child = spawn("git", ["upload-pack", "--stateless-rpc", disk], { stdio: ["pipe", "pipe", "ignore"] });
    req.pipe(child.stdin);
    child.stdout.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`,
    oid,
    advertBytes: head("git-upload-pack").length + rest.length,
    packs: () => packs,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
