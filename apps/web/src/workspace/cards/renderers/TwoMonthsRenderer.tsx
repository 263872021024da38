import { Change } from "../../../ui/format";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";

/** A value in both compared months, side by side, and its change. */
export interface TwoMonthsData {
  fromLabel: string;
  toLabel: string;
  fromCents: number;
  toCents: number;
}

export function TwoMonthsRenderer({ data, format }: CardRenderProps<TwoMonthsData>) {
  useDrawnOnMount();
  const change = data.toCents - data.fromCents;
  const ratio = data.fromCents ? change / Math.abs(data.fromCents) : null;
  return (
    <div className="two-months">
      <div className="two-months__values">
        <div>
          <p className="two-months__label">{data.fromLabel}</p>
          <p className="two-months__value" data-cents={data.fromCents} data-month="from">
            {format.money(data.fromCents)}
          </p>
        </div>
        <div aria-hidden="true" className="two-months__arrow">
          →
        </div>
        <div>
          <p className="two-months__label">{data.toLabel}</p>
          <p className="two-months__value two-months__value--to" data-cents={data.toCents} data-month="to">
            {format.money(data.toCents)}
          </p>
        </div>
      </div>
      <Change
        className="kpi__change"
        value={change}
        text={`${format.money(change, { signed: true })}${ratio === null ? "" : ` (${format.percent(ratio, { signed: true })})`}`}
      />
    </div>
  );
}
