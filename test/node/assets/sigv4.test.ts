import { describe, expect, it } from "vitest";
import { MAX_PRESIGN_SECONDS, presignGetUrl, uriEncode } from "../../../src/assets/index.js";

describe("presignGetUrl (SigV4 query auth, spec 04 §1.6)", () => {
  it("reproduces AWS's published S3 presigned URL example byte for byte", async () => {
    const url = await presignGetUrl({
      host: "examplebucket.s3.amazonaws.com",
      canonicalUri: "/test.txt",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      region: "us-east-1",
      service: "s3",
      date: new Date("2013-05-24T00:00:00Z"),
      expiresIn: 86400,
    });
    expect(url).toBe(
      "https://examplebucket.s3.amazonaws.com/test.txt" +
        "?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
        "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request" +
        "&X-Amz-Date=20130524T000000Z" +
        "&X-Amz-Expires=86400" +
        "&X-Amz-SignedHeaders=host" +
        "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    );
  });

  it("accepts epoch milliseconds and an explicit origin with a port", async () => {
    const base = {
      host: "localhost:9000",
      canonicalUri: "/b/k",
      accessKeyId: "AK",
      secretAccessKey: "SK",
      region: "auto",
      service: "s3",
      expiresIn: 60,
    };
    const a = await presignGetUrl({ ...base, origin: "http://localhost:9000", date: Date.UTC(2024, 0, 2, 3, 4, 5) });
    const b = await presignGetUrl({ ...base, origin: "http://localhost:9000", date: new Date("2024-01-02T03:04:05.999Z") });
    expect(a.startsWith("http://localhost:9000/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AK%2F20240102%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20240102T030405Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=")).toBe(true);
    // Sub-second parts do not change the signed time.
    expect(b).toBe(a);
    expect(a).toMatch(/&X-Amz-Signature=[0-9a-f]{64}$/);
  });

  it("rejects lifetimes outside 1..604800 whole seconds and bad URIs", async () => {
    const base = {
      host: "h",
      canonicalUri: "/x",
      accessKeyId: "AK",
      secretAccessKey: "SK",
      region: "auto",
      service: "s3",
      date: 0,
    };
    for (const expiresIn of [0, -1, 1.5, MAX_PRESIGN_SECONDS + 1, Number.NaN]) {
      await expect(presignGetUrl({ ...base, expiresIn })).rejects.toThrow(RangeError);
    }
    await expect(presignGetUrl({ ...base, expiresIn: MAX_PRESIGN_SECONDS })).resolves.toContain("X-Amz-Expires=604800&");
    await expect(presignGetUrl({ ...base, canonicalUri: "x", expiresIn: 1 })).rejects.toThrow(
      'presignGetUrl: canonicalUri must be an encoded path starting with "/"',
    );
    await expect(presignGetUrl({ ...base, date: Number.NaN, expiresIn: 1 })).rejects.toThrow(
      "presignGetUrl: date must be a valid Date or epoch milliseconds",
    );
  });
});

describe("uriEncode", () => {
  it("keeps unreserved characters, keeps / only when asked, and percent-encodes UTF-8 bytes in uppercase hex", () => {
    expect(uriEncode("AZaz09-._~", true)).toBe("AZaz09-._~");
    expect(uriEncode("a/b c", false)).toBe("a/b%20c");
    expect(uriEncode("a/b c", true)).toBe("a%2Fb%20c");
    expect(uriEncode("rép ort.PDF", false)).toBe("r%C3%A9p%20ort.PDF");
    expect(uriEncode("+*=&?%", false)).toBe("%2B%2A%3D%26%3F%25");
    expect(uriEncode("😀", false)).toBe("%F0%9F%98%80");
  });
});
