/**
 * Observer spans (spec 01 §5.4): a hook around every stub-boundary call.
 *
 * @module
 */

export type WorkspaceAttributeValue = string | number | boolean;
export type WorkspaceAttributes = Record<string, WorkspaceAttributeValue | undefined>;

/** A span in progress: attributes may be added while it runs. */
export interface WorkspaceSpan {
  setAttribute(key: string, value: WorkspaceAttributeValue): void;
}

/** Receives one span per observed call; must call `run` and return its result. */
export interface WorkspaceObserver {
  span<T>(name: string, attributes: WorkspaceAttributes, run: (span: WorkspaceSpan) => T): T;
}

const noopSpan: WorkspaceSpan = { setAttribute() {} };

/** The default observer: runs the callback and records nothing. */
export const noopObserver: WorkspaceObserver = {
  span: (_name, _attributes, run) => run(noopSpan),
};
