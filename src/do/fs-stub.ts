/**
 * `WorkspaceFilesystemStub`: `workspace.fs` as an RPC target (spec 01 §5.3).
 * Its filesystem methods are not written out here: they are installed on the
 * prototype from the one method list, {@link FS_METHODS}, each forwarding to
 * `workspace.fs` inside an observer span (spec 01 §5.4).
 *
 * @module
 */
import { isWorkspaceFsError } from "../fs/errors.js";
import { FS_METHOD_NAMES, FS_METHODS } from "../fs/methods.js";
import type { ReadFileOptions, WorkspaceFilesystem, WorkspaceStatResult } from "../fs/types.js";
import type { WorkspaceAttributes, WorkspaceObserver } from "../observer.js";
import { answerRemote } from "./remote-error.js";
import { checkFsRpcResult } from "./rpc-size.js";
import { withSpan } from "./spans.js";
import { liveHost, SubStub } from "./sub-stub.js";

/**
 * `workspace.fs`'s methods as the stub offers them: the same arguments,
 * results and errors (spec 01 §3), with `readFile`'s overloads as one
 * signature, since a caller through RPC sees one function.
 */
export interface FilesystemStubMethods extends Omit<WorkspaceFilesystem, "readFile"> {
  /**
   * `fs.readFile` (spec 01 §3.3): without an encoding a `ReadableStream` of
   * the bytes (one stream across RPC, ranged with `byteOffset`/`byteLength`,
   * in bytes); with `"utf8"` (or `{ encoding: "utf8" }`) a string.
   * @throws WorkspaceFsError as `fs.readFile`: `EINVAL`, `ENOENT`, `ELOOP`, `EISDIR`, `EIO`.
   */
  readFile(path: string, options?: "utf8" | ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
}

/** The helpers only the stub offers, beside the filesystem's methods (spec 01 §5.3). */
export interface FilesystemStubHelpers {
  /**
   * `true` when `statOrNull(path)` is not `null` (links followed; a dangling
   * link is `false`).
   * @throws WorkspaceFsError as `fs.stat`, except `ENOENT`: `EINVAL`, `ELOOP`.
   */
  exists(path: string): Promise<boolean>;
  /**
   * `fs.stat(path)`, or `null` where it would reject with `ENOENT`.
   * @throws WorkspaceFsError as `fs.stat`, except `ENOENT`: `EINVAL`, `ELOOP`.
   */
  statOrNull(path: string): Promise<WorkspaceStatResult | null>;
  /**
   * `fs.lstat(path)` (the link itself), or `null` where it would reject with `ENOENT`.
   * @throws WorkspaceFsError as `fs.lstat`, except `ENOENT`: `EINVAL`, `ELOOP`.
   */
  lstatOrNull(path: string): Promise<WorkspaceStatResult | null>;
}

const HELPERS: { readonly [K in keyof FilesystemStubHelpers]: true } = { exists: true, statOrNull: true, lstatOrNull: true };

/** The names of the {@link FilesystemStubHelpers} (the compiler keeps it complete). */
export const STUB_HELPER_NAMES = Object.keys(HELPERS) as readonly (keyof FilesystemStubHelpers)[];

/** {@link FS_METHODS} as a forwarder sees it: arguments and results unknown. */
interface AnyMethodFacts {
  attributes(...args: unknown[]): WorkspaceAttributes;
  resultAttributes?(result: unknown): WorkspaceAttributes;
}

async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (isWorkspaceFsError(error, "ENOENT")) return null;
    throw error;
  }
}

/**
 * The filesystem methods of {@link WorkspaceFilesystemStub}: declared here,
 * installed on the class's prototype (from `FS_METHODS`) by its static block.
 */
export interface WorkspaceFilesystemStub extends FilesystemStubMethods {}

/**
 * `workspace.fs` over RPC: every filesystem method with the same arguments,
 * results and error codes ({@link FilesystemStubMethods}), plus `exists`,
 * `statOrNull` and `lstatOrNull`. Each call runs in an observer span
 * `workspace.fs.<method>` (spec 01 §5.4). A failure rejects with the
 * filesystem's error, carrying its `code`, `syscall` and `path` as data
 * (see `remote-error.ts`). A result too large to cross RPC (estimated past
 * 30 MiB; workerd's limit is 32 MiB) rejects with `E2BIG` instead, saying to
 * page (`limit`/`offset`) or to stream (`readFile` without an encoding).
 */
export class WorkspaceFilesystemStub extends SubStub implements FilesystemStubHelpers {
  static {
    for (const method of FS_METHOD_NAMES) {
      const facts: AnyMethodFacts = FS_METHODS[method];
      Object.defineProperty(this.prototype, method, {
        value(this: WorkspaceFilesystemStub, ...args: unknown[]) {
          const path = method === "grep" ? args[1] : args[0];
          return this.#call(
            method,
            facts.attributes(...args),
            async (fs) => checkFsRpcResult(method, path, await Reflect.apply(fs[method], fs, args)),
            facts.resultAttributes,
          );
        },
        writable: true,
        configurable: true,
      });
    }
  }

  /** {@inheritDoc FilesystemStubHelpers.exists} */
  exists(path: string): Promise<boolean> {
    // A nested `workspace.fs.statOrNull` span inside `workspace.fs.exists` (spec 04 §4).
    return this.#call(
      "exists",
      { "workspace.fs.path": path },
      async (fs, observer) => (await withSpan(observer, "workspace.fs.statOrNull", { "workspace.fs.path": path }, () => orNull(() => fs.stat(path)))) !== null,
    );
  }

  /** {@inheritDoc FilesystemStubHelpers.statOrNull} */
  statOrNull(path: string): Promise<WorkspaceStatResult | null> {
    return this.#call("statOrNull", { "workspace.fs.path": path }, (fs) => orNull(() => fs.stat(path)));
  }

  /** {@inheritDoc FilesystemStubHelpers.lstatOrNull} */
  lstatOrNull(path: string): Promise<WorkspaceStatResult | null> {
    return this.#call("lstatOrNull", { "workspace.fs.path": path }, (fs) => orNull(() => fs.lstat(path)));
  }

  /** One call: refused once disposed, run in span `workspace.fs.<method>`, failures prepared for RPC. */
  #call<T>(
    method: string,
    attributes: WorkspaceAttributes,
    run: (fs: WorkspaceFilesystem, observer: WorkspaceObserver) => Promise<T>,
    resultAttributes?: (result: T) => WorkspaceAttributes,
  ): Promise<T> {
    return answerRemote(() => {
      const host = liveHost(this, "WorkspaceFilesystemStub");
      return withSpan(
        host.observer,
        `workspace.fs.${method}`,
        attributes,
        () => run(host.fs, host.observer),
        resultAttributes
          ? (result, span) => {
              for (const [key, value] of Object.entries(resultAttributes(result))) if (value !== undefined) span.setAttribute(key, value);
            }
          : undefined,
      );
    });
  }
}
