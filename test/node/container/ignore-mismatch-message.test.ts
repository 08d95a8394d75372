/**
 * ContainerIgnoreMismatchError quotes each ignore list's JSON up to 1,024 characters and counts the rest: a daemon reporting a huge
 * (or non-list) ignore gives a short, readable error (before: the whole list, any length, went into the message).
 */
import { expect, it } from "vitest";
import { ContainerIgnoreMismatchError } from "../../../src/backends/container/index.js";

it("quotes a short list whole, a long one cut at 1,024 characters with the rest counted, never between a character's halves", () => {
  expect(new ContainerIgnoreMismatchError(["**/x"], []).message).toBe(
    `the container's daemon applies ignore [], not the configured ["**/x"]: its MOUNT_IGNORE was overridden (containerEnv) or the image's daemon is too old`,
  );
  const applied = Array.from({ length: 100_000 }, (_, i) => `**/dir${i}`);
  const whole = JSON.stringify(applied);
  const message = new ContainerIgnoreMismatchError(["**/x"], applied).message;
  expect(message).toBe(
    `the container's daemon applies ignore ${whole.slice(0, 1024)}… [${whole.length - 1024} more characters], not the configured ["**/x"]: its MOUNT_IGNORE was overridden (containerEnv) or the image's daemon is too old`,
  );
  // A pair split at the cut is left whole out: 1,023 characters then the marker.
  const emoji = `["${"a".repeat(1021)}😀😀"]`;
  const cut = new ContainerIgnoreMismatchError(["**/x"], JSON.parse(emoji)).message;
  expect(cut.startsWith(`the container's daemon applies ignore ${emoji.slice(0, 1023)}… [${emoji.length - 1023} more characters]`)).toBe(true);
  // A daemon's non-list answer is quoted as JSON too.
  expect(new ContainerIgnoreMismatchError([], { evil: true }).message.startsWith(`the container's daemon applies ignore {"evil":true}, not the configured []`)).toBe(true);
});
