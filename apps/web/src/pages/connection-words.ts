/** The integration overview's words for a connection (pages/ConnectionGroup.tsx). */
import {
  type Connection,
  accountingPackageNames as packageNames,
  type ResponsibleUser,
} from "@varia/contracts";

/** What the provider calls what a connection reaches: QuickBooks companies, Xero organisations. */
export function sourceNoun(connection: Connection, count: number): string {
  const one = connection.integrationType === "Quickbooks" ? "company" : "organisation";
  if (count === 1) return one;
  return one === "company" ? "companies" : "organisations";
}

/** Configure's outcome in words: the sources added and removed, or that nothing changed. */
export function configureOutcome(before: Connection, after: Connection): string {
  const known = new Set(before.dataSources.map((s) => s.id));
  const still = new Set(after.dataSources.map((s) => s.id));
  const added = after.dataSources.filter((s) => !known.has(s.id));
  const removed = before.dataSources.filter((s) => !still.has(s.id));
  const parts: string[] = [];
  if (added.length) {
    parts.push(
      `Found ${added.length} new ${sourceNoun(after, added.length)}: ${added.map((s) => s.name).join(", ")}.`,
    );
  }
  if (removed.length) {
    parts.push(
      `No longer reached, so removed: ${removed.map((s) => s.name).join(", ")}. The invoice lines imported from ${removed.length === 1 ? "it" : "them"} stay.`,
    );
  }
  return parts.length
    ? parts.join(" ")
    : `No change: ${packageNames[after.integrationType]} reaches the same ${sourceNoun(after, 2)}.`;
}

/**
 * Who is told when an import fails, as the server decides it: the responsible users who are not
 * disabled, else the admins, and those only for a scheduled import.
 * docs/integration.md, "When an import from a data source fails"
 */
export function whoIsTold(responsible: ResponsibleUser[]): string {
  const adminsTold =
    "the organisation's admins are e-mailed when a scheduled import fails; an import started by hand is followed on screen and e-mails nobody";
  if (responsible.length === 0) return `Nobody is responsible: ${adminsTold}.`;
  const names = responsible
    .map((u) => (u.disabled ? `${u.name} (disabled: not e-mailed)` : u.name))
    .join(", ");
  if (responsible.every((u) => u.disabled)) return `Responsible: ${names}. As none is active, ${adminsTold}.`;
  return `E-mailed when an import fails: ${names}.`;
}
