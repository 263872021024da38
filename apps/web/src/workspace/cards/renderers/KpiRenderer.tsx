import { Change } from "../../../ui/format";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";

/** A KPI: its value in the later month and its change from the earlier one. */
export interface KpiData {
  kind: "money" | "count" | "percent";
  value: number;
  /** The value it is compared with; null when there is none. */
  from: number | null;
  /** The words for what it is compared with: 'Sep 2026', 'Aug 2026 to Sep 2026'. */
  fromLabel: string;
}

export function KpiRenderer({ data, format }: CardRenderProps<KpiData>) {
  useDrawnOnMount();
  const write = (v: number) =>
    data.kind === "money" ? format.money(v) : data.kind === "percent" ? format.percent(v) : format.count(v);
  const change = data.from === null ? null : data.value - data.from;
  let changeText = "";
  if (change !== null && data.from !== null) {
    if (data.kind === "percent") changeText = format.percentagePoints(change);
    else {
      const absolute =
        data.kind === "money"
          ? format.money(change, { signed: true })
          : format.count(change, { signed: true });
      changeText =
        data.from === 0
          ? absolute
          : `${absolute} (${format.percent(change / Math.abs(data.from), { signed: true })})`;
    }
  }
  return (
    <div className="kpi">
      <p className="kpi__value" data-kpi-value>
        {write(data.value)}
      </p>
      {change !== null && data.from !== null ? (
        <>
          <Change value={change} text={changeText} className="kpi__change" />
          <p className="kpi__from">
            from {write(data.from)} in {data.fromLabel}
          </p>
        </>
      ) : (
        <p className="kpi__from">No earlier value to compare with</p>
      )}
    </div>
  );
}
