import { describe, expect, it } from "vitest";
import { CROCKFORD_ALPHABET, contentDisposition, contentTypeFor, crockfordBase32 } from "../../../src/assets/index.js";
import { newAssetId } from "../../../src/assets/id.js";
import { assetKey, basename, fitName, fitSourcePath, MAX_KEY_BYTES, MAX_SOURCE_PATH_BYTES, normalizePrefix } from "../../../src/assets/metadata.js";

describe("what share stores fits R2's limits", () => {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  it("fitName keeps a name that fits, else <start of stem>…<extension> filling the key to 1,024 bytes (between characters)", () => {
    expect(MAX_KEY_BYTES).toBe(1024);
    const head = `${"0".repeat(26)}/`;
    expect(fitName(head, "x.txt")).toBe("x.txt");
    expect(fitName(head, `${"a".repeat(997)}`)).toBe("a".repeat(997));
    expect(fitName(head, `${"a".repeat(998)}`)).toBe(`${"a".repeat(994)}\u2026`);
    expect(fitName(head, `${"a".repeat(1100)}.txt`)).toBe(`${"a".repeat(990)}\u2026.txt`);
    // 3-byte characters: 990 bytes hold 330 of them; a 4-byte one is never split.
    expect(fitName(head, `${"\u4e00".repeat(400)}.pdf`)).toBe(`${"\u4e00".repeat(330)}\u2026.pdf`);
    expect(fitName(head, `${"\u{1F389}".repeat(300)}`)).toBe(`${"\u{1F389}".repeat(248)}\u2026`);
    expect(bytes(head + fitName(head, `${"\u{1F389}".repeat(300)}`))).toBe(1022);
    // An "extension" past 16 bytes after the dot is not kept as one.
    expect(fitName(head, `${"b".repeat(1000)}.${"c".repeat(17)}`)).toBe(`${"b".repeat(994)}\u2026`);
    expect(() => fitName(`${"p".repeat(1022)}/`, "ab")).toThrow(TypeError);
    expect(fitName(`${"p".repeat(1022)}/`, "a")).toBe("a");
  });

  it("fitSourcePath keeps a path of up to 1,024 bytes, else its first 510 bytes, … and its last 511", () => {
    expect(MAX_SOURCE_PATH_BYTES).toBe(1024);
    expect(fitSourcePath(`/${"d".repeat(1023)}`)).toBe(`/${"d".repeat(1023)}`);
    const long = `/${"d".repeat(9000)}/x.txt`;
    expect(fitSourcePath(long)).toBe(`/${"d".repeat(509)}\u2026${"d".repeat(505)}/x.txt`);
    expect(bytes(fitSourcePath(long))).toBe(1024);
    const cjk = `/${"\u4e00".repeat(1000)}`;
    expect(fitSourcePath(cjk)).toBe(`/${"\u4e00".repeat(169)}\u2026${"\u4e00".repeat(170)}`);
  });
});

