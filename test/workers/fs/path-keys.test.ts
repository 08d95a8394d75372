import { describe } from "vitest";
import { definePathKeyCases } from "../../shared/fs/pathkeys.cases.js";
import { workersHarness } from "./harness.js";

describe("workspace.fs path keys (workers)", () => definePathKeyCases(workersHarness));
