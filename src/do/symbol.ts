/**
 * The module-private key under which `withWorkspace` keeps the Workspace on a
 * Durable Object instance (spec 01 §5.1). A symbol is invisible to RPC and to
 * string keys; `getWorkspace(this)` reads it to take the local path.
 *
 * @module
 */
export const WORKSPACE: unique symbol = Symbol("agent-computer.workspace");
