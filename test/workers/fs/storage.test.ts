import { describe } from "vitest";
import { defineStorageCases } from "../../shared/fs/index.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs durability and storage (workers)", () => defineStorageCases(workersHarness));
