import { describe } from "vitest";
import { defineModelCases } from "../../shared/fs/index.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs model (workers)", () => defineModelCases(workersHarness));
