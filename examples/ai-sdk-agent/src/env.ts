/** Bindings and secrets of the ai-sdk-agent Worker. */
export interface Env {
  AGENT: DurableObjectNamespace<import("./agent.js").Agent>;
  LOADER: WorkerLoader;
  /** Real model via OpenAI (`@ai-sdk/openai`). */
  OPENAI_API_KEY?: string;
  /** Real model via Anthropic (`@ai-sdk/anthropic`). */
  ANTHROPIC_API_KEY?: string;
  /** Real model via the Vercel AI Gateway (`provider/model` ids). */
  AI_GATEWAY_API_KEY?: string;
  /** Model id for the chosen provider; each provider has a default. */
  AGENT_MODEL?: string;
}
