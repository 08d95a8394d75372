import { describe } from "vitest";
import { definePathKeyCases } from "../../shared/fs/pathkeys.cases.js";
import { nodeHarness } from "./harness.js";

describe("workspace.fs path keys (node)", () => definePathKeyCases(nodeHarness));
