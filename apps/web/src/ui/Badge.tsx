/** The badge variants of table rows: new, added, lost, removed, existing, adhoc, sku. */
export type BadgeVariant = "new" | "added" | "lost" | "removed" | "existing" | "adhoc" | "sku";

/** What a badge says: sku is SERVICE, adhoc is AD HOC, the others upper-cased. */
export function badgeLabel(variant: string): string {
  if (variant === "sku") return "SERVICE";
  if (variant === "adhoc") return "AD HOC";
  return variant.toUpperCase();
}

export function Badge({ variant }: { variant: string }) {
  return <span className={`badge badge--${variant}`}>{badgeLabel(variant)}</span>;
}
