/** A Worker that imports every entry point of the packed package and lists each one's exports. */
import * as root from "agent-computer";
import * as assets from "agent-computer/assets";
import * as tools from "agent-computer/tools";
import * as toolsCore from "agent-computer/tools/core";
import * as toolDirs from "agent-computer/tool-dirs";
import * as aiSdk from "agent-computer/tools/ai-sdk";
import * as piAi from "agent-computer/tools/pi-ai";
import * as tanstackAi from "agent-computer/tools/tanstack-ai";
import * as workerJavaScript from "agent-computer/backends/worker-javascript";
import * as modulesTools from "agent-computer/modules/tools";
import * as workerShell from "agent-computer/backends/worker-shell";
import * as shell_core from "agent-computer/shell/core";
import * as shell_curl from "agent-computer/shell/curl";
import * as shell_html_to_markdown from "agent-computer/shell/html-to-markdown";
import * as shell_python from "agent-computer/shell/python";
import * as shell_sqlite from "agent-computer/shell/sqlite";
import * as shell_js_exec from "agent-computer/shell/js-exec";
import * as shell_yq from "agent-computer/shell/yq";
import * as shell_file from "agent-computer/shell/file";
import * as shell_xan from "agent-computer/shell/xan";
import * as shell_jq from "agent-computer/shell/jq";
import * as git from "agent-computer/git";
import * as modulesGit from "agent-computer/modules/git";
import * as modulesContainer from "agent-computer/modules/container";
import * as backendsContainer from "agent-computer/backends/container";
import * as artifacts from "agent-computer/artifacts";
import * as modulesArtifacts from "agent-computer/modules/artifacts";
import * as modulesAssets from "agent-computer/modules/assets";
import * as observeCloudflare from "agent-computer/observe/cloudflare";
import * as observeOpenTelemetry from "agent-computer/observe/opentelemetry";
import * as backendsContainerLegacy from "agent-computer/backends/container-legacy";
import * as vite from "agent-computer/vite";

const entries: Record<string, object> = {
  "agent-computer": root,
  "agent-computer/assets": assets,
  "agent-computer/git": git,
  "agent-computer/tools": tools,
  "agent-computer/tools/core": toolsCore,
  "agent-computer/tool-dirs": toolDirs,
  "agent-computer/tools/ai-sdk": aiSdk,
  "agent-computer/tools/pi-ai": piAi,
  "agent-computer/tools/tanstack-ai": tanstackAi,
  "agent-computer/backends/worker-javascript": workerJavaScript,
  "agent-computer/modules/tools": modulesTools,
  "agent-computer/modules/git": modulesGit,
  "agent-computer/modules/container": modulesContainer,
  "agent-computer/backends/container": backendsContainer,
  "agent-computer/artifacts": artifacts,
  "agent-computer/modules/artifacts": modulesArtifacts,
  "agent-computer/modules/assets": modulesAssets,
  "agent-computer/observe/cloudflare": observeCloudflare,
  "agent-computer/observe/opentelemetry": observeOpenTelemetry,
  "agent-computer/backends/container-legacy": backendsContainerLegacy,
  "agent-computer/vite": vite,
  "agent-computer/backends/worker-shell": workerShell,
  "agent-computer/shell/core": shell_core,
  "agent-computer/shell/curl": shell_curl,
  "agent-computer/shell/html-to-markdown": shell_html_to_markdown,
  "agent-computer/shell/python": shell_python,
  "agent-computer/shell/sqlite": shell_sqlite,
  "agent-computer/shell/js-exec": shell_js_exec,
  "agent-computer/shell/yq": shell_yq,
  "agent-computer/shell/file": shell_file,
  "agent-computer/shell/xan": shell_xan,
  "agent-computer/shell/jq": shell_jq,
};

export default {
  async fetch(): Promise<Response> {
    const exports: Record<string, string[]> = {};
    for (const [name, mod] of Object.entries(entries)) exports[name] = Object.keys(mod).sort();
    return Response.json({ userAgent: navigator.userAgent, exports });
  },
} satisfies ExportedHandler;
