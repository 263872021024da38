/**
 * A client's code under its name, so that two clients of one name can be told apart; nothing when
 * the name is the code, as it is for a client no file has named, whom a QuickBooks customer would
 * otherwise read twice on every row (docs/import.md, "Clients, items and salespeople").
 */
export function ClientCode({
  name,
  code,
  className = "grid-client__code",
}: {
  name: string;
  code: string;
  className?: string;
}) {
  return name === code ? null : <span className={className}>{code}</span>;
}
