import { describe, expect, it } from "vitest";
import { jobStartedByLabel } from "./imports";

describe("who started a job, as the Integrations page and `varia import list` write it", () => {
  it("is the user who started it, whatever the job's kind", () => {
    expect(jobStartedByLabel({ kind: "Import", startedBy: "Ada Analyst" })).toBe("Ada Analyst");
    expect(jobStartedByLabel({ kind: "Connector", startedBy: "Ada Analyst" })).toBe("Ada Analyst");
  });

  it("is the schedule for an import from a data source no one started", () => {
    expect(jobStartedByLabel({ kind: "Connector", startedBy: null })).toBe("Schedule");
  });

  it("is Varia for a job of the server's own (the demo data, figures rebuilt), never 'None'", () => {
    for (const kind of ["Import", "Restore", "RebuildCube"] as const)
      expect(jobStartedByLabel({ kind, startedBy: null })).toBe("Varia");
  });
});
