import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";

/** A number as a figure shows it: money (cents), a signed change of money, a count, a ratio, or text. */
export type Amount =
  | { kind: "money" | "change" | "count" | "percent" | "signedPercent"; value: number | null }
  | { kind: "text"; value: string }
  /** Money from one amount to another (an interval). */
  | { kind: "range"; value: [number | null, number | null] };

/**
 * One figure of a card: its value (a change carries its direction as an arrow and colour), a line
 * under it, and a few facts, each written in the organisation's currency by the renderer.
 */
export interface FigureData {
  value: Amount;
  caption?: string;
  facts?: { label: string; value: Amount }[];
}

export function writeAmount(amount: Amount, format: Format): string {
  if (amount.kind === "text") return amount.value;
  if (amount.kind === "range") {
    const [low, high] = amount.value;
    return low === null || high === null ? "–" : `${format.money(low)} – ${format.money(high)}`;
  }
  if (amount.value === null || !Number.isFinite(amount.value)) return "–";
  switch (amount.kind) {
    case "money":
      return format.money(amount.value);
    case "change":
      return format.money(amount.value, { signed: true });
    case "count":
      return format.count(amount.value);
    case "percent":
      return format.percent(amount.value);
    case "signedPercent":
      return format.percent(amount.value, { signed: true });
  }
}

export function FigureRenderer({ data, format }: CardRenderProps<FigureData>) {
  useDrawnOnMount();
  const text = writeAmount(data.value, format);
  return (
    <div className="kpi figure">
      <p className="kpi__value" data-kpi-value>
        {data.value.kind === "change" ? <Change value={data.value.value} text={text} /> : text}
      </p>
      {data.caption ? <p className="kpi__from">{data.caption}</p> : null}
      {data.facts?.length ? (
        <dl className="figure__facts">
          {data.facts.map((f) => (
            <div key={f.label}>
              <dt>{f.label}</dt>
              <dd>{writeAmount(f.value, format)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
