/**
 * The duration grammar of spec 04 §3.5 (`parseDuration`): seconds, unit
 * segments, and the four RangeError messages.
 */
import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/artifacts/index.js";

describe("parseDuration", () => {
  it.each([
    ["1", 1],
    ["3600", 3600],
    ["  90  ", 90],
    ["007", 7],
    ["30s", 30],
    ["15m", 900],
    ["2h", 7200],
    ["1d", 86_400],
    ["1D", 86_400],
    ["2h30m", 9000],
    ["2H30M", 9000],
    ["1d1h1m1s", 86_400 + 3600 + 60 + 1],
    ["1m1m", 120],
    ["0h5m", 300],
    ["\t45s\n", 45],
  ])("%j → %d seconds", (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it.each([
    ["", "empty duration"],
    ["   ", "empty duration"],
    ["0", "duration must be positive (got '0')"],
    ["000", "duration must be positive (got '000')"],
    ["0h0m", "duration must be positive (got '0h0m')"],
    ["5w", "unknown duration unit 'w' in '5w'"],
    ["10ms", "unknown duration unit 'ms' in '10ms'"],
    ["1h5W", "unknown duration unit 'W' in '1h5W'"],
    ["1.5h", "invalid duration '1.5h'"],
    ["1h 30m", "invalid duration '1h 30m'"],
    ["h", "invalid duration 'h'"],
    ["-5", "invalid duration '-5'"],
    ["+5", "invalid duration '+5'"],
    ["5 s", "invalid duration '5 s'"],
    ["1h30", "invalid duration '1h30'"],
    ["99999999999999999999", "invalid duration '99999999999999999999'"],
    ["9999999999999999d", "invalid duration '9999999999999999d'"],
  ])("%j → RangeError %j", (input, message) => {
    let error: unknown;
    try {
      parseDuration(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe(message);
  });

  it("a long input is quoted up to 64 characters, then its length (a 1,000,003-character input gives a short message)", () => {
    expect(() => parseDuration(`1h ${"x".repeat(1_000_000)}`)).toThrow(new RangeError(`invalid duration '1h ${"x".repeat(61)}…' (1000003 characters)`));
    expect(() => parseDuration(`1${"w".repeat(100)}`)).toThrow(
      new RangeError(`unknown duration unit '${"w".repeat(64)}…' (100 characters) in '1${"w".repeat(63)}…' (101 characters)`),
    );
    expect(() => parseDuration(`0s${"0s".repeat(40)}`)).toThrow(new RangeError(`duration must be positive (got '${"0s".repeat(32)}…' (82 characters))`));
  });

  it("a non-string is a TypeError that says what to pass", () => {
    expect(() => parseDuration(3600 as unknown as string)).toThrow(
      new TypeError('duration must be a string such as "3600", "15m" or "2h30m" (got number 3600)'),
    );
    expect(() => parseDuration(null as unknown as string)).toThrow(TypeError);
  });
});
