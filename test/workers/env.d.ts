declare namespace Cloudflare {
  interface Env {
    TEST_DO: DurableObjectNamespace<import("./worker").TestDurableObject>;
    CLIENT_AGENT: DurableObjectNamespace<import("./client/agent").ClientTestAgent>;
    LOADER: WorkerLoader;
  }
}
