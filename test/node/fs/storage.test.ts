import { describe } from "vitest";
import { defineStorageCases } from "../../shared/fs/index.js";
import { nodeHarness } from "./harness.js";

describe("workspace.fs durability and storage (node)", () => defineStorageCases(nodeHarness));
