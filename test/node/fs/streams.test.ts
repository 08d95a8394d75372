import { describe } from "vitest";
import { defineStreamCases } from "../../shared/fs/index.js";
import { nodeHarness } from "./harness.js";

describe("workspace.fs streams (node)", () => defineStreamCases(nodeHarness));
