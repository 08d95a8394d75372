/** Helpers shared by the client tests. */
import { env } from "cloudflare:test";

/** A stub for a fresh `ClientTestAgent` Durable Object. */
export function freshAgent() {
  return env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
}

/** Byte `i` of the deterministic test pattern (distinct 512 KiB chunks). */
export function patternByte(i: number): number {
  return (i * 31 + (i >>> 19) * 7) & 0xff;
}

/** A byte stream of `total` pattern bytes in `chunk`-sized pieces, generated as pulled. */
export function patternStream(total: number, chunk = 1 << 20): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= total) {
        controller.close();
        return;
      }
      const size = Math.min(chunk, total - offset);
      const bytes = new Uint8Array(size);
      for (let j = 0; j < size; j++) bytes[j] = patternByte(offset + j);
      offset += size;
      controller.enqueue(bytes);
    },
  });
}

/**
 * Reads `stream` to the end, checking every byte against the pattern from
 * `start`; returns the number of bytes and the index of the first mismatch (-1).
 */
export async function checkPattern(stream: ReadableStream<Uint8Array>, start = 0): Promise<{ bytes: number; firstMismatch: number }> {
  let bytes = 0;
  let firstMismatch = -1;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    if (firstMismatch < 0) {
      for (let j = 0; j < chunk.length; j++) {
        if (chunk[j] !== patternByte(start + bytes + j)) {
          firstMismatch = bytes + j;
          break;
        }
      }
    }
    bytes += chunk.length;
  }
  return { bytes, firstMismatch };
}

/** Drains a stream into one string. */
export async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; path?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; path?: string };
  }
  throw new Error("expected the promise to reject");
}
