/**
 * Inside workerd: the loopback git server's URL arrives through
 * inject("gitServer"), and fetch from a Durable Object reaches 127.0.0.1.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gitServer, serverGit } from "../../shared/git-remote.js";

describe("loopback git server from workerd", () => {
  it("a Durable Object fetches the fixture's refs over smart HTTP", async () => {
    const { baseUrl, fixture } = gitServer();
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const text = await runInDurableObject(stub, async () => {
      const res = await fetch(`${baseUrl}/git/fixture.git/info/refs?service=git-upload-pack`);
      return `${res.status} ${res.headers.get("content-type")}\n${new TextDecoder().decode(await res.arrayBuffer())}`;
    });
    expect(text.split("\n")[0]).toBe("200 application/x-git-upload-pack-advertisement");
    expect(text).toContain(`${fixture.branches.main} refs/heads/main`);
    expect((await serverGit("fixture", ["rev-parse", "feature"])).stdout.trim()).toBe(fixture.branches.feature);
  });
});
