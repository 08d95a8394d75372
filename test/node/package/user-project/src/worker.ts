/** A Worker that imports every entry point of the packed package and lists each one's exports. */
import * as root from "agent-computer";
import * as assets from "agent-computer/assets";
import * as tools from "agent-computer/tools";
import * as aiSdk from "agent-computer/tools/ai-sdk";
import * as piAi from "agent-computer/tools/pi-ai";
import * as tanstackAi from "agent-computer/tools/tanstack-ai";
import * as workerJavaScript from "agent-computer/backends/worker-javascript";
import * as modulesTools from "agent-computer/modules/tools";

const entries: Record<string, object> = {
  "agent-computer": root,
  "agent-computer/assets": assets,
  "agent-computer/tools": tools,
  "agent-computer/tools/ai-sdk": aiSdk,
  "agent-computer/tools/pi-ai": piAi,
  "agent-computer/tools/tanstack-ai": tanstackAi,
  "agent-computer/backends/worker-javascript": workerJavaScript,
  "agent-computer/modules/tools": modulesTools,
};

export default {
  async fetch(): Promise<Response> {
    const exports: Record<string, string[]> = {};
    for (const [name, mod] of Object.entries(entries)) exports[name] = Object.keys(mod).sort();
    return Response.json({ userAgent: navigator.userAgent, exports });
  },
} satisfies ExportedHandler;
