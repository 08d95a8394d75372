/**
 * Building blocks for hand-made git packs and smart-HTTP answers in tests (git's pack format,
 * Documentation/gitformat-pack.txt): object ids, pkt-lines, object headers, delta varints, ofs-delta distances.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** SHA-1 of `bytes`, raw (20 bytes). */
export const sha1 = (bytes: Buffer): Buffer => createHash("sha1").update(bytes).digest();

/** A loose object's id (raw): SHA-1 of `<type> <size>\0<body>`. */
export const oidOf = (type: string, body: Buffer): Buffer => sha1(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]));

/** One pkt-line: four hex digits of length (itself included), then the data. */
export function pkt(data: string | Buffer): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

/** A pack object header: type (1 commit, 2 tree, 3 blob, 6 ofs-delta, 7 ref-delta) and inflated size. */
export function header(type: number, size: number): Buffer {
  const out: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    out.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  out.push(byte);
  return Buffer.from(out);
}

/** git's ofs-delta distance encoding (big-endian 7-bit groups, each continuation one less). */
export function ofsEncode(n: number): Buffer {
  const bytes = [n & 0x7f];
  while ((n = Math.floor(n / 128))) {
    n -= 1;
    bytes.unshift(0x80 | (n & 0x7f));
  }
  return Buffer.from(bytes);
}

/** A delta's size varint (little-endian 7-bit groups): its base and result sizes. */
export function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/**
 * A smart-HTTP git server on 127.0.0.1 that advertises `main` (and HEAD) at commit `oid` and answers every
 * upload-pack request with `pack` (NAK, then the pack on side band 1). `close()` drops its connections.
 */
export async function servePack(pack: Buffer, oid: string): Promise<{ url: string; close(): void }> {
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
      res.end(Buffer.concat([pkt("# service=git-upload-pack\n"), Buffer.from("0000"), pkt(`${oid} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main\n`), pkt(`${oid} refs/heads/main\n`), Buffer.from("0000")]));
      return;
    }
    req.resume();
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
    res.end(Buffer.concat([pkt("NAK\n"), pkt(Buffer.concat([Buffer.from([1]), pack])), Buffer.from("0000")]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r.git`, close: () => { server.closeAllConnections(); server.close(); } };
}
