import { describe } from "vitest";
import { defineStreamCases } from "../../shared/fs/index.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs streams (workers)", () => defineStreamCases(workersHarness));
