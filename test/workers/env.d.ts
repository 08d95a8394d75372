declare namespace Cloudflare {
  interface Env {
    ASSETS_BUCKET: R2Bucket;
    MOUNT_BUCKET: R2Bucket;
    TEST_DO: DurableObjectNamespace<import("./worker").TestDurableObject>;
    CLIENT_AGENT: DurableObjectNamespace<import("./client/agent").ClientTestAgent>;
    CLIENT_EXEC_AGENT: DurableObjectNamespace<import("./client/agent").ClientExecAgent>;
    CLIENT_ASSETS_AGENT: DurableObjectNamespace<import("./tools-publish/agent").ClientAssetsAgent>;
    MOUNT_AGENT: DurableObjectNamespace<import("./mounts/agent").MountAgent>;
    SHELL_AGENT: DurableObjectNamespace<import("./shell/agent").ShellAgent>;
    GIT_AGENT: DurableObjectNamespace<import("./git/agent").GitAgent>;
    DURABLE_AGENT: DurableObjectNamespace<import("./durable/agent").DurableAgent>;
    LEGACY_AGENT: DurableObjectNamespace<import("./container-legacy/agent").LegacyWorkspaceAgent>;
    LEGACY_SANDBOX: DurableObjectNamespace<import("./container-legacy/agent").LegacySandbox>;
    LOADER: WorkerLoader;
  }
}
