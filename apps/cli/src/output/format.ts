/** How the CLI prints numbers a person reads. */

const counts = new Intl.NumberFormat("en-US");

/** A count with thousands separators: 1,234,567. */
export function formatCount(n: number): string {
  return counts.format(n);
}

/**
 * A moment of the API (ISO 8601, UTC) as a terminal and a log both read it: `2026-11-24 17:41 UTC`,
 * with seconds where several may share a minute.
 */
export function formatUtc(iso: string, options: { seconds?: boolean } = {}): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, options.seconds ? 19 : 16)} UTC`;
}

/** A number with exactly `decimals` decimals and thousands separators: 1.6 → `1.60` with 2. */
export function formatFixed(n: number, decimals: number): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A size as a person reads it: 512 bytes, 12.3 KiB, 4.5 MiB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** An exact byte count with its size: `5,678,901 bytes, 5.4 MiB`. */
export function formatByteCount(bytes: number): string {
  const exact = `${formatCount(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
  return bytes < 1024 ? exact : `${exact}, ${formatSize(bytes)}`;
}

/** Progress of a transfer: `12.3 MiB of 100.0 MiB (12%)`, or the bytes alone when the size is unknown. */
export function formatTransfer(bytes: number, total: number | undefined): string {
  if (!total) return formatSize(bytes);
  return `${formatSize(bytes)} of ${formatSize(total)} (${Math.floor((bytes / total) * 100)}%)`;
}

/**
 * Money in the organisation's currency (the profile's `subscriptionCurrencyCode`), with its narrow
 * symbol and two decimals, since ops compare figures to the cent: `$1,234.56`, `-€80.00`. An unknown
 * code prints as the code before the amount.
 */
export function moneyFormatter(currency: string | undefined): (major: number) => string {
  const code = (currency || "USD").toUpperCase();
  try {
    const format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    return (major) => format.format(major);
  } catch {
    const plain = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (major) => `${code} ${plain.format(major)}`;
  }
}

/** A fraction as a percentage with two decimals: 0.1234 → `12.34 %`. */
export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(2)} %`;
}

/** Milliseconds as the smoke test shows them: `12 ms`, `2,345 ms`. */
export function formatMs(ms: number): string {
  return `${formatCount(Math.round(ms))} ms`;
}
