/**
 * probe18 (fresh-user probe): `LegacyContainerBackend` option checks (docs/container.md, "The legacy
 * model"): `ignore`, `name`, `instance` and `launch` are refused with a TypeError that says so;
 * the id defaults to "container-shell"; bad input is a TypeError, not a crash.
 */
import { describe, expect, it } from "vitest";
import { LegacyContainerBackend } from "../../../src/backends/container-legacy/index.js";

const base = { container: () => ({}) as never, workspace: { binding: "AGENT", id: "abc" } };

describe("probe18 LegacyContainerBackend options", () => {
  it("the docs' construction works; id defaults to container-shell", () => {
    const b = new LegacyContainerBackend(base as never);
    expect(b.id).toBe("container-shell");
  });

  for (const key of ["ignore", "name", "instance", "launch"]) {
    it(`${key} is refused with a TypeError that names it and says why`, () => {
      expect(() => new LegacyContainerBackend({ ...base, [key]: key === "ignore" ? ["x"] : "x" } as never)).toThrow(
        new RegExp(`new LegacyContainerBackend\\(\\{ ${key} \\}\\): not an option of LegacyContainerBackend: .+`),
      );
    });
  }

  it("missing options / container / workspace → TypeError", () => {
    expect(() => new LegacyContainerBackend(undefined as never)).toThrow(TypeError);
    expect(() => new LegacyContainerBackend({ workspace: base.workspace } as never)).toThrow(/container must be a function/);
    expect(() => new LegacyContainerBackend({ container: base.container } as never)).toThrow(TypeError);
  });

  it("bad values: id '', connectTimeoutMs -1 / NaN / '5', containerPort 0 / 1.5, egress 'bogus', egressHost '../x' → TypeError", () => {
    for (const extra of [
      { id: "" },
      { id: 7 },
      { connectTimeoutMs: -1 },
      { connectTimeoutMs: Number.NaN },
      { connectTimeoutMs: "5" },
      { containerPort: 0 },
      { containerPort: 1.5 },
      { heartbeatIntervalMs: -1 },
      { restartAttempts: -1 },
      { egress: "bogus" },
      { egressHost: "../x" },
      { containerEnv: { PORT: 1 } },
    ]) {
      expect(() => new LegacyContainerBackend({ ...base, ...extra } as never), JSON.stringify(extra)).toThrow(TypeError);
    }
  });
});

describe("probe18 LegacyContainerBackend options: findings", () => {
  /*
   * Finding (low). `containerPort: 70000` (not a TCP port; also 65536) is accepted at construction
   * (the check is "positive integer"); the failure comes only at connect time, as a health-probe
   * failure far from the cause. docs/container.md: "errors say what to do" / bad input is refused
   * at once like `containerPort: 1.5`. Shared with ContainerBackend (same settings code).
   * Fixed in 23fa0cd: now a regression check.
   */
  it("containerPort above 65535 is refused with a TypeError", () => {
    expect(() => new LegacyContainerBackend({ ...base, containerPort: 70_000 } as never)).toThrow(/containerPort/);
  });

  /*
   * Finding (low). `containerEnv` keys are not checked: `{ "A=B": "x" }` and `{ "": "x" }` are
   * accepted and sent to the container launch as environment variable names, which no process
   * can see as named. Values are checked (strings only), keys are not.
   * Fixed in 23fa0cd: now a regression check.
   */
  it("containerEnv with an invalid variable name ('A=B', '') is refused", () => {
    expect(() => new LegacyContainerBackend({ ...base, containerEnv: { "A=B": "x" } } as never)).toThrow(/containerEnv/);
    expect(() => new LegacyContainerBackend({ ...base, containerEnv: { "": "x" } } as never)).toThrow(/containerEnv/);
  });
});
