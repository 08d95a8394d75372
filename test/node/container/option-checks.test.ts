/**
 * The shared option checks of ContainerBackend and LegacyContainerBackend (containerSettings in
 * src/backends/container/connector.ts): containerPort must be a TCP port (1–65535) and every
 * containerEnv name must be a usable environment variable name (non-empty, no "=", no NUL).
 */
import { describe, expect, it } from "vitest";
import { ContainerBackend } from "../../../src/backends/container/index.js";
import { LegacyContainerBackend } from "../../../src/backends/container-legacy/index.js";

const base = { container: () => ({}) as never, workspace: { binding: "AGENT", id: "abc" } };
const classes = [
  ["ContainerBackend", (o: object) => new ContainerBackend({ ...base, ...o } as never)],
  ["LegacyContainerBackend", (o: object) => new LegacyContainerBackend({ ...base, ...o } as never)],
] as const;

function message(make: () => unknown): string {
  try {
    make();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return "(constructed)";
}

for (const [label, make] of classes) {
  describe(`${label}: containerPort and containerEnv checks`, () => {
    it("containerPort 65536 and 70000 → TypeError naming the range", () => {
      for (const port of [65_536, 70_000]) {
        expect(message(() => make({ containerPort: port }))).toBe(
          `TypeError: new ${label}({ containerPort }): containerPort must be a TCP port, 1 to 65535, got ${port}`,
        );
      }
    });

    it("containerPort 1 and 65535 are accepted; 0 keeps the positive-integer message", () => {
      expect(message(() => make({ containerPort: 1 }))).toBe("(constructed)");
      expect(message(() => make({ containerPort: 65_535 }))).toBe("(constructed)");
      expect(message(() => make({ containerPort: 0 }))).toBe(`TypeError: new ${label}({ containerPort }): containerPort must be a positive integer, got 0`);
    });

    it('containerEnv names "A=B", "" and "A\\0B" → TypeError naming the key', () => {
      for (const key of ["A=B", "", "A\0B"]) {
        expect(message(() => make({ containerEnv: { [key]: "x" } }))).toBe(
          `TypeError: new ${label}({ containerEnv }): ${JSON.stringify(key)} is not an environment variable name; a name must be non-empty and hold no "=" or NUL (e.g. "LOG_LEVEL")`,
        );
      }
    });

    it("ordinary names (LOG_LEVEL, lower-case, dotted) are accepted", () => {
      expect(message(() => make({ containerEnv: { LOG_LEVEL: "debug", http_proxy: "", "a.b": "1" } }))).toBe("(constructed)");
    });
  });
}
