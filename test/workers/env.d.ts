declare namespace Cloudflare {
  interface Env {
    TEST_DO: DurableObjectNamespace<import("./worker").TestDurableObject>;
  }
}
