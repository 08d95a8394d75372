/** Bindings, variables and secrets of the container-agent Worker. */
export interface Env {
  AGENT: DurableObjectNamespace<import("./agent.js").Agent>;
  LOADER: WorkerLoader;
  /**
   * Local development without Docker: the local container host's URL
   * (`http://127.0.0.1:8788`). Used only when the Durable Object has no
   * `ctx.container` (`[dev] enable_containers = false`); unset in production.
   */
  COMPUTER_CONTAINER_HOST?: string;
  /** Real model via OpenAI (`@ai-sdk/openai`). */
  OPENAI_API_KEY?: string;
  /** Real model via Anthropic (`@ai-sdk/anthropic`). */
  ANTHROPIC_API_KEY?: string;
  /** Model id for the chosen provider; each provider has a default. */
  AGENT_MODEL?: string;
}
