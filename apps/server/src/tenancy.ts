/**
 * The tenant named by a host (docs/security.md, "Tenants"): its first label, unless that is `app` (no tenant).
 * A bare host (`localhost`) or an IP address names none. Port and case are ignored.
 */
export function tenantFromHost(host: string | undefined): string | null {
  if (!host) return null;
  const name = host
    .replace(/:\d+$/, "")
    .replace(/^\[.*\]$/, "")
    .toLowerCase();
  if (!name || /^[\d.]+$/.test(name) || name.includes(":")) return null;
  const labels = name.split(".");
  if (labels.length < 2) return null;
  const first = labels[0] ?? "";
  if (first === "app" || first === "www") return null;
  return /^[a-z0-9][a-z0-9-]{0,62}$/.test(first) ? first : null;
}
