import type { Connection } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { configureOutcome, whoIsTold } from "./connection-words";

const connection = (type: Connection["integrationType"], names: string[]): Connection => ({
  integrationGuid: "c1",
  integrationType: type,
  connectedAt: "2026-11-24T00:00:00Z",
  dataSources: names.map((name) => ({ id: `id-${name}`, name, lastJobGuid: null })),
  responsibleUserIDs: [],
});

describe("Look for new organisations, said", () => {
  it("names what was found and what went, in the provider's word", () => {
    expect(configureOutcome(connection("Xero", ["A"]), connection("Xero", ["A", "B"]))).toBe(
      "Found 1 new organisation: B.",
    );
    expect(configureOutcome(connection("Quickbooks", []), connection("Quickbooks", ["A", "B"]))).toBe(
      "Found 2 new companies: A, B.",
    );
    expect(configureOutcome(connection("Xero", ["A", "B", "C"]), connection("Xero", ["A", "D"]))).toBe(
      "Found 1 new organisation: D. No longer reached, so removed: B, C. The invoice lines imported from them stay.",
    );
  });

  it("says so when nothing changed", () => {
    expect(configureOutcome(connection("Xero", ["A"]), connection("Xero", ["A"]))).toBe(
      "No change: Xero reaches the same organisations.",
    );
  });
});

describe("who is told when an import fails", () => {
  const admins =
    "the organisation's admins are e-mailed when a scheduled import fails; an import started by hand is followed on screen and e-mails nobody";
  const alice = { userID: "a", name: "Alice", email: "a@example.com", disabled: false };
  const bob = { userID: "b", name: "Bob", email: "b@example.com", disabled: true };

  it("names the responsible users, a disabled one not e-mailed", () => {
    expect(whoIsTold([alice, bob])).toBe(
      "E-mailed when an import fails: Alice, Bob (disabled: not e-mailed).",
    );
  });

  it("says the admins are told of scheduled imports when nobody, or nobody active, is responsible", () => {
    expect(whoIsTold([])).toBe(`Nobody is responsible: ${admins}.`);
    expect(whoIsTold([bob])).toBe(`Responsible: Bob (disabled: not e-mailed). As none is active, ${admins}.`);
  });
});
