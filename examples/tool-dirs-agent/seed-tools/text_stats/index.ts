import { readdir, readFile } from "node:fs/promises";

type Content = { type: "text"; text: string };
type OnUpdate = (partial: { content: Content[] }) => void;

export async function execute(
  _toolCallId: string,
  params: { dir: string },
  _signal: AbortSignal | undefined,
  onUpdate?: OnUpdate,
): Promise<{ content: Content[]; isError?: boolean }> {
  const key = process.env.STATS_SIGNING_KEY;
  if (!key) return { content: [{ type: "text", text: "STATS_SIGNING_KEY is not set: add it as a Worker secret" }], isError: true };
  const names = (await readdir(params.dir)).sort();
  let lines = 0;
  let words = 0;
  for (const [i, name] of names.entries()) {
    const text = await readFile(`${params.dir}/${name}`, "utf8");
    lines += text.split("\n").filter((line) => line !== "").length;
    words += text.split(/\s+/).filter(Boolean).length;
    onUpdate?.({ content: [{ type: "text", text: `counted ${name} (${i + 1} of ${names.length})` }] });
  }
  const summary = `${names.length} files, ${lines} lines, ${words} words in ${params.dir}`;
  return { content: [{ type: "text", text: summary }, { type: "text", text: `signature: ${await sign(key, summary)}` }] };
}

async function sign(key: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const hmac = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode(text)));
  return Array.from(mac.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}