describe("ids (spec 04 §1.4)", () => {
  it("encodes bytes 00..0f as the spec's vector", () => {
    expect(crockfordBase32(Uint8Array.from({ length: 16 }, (_, i) => i))).toBe("000g40r40m30e209185gr38e1w");
  });

  it("encodes MSB-first with the last group zero-padded on the right", () => {
    expect(crockfordBase32(new Uint8Array([0xff]))).toBe("zw");
    expect(crockfordBase32(new Uint8Array([0xff, 0xff]))).toBe("zzzg");
    expect(crockfordBase32(new Uint8Array(16).fill(0xff))).toBe("z".repeat(25) + "w");
    expect(crockfordBase32(new Uint8Array(0))).toBe("");
  });

  it("makes a fresh 26-char lowercase Crockford id per call", () => {
    expect(CROCKFORD_ALPHABET).toBe("0123456789abcdefghjkmnpqrstvwxyz");
    const ids = new Set(Array.from({ length: 100 }, () => newAssetId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{26}$/);
  });
});

describe("contentTypeFor (spec 04 §1.5)", () => {
  it("maps every listed extension", () => {
    const table: Record<string, string> = {
      png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp",
      avif: "image/avif", bmp: "image/bmp", svg: "image/svg+xml", ico: "image/x-icon",
      txt: "text/plain", md: "text/markdown", csv: "text/csv", html: "text/html", htm: "text/html",
      css: "text/css", js: "text/javascript", mjs: "text/javascript",
      json: "application/json", xml: "application/xml", pdf: "application/pdf", zip: "application/zip",
      yaml: "application/yaml", yml: "application/yaml", gz: "application/gzip", tar: "application/x-tar",
      mp4: "video/mp4", webm: "video/webm", mp3: "audio/mpeg", wav: "audio/wav",
    };
    for (const [ext, type] of Object.entries(table)) expect([ext, contentTypeFor(`file.${ext}`)]).toEqual([ext, type]);
  });

  it("uses the last extension, lower-cased; no dot, a leading dot only, or unknown → octet-stream", () => {
    expect(contentTypeFor("x.tar.gz")).toBe("application/gzip");
    expect(contentTypeFor("A.PDF")).toBe("application/pdf");
    expect(contentTypeFor(".env")).toBe("application/octet-stream");
    expect(contentTypeFor("Makefile")).toBe("application/octet-stream");
    expect(contentTypeFor("a.unknown")).toBe("application/octet-stream");
    expect(contentTypeFor("trailing.")).toBe("application/octet-stream");
    expect(contentTypeFor(".hidden.json")).toBe("application/json");
    expect(contentTypeFor("a.constructor")).toBe("application/octet-stream");
    expect(contentTypeFor("a.__proto__")).toBe("application/octet-stream");
  });
});

describe("contentDisposition (spec 04 §1.5)", () => {
  it("quotes the name and escapes \" and \\", () => {
    expect(contentDisposition("inline", "chart.png")).toBe('inline; filename="chart.png"');
    expect(contentDisposition("attachment", 'a"b\\c.txt')).toBe('attachment; filename="a\\"b\\\\c.txt"');
  });

  it("adds filename* when a character is outside U+0020–U+007E, keeping the quoted part raw", () => {
    expect(contentDisposition("attachment", "rép ort.PDF")).toBe(
      "attachment; filename=\"rép ort.PDF\"; filename*=UTF-8''r%C3%A9p%20ort.PDF",
    );
    // Control characters cannot travel in a header: "_" in the quoted part, exact in filename*.
    expect(contentDisposition("inline", "tab\there")).toBe("inline; filename=\"tab_here\"; filename*=UTF-8''tab%09here");
    expect(contentDisposition("inline", "a\r\nSet-Cookie: x")).toBe("inline; filename=\"a__Set-Cookie: x\"; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x");
    expect(contentDisposition("inline", "~ok~")).toBe('inline; filename="~ok~"');
    // A lone surrogate (a JS string can hold one, UTF-8 cannot) becomes U+FFFD instead of a URIError.
    expect(contentDisposition("inline", "lone\uD800.txt")).toBe("inline; filename=\"lone\uFFFD.txt\"; filename*=UTF-8''lone%EF%BF%BD.txt");
  });
});

describe("key layout (spec 04 §1.4)", () => {
  it("normalises prefixes by dropping empty segments", () => {
    expect(normalizePrefix("/agent-x//y/")).toBe("agent-x/y");
    expect(normalizePrefix("")).toBe("");
    expect(normalizePrefix("/")).toBe("");
    expect(normalizePrefix("///")).toBe("");
    // "." and ".." are not interpreted, and refused: a URL cannot address them.
    expect(() => normalizePrefix("a/./../b")).toThrow('share: prefix "a/./../b" has a "." or ".." segment, which a URL cannot address; use other characters');
    expect(() => normalizePrefix("..")).toThrow(TypeError);
    expect(normalizePrefix("a.b/..c/.d")).toBe("a.b/..c/.d");
  });

  it("takes the basename after dropping one trailing slash", () => {
    expect(basename("/workspace/out/chart.png")).toBe("chart.png");
    expect(basename("chart.png")).toBe("chart.png");
    expect(basename("/a/b/")).toBe("b");
    expect(basename("/a/rép ort.PDF")).toBe("rép ort.PDF");
    // A trailing dot segment is resolved (a key ending in "/." cannot be reached by URL).
    expect(basename("/out/f.txt/.")).toBe("f.txt");
    expect(basename("/out/x/../f.txt/./")).toBe("f.txt");
  });

  it("joins prefix, id and basename", () => {
    expect(assetKey("/agent-x//y/", "ID", "chart.png")).toBe("agent-x/y/ID/chart.png");
    expect(assetKey(undefined, "ID", "chart.png")).toBe("ID/chart.png");
    expect(assetKey("/", "ID", "c")).toBe("ID/c");
  });
});
