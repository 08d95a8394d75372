import { describe, expect, it } from "vitest";
import { createAssets, resolveS3 } from "../../../src/assets/index.js";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const SECRET = "sEcReT/never+print==";

describe("resolveS3 (spec 04 §1.2)", () => {
  it("prefers s3 fields over R2_* over AWS_* and applies region/service defaults", () => {
    const env = {
      R2_ACCESS_KEY_ID: "r2-key",
      AWS_ACCESS_KEY_ID: "aws-key",
      R2_SECRET_ACCESS_KEY: "r2-secret",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      R2_ENDPOINT: "https://r2-endpoint.example",
      CLOUDFLARE_ACCOUNT_ID: "envacct",
    };
    expect(resolveS3({ bucket: "b", accessKeyId: "k", secretAccessKey: "s", endpoint: "https://e.example" }, env)).toEqual({
      bucket: "b",
      accessKeyId: "k",
      secretAccessKey: "s",
      endpoint: "https://e.example",
      region: "auto",
      service: "s3",
    });
    expect(resolveS3({ bucket: "b" }, env)).toEqual({
      bucket: "b",
      accessKeyId: "r2-key",
      secretAccessKey: "r2-secret",
      endpoint: "https://r2-endpoint.example",
      region: "auto",
      service: "s3",
    });
    expect(
      resolveS3(
        { bucket: "b", region: "us-east-1", service: "s3x" },
        { ...env, R2_ACCESS_KEY_ID: "", R2_SECRET_ACCESS_KEY: undefined, R2_ENDPOINT: "" },
      ),
    ).toEqual({
      bucket: "b",
      accessKeyId: "aws-key",
      secretAccessKey: "aws-secret",
      endpoint: "https://envacct.r2.cloudflarestorage.com",
      region: "us-east-1",
      service: "s3x",
    });
  });

  it("accepts a Worker's whole env: bindings and other non-string values are ignored", () => {
    interface WorkerEnv {
      ASSETS: { put(): Promise<null> };
      R2_ACCESS_KEY_ID: number;
      AWS_ACCESS_KEY_ID: string;
      R2_SECRET_ACCESS_KEY: string;
      CLOUDFLARE_ACCOUNT_ID: string;
    }
    const env: WorkerEnv = {
      ASSETS: { put: async () => null },
      R2_ACCESS_KEY_ID: 5,
      AWS_ACCESS_KEY_ID: "aws-key",
      R2_SECRET_ACCESS_KEY: "r2-secret",
      CLOUDFLARE_ACCOUNT_ID: "acct",
    };
    expect(resolveS3({ bucket: "b" }, env)).toEqual({
      bucket: "b",
      accessKeyId: "aws-key",
      secretAccessKey: "r2-secret",
      endpoint: "https://acct.r2.cloudflarestorage.com",
      region: "auto",
      service: "s3",
    });
  });

  it("builds the R2 endpoint from s3.accountId before CLOUDFLARE_ACCOUNT_ID, and s3/R2_ENDPOINT win over both", () => {
    const creds = { accessKeyId: "k", secretAccessKey: "s" };
    expect(resolveS3({ bucket: "b", ...creds, accountId: "opt" }, { CLOUDFLARE_ACCOUNT_ID: "env" }).endpoint).toBe(
      "https://opt.r2.cloudflarestorage.com",
    );
    expect(resolveS3({ bucket: "b", ...creds, accountId: "" }, { CLOUDFLARE_ACCOUNT_ID: "env" }).endpoint).toBe(
      "https://env.r2.cloudflarestorage.com",
    );
    expect(resolveS3({ bucket: "b", ...creds, accountId: "opt" }, { R2_ENDPOINT: "http://localhost:9000/ignored" }).endpoint).toBe(
      "http://localhost:9000/ignored",
    );
    expect(resolveS3({ bucket: "b", ...creds, endpoint: "", accountId: "opt" }, {}).endpoint).toBe("https://opt.r2.cloudflarestorage.com");
  });

  it("checks access key, then secret, then endpoint, each with a hint naming the fields and env vars", () => {
    const all = { bucket: "b", accessKeyId: "k", secretAccessKey: SECRET, accountId: "a" };
    const cases: [Parameters<typeof resolveS3>[0], string, string[]][] = [
      [{ bucket: "b" }, "createAssets: missing access key id.", ["s3.accessKeyId", "R2_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"]],
      [{ ...all, accessKeyId: "" }, "createAssets: missing access key id.", ["s3.accessKeyId", "R2_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"]],
      [{ ...all, secretAccessKey: undefined }, "createAssets: missing secret access key.", ["s3.secretAccessKey", "R2_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY"]],
      [{ ...all, accountId: undefined }, "createAssets: missing endpoint.", ["s3.endpoint", "s3.accountId", "R2_ENDPOINT", "CLOUDFLARE_ACCOUNT_ID"]],
    ];
    for (const [s3, start, names] of cases) {
      let message = "";
      try {
        resolveS3(s3, { R2_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "" });
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
        message = (error as Error).message;
      }
      expect(message.startsWith(start + " ")).toBe(true);
      for (const name of names) expect(message).toContain(name);
      expect(message).not.toContain(SECRET);
    }
  });

  it("requires s3.bucket and a valid http(s) endpoint, without echoing the endpoint or secret", () => {
    const creds = { accessKeyId: "k", secretAccessKey: SECRET };
    expect(() => resolveS3({ ...creds, accountId: "a" } as never, {})).toThrow(/^createAssets: missing s3\.bucket\. /);
    expect(() => resolveS3({ bucket: "", ...creds, accountId: "a" }, {})).toThrow(/^createAssets: missing s3\.bucket\. /);
    for (const endpoint of ["not a url", "ftp://x.example", `https://user:${SECRET}@[bad`]) {
      let message = "";
      try {
        resolveS3({ bucket: "b", ...creds, endpoint }, {});
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^createAssets: endpoint is not a valid http\(s\) URL\. .*s3\.endpoint.*R2_ENDPOINT/);
      expect(message).not.toContain(SECRET);
    }
    expect(() => resolveS3(null as never, {})).toThrow(TypeError);
    expect(() => resolveS3({ bucket: "b" }, null as never)).toThrow(TypeError);
  });
});

