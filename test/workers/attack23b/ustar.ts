/** A tiny ustar writer for the attack23b tar tests: members as GNU tar writes them, NUL-padded, two zero blocks at the end. */
export interface UstarMember {
  name: string;
  /** "0" file (default), "1" hard link, "2" symbolic link, "5" directory. */
  type?: "0" | "1" | "2" | "5";
  content?: string;
  linkname?: string;
  mode?: number;
}

export function ustar(members: readonly UstarMember[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const m of members) {
    const body = new TextEncoder().encode(m.content ?? "");
    const h = new Uint8Array(512);
    const put = (s: string, at: number) => h.set(new TextEncoder().encode(s), at);
    const type = m.type ?? "0";
    put(m.name, 0);
    put(`${(m.mode ?? (type === "5" ? 0o755 : 0o644)).toString(8).padStart(7, "0")}\0`, 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(`${(type === "0" ? body.length : 0).toString(8).padStart(11, "0")}\0`, 124);
    put(`${(1_600_000_000).toString(8).padStart(11, "0")}\0`, 136);
    put("        ", 148);
    put(type, 156);
    if (m.linkname) put(m.linkname, 157);
    put("ustar\0", 257);
    put("00", 263);
    let sum = 0;
    for (const b of h) sum += b;
    put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(h);
    if (type === "0" && body.length > 0) {
      const padded = new Uint8Array(Math.ceil(body.length / 512) * 512);
      padded.set(body);
      blocks.push(padded);
    }
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
