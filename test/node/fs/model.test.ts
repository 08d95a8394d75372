import { describe } from "vitest";
import { defineModelCases } from "../../shared/fs/index.js";
import { nodeHarness } from "./harness.js";

describe("workspace.fs model (node)", () => defineModelCases(nodeHarness));