describe("createAssets construction", () => {
  const bucket = { put: async () => null };
  const ws = new Workspace({ storage: nodeSqliteStorage() });

  it("resolves credentials at once: a bad config throws from createAssets", () => {
    expect(() => createAssets({ ws, bucket, s3: { bucket: "b" }, env: { R2_ACCESS_KEY_ID: "k", R2_SECRET_ACCESS_KEY: SECRET } })).toThrow(
      /^createAssets: missing endpoint\. /,
    );
    expect(() => createAssets({ ws, bucket, s3: { bucket: "b" } })).toThrow(/^createAssets: missing access key id\. /);
  });

  it("a bad config through the Workspace assets factory makes new Workspace throw", () => {
    expect(
      () =>
        new Workspace({
          storage: nodeSqliteStorage(),
          assets: (w) => createAssets({ ws: w, bucket, s3: { bucket: "b", accessKeyId: "k", accountId: "a" }, env: {} }),
        }),
    ).toThrow(/^createAssets: missing secret access key\. /);
  });

  it("rejects a wrong ws, bucket or now with a TypeError that says what to pass", () => {
    const s3 = { bucket: "b", accessKeyId: "k", secretAccessKey: "s", accountId: "a" };
    expect(() => createAssets({ ws: {} as never, bucket, s3 })).toThrow("createAssets: ws must be a Workspace (an object with fs.stat and fs.readFile)");
    expect(() => createAssets({ ws, bucket: {} as never, s3 })).toThrow(
      "createAssets: bucket must be an R2 bucket binding (an object with put), e.g. env.ASSETS",
    );
    expect(() => createAssets({ ws, bucket, s3, now: 5 as never })).toThrow("createAssets: now must be a function returning epoch milliseconds");
    expect(() => createAssets(undefined as never)).toThrow(TypeError);
  });
});

describe("resolveS3: values that would break signing or the host", () => {
  const keys = { accessKeyId: "k", secretAccessKey: SECRET };
  it("treats an empty region or service as absent", () => {
    expect(resolveS3({ bucket: "b", ...keys, accountId: "abc", region: "", service: "" }, {})).toMatchObject({ region: "auto", service: "s3" });
  });

  it("refuses an account id that is not a host name label, naming where to fix it and not echoing it", () => {
    const message = "createAssets: the account id is not a valid host name label. Check s3.accountId / CLOUDFLARE_ACCOUNT_ID (the 32-character hex id on the Cloudflare dashboard), or pass s3.endpoint.";
    expect(() => resolveS3({ bucket: "b", ...keys, accountId: "evil.example/x?" }, {})).toThrow(message);
    expect(() => resolveS3({ bucket: "b", ...keys }, { CLOUDFLARE_ACCOUNT_ID: "a b" })).toThrow(message);
    expect(resolveS3({ bucket: "b", ...keys, accountId: "0123456789abcdef0123456789abcdef" }, {}).endpoint).toBe(
      "https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com",
    );
  });
});
