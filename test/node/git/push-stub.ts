/**
 * A stub receive-pack server on 127.0.0.1 for push tests: it advertises no refs, counts the bytes of every pack
 * pushed to it and answers `unpack ok` / `ok refs/heads/main` (or the report-status lines given as `report`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A pkt-line holding `data`. */
export function pkt(data: string): Buffer {
  const body = Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

/** Runs `fn` with the stub's repository URL and a reader of the bytes pushed so far; the server is closed after. */
export async function withPushStub<T>(
  fn: (url: string, received: () => number) => Promise<T>,
  report: readonly string[] = ["unpack ok", "ok refs/heads/main"],
): Promise<T> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/x-git-receive-pack-advertisement" });
      res.end(Buffer.concat([pkt("# service=git-receive-pack\n"), Buffer.from("0000"), pkt(`${"0".repeat(40)} capabilities^{}\0report-status side-band-64k\n`), Buffer.from("0000")]));
      return;
    }
    req.on("data", (c: Buffer) => (received += c.length));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/x-git-receive-pack-result" });
      const inner = Buffer.concat([...report.map((line) => pkt(`${line}\n`)), Buffer.from("0000")]);
      res.end(Buffer.concat([pkt("\x01" + inner.toString("latin1")), Buffer.from("0000")]));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`, () => received);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
