/**
 * The module-private key under which `withWorkspace` keeps the Workspace on a
 * Durable Object instance (spec 01 §5.1). A symbol is invisible to RPC and to
 * string keys; `getWorkspace(this)` reads it to take the local path.
 *
 * @module
 */
export const WORKSPACE: unique symbol = Symbol("agent-computer.workspace");

/**
 * The key under which a remote `git.cli` call carries an already-aborted `signal` (issue 20, twenty-seventh attack
 * run): an `AbortSignal` does not cross Workers RPC (workerd's `DataCloneError`), so the client sends its reason's
 * message here instead and `WorkspaceGitStub.cli` runs the command with a signal aborted for that reason.
 */
export const GIT_CLI_ABORTED = "agentComputerAbortedSignal";
