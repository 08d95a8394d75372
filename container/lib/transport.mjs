// @ts-check
/**
 * A capnweb {@link import("capnweb").RpcTransport} over a `ws` WebSocket (either end). Messages are
 * capnweb's JSON strings, sent as text frames.
 */
export class WsTransport {
  /** @param {import("ws").WebSocket} ws an open socket */
  constructor(ws) {
    this.ws = ws;
    /** @type {string[]} */
    this.queue = [];
    /** @type {((m: string) => void) | undefined} */
    this.resolve = undefined;
    /** @type {((e: unknown) => void) | undefined} */
    this.reject = undefined;
    /** @type {unknown} */
    this.error = undefined;
    ws.on("message", (data, isBinary) => {
      if (this.error !== undefined) return;
      if (isBinary) return this.fail(new TypeError("computerd: binary WebSocket frames are not part of the protocol"));
      const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : (data instanceof ArrayBuffer ? Buffer.from(data) : data).toString("utf8");
      if (this.resolve) {
        const r = this.resolve;
        this.resolve = this.reject = undefined;
        r(text);
      } else this.queue.push(text);
    });
    ws.on("close", (code, reason) => this.fail(new Error(`Peer closed WebSocket: ${code} ${reason.toString()}`)));
    ws.on("error", (err) => this.fail(err));
  }

  /** @param {string} message */
  send(message) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(message);
  }

  /** @returns {Promise<string>} */
  receive() {
    const next = this.queue.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.error !== undefined) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** @param {unknown} reason */
  abort(reason) {
    const text = reason instanceof Error ? reason.message : String(reason);
    let bytes = Buffer.from(text);
    if (bytes.length > 123) bytes = bytes.subarray(0, 120);
    try {
      this.ws.close(3000, bytes.toString("utf8").replace(/\uFFFD+$/, ""));
    } catch {
      this.ws.terminate();
    }
    if (this.error === undefined) this.error = reason;
  }

  /** @param {unknown} err */
  fail(err) {
    if (this.error !== undefined) return;
    this.error = err;
    if (this.reject) {
      const r = this.reject;
      this.resolve = this.reject = undefined;
      r(err);
    }
  }
}
