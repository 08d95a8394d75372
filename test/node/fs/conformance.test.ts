import { describe } from "vitest";
import { defineFsConformance } from "../../shared/fs/index.js";
import { nodeHarness } from "./harness.js";

describe("workspace.fs conformance (node)", () => defineFsConformance(nodeHarness));
