import { describe } from "vitest";
import { defineFsConformance } from "../../shared/fs/index.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs conformance (workers)", () => defineFsConformance(workersHarness));
