import type { christmasChart, ResponseOf } from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey, periodKey, periodPrevious } from "@varia/period";
import { Link } from "react-router";
import { Change } from "../../../ui/format";
import { viewHref } from "../../filters/view-filter";
import { measureName, varianceStepLabel, varianceTypeOrder } from "../../variance-labels";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";
import { subjectKind } from "../subject";

type ByType = ResponseOf<typeof christmasChart>["points"][number]["byType"];

/** A month in which the subject's MRR moved: its movements by type, the net change and the MRR after. */
export interface HistoryMonth {
  period: string;
  byType: ByType;
  netCents: number;
  mrrCents: number;
}

/** The months of the range in which something moved, newest first. */
export type HistoryData = HistoryMonth[];

const month = (key: string) => periodFormat(periodFromKey(key));

/** How a movement reads: one client's arrival or loss in the singular, every other type as level 1 names it. */
function movementLabel(type: string, sign: "Positive" | "Negative", oneClient: boolean) {
  if (oneClient && type === "Client") return sign === "Positive" ? "New client" : "Lost client";
  return varianceStepLabel(type, sign);
}

/**
 * Level 3's history: each month of the range in which the subject's MRR moved, newest first, with
 * what moved it (the variance types of that month against the one before), the net change and the
 * MRR after. A month opens the same view comparing that month with the one before.
 */
export function HistoryRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  here,
  format,
}: CardRenderProps<HistoryData>) {
  useDrawnOnMount();
  const kind = subjectKind(filter);
  const oneClient = kind === "client" || kind === "clientService";
  const rows = expanded ? data : data.slice(0, 6);
  const measure = measureName(filter.dataType);
  return (
    <div className="history">
      {/* On a phone a block a month, each cell named (ui.css, table--stack): its Change and MRR after
          ran past the card's edge. (docs/behaviour.md, "Tables on a laptop and a phone") */}
      <table className="data-table data-table--compact table--stack">
        <caption className="visually-hidden">
          The months in which {measure} moved, newest first, with what moved it
        </caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">What changed</th>
            <th scope="col" className="number">
              Change
            </th>
            <th scope="col" className="number">
              {measure} after
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const movements = varianceTypeOrder.flatMap((type) =>
              (["Positive", "Negative"] as const).flatMap((sign) => {
                const cents = row.byType[type][sign === "Positive" ? "positiveCents" : "negativeCents"];
                return cents === 0
                  ? []
                  : [{ key: `${type}${sign}`, label: movementLabel(type, sign, oneClient), cents }];
              }),
            );
            return (
              <tr key={row.period}>
                <th scope="row" className="history__month">
                  <Link
                    to={viewHref(here, linkFilter, {
                      dateFrom: periodKey(periodPrevious(periodFromKey(row.period))),
                      dateTo: row.period as PeriodKey,
                    })}
                    aria-label={`${month(row.period)}: compare with the month before`}
                  >
                    {month(row.period)}
                  </Link>
                </th>
                <td data-label="What changed">
                  <ul className="history__movements">
                    {movements.map((m) => (
                      <li key={m.key}>
                        {m.label}{" "}
                        <Change value={m.cents} text={format.money(m.cents, { signed: true, decimals: 2 })} />
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="number" data-label="Change">
                  <Change
                    value={row.netCents}
                    text={format.money(row.netCents, { signed: true, decimals: 2 })}
                  />
                </td>
                <td className="number" data-label={`${measure} after`}>
                  {format.money(row.mrrCents, { decimals: 2 })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!expanded && data.length > rows.length ? (
        <p className="client-list__more">
          {data.length - rows.length} more {data.length - rows.length === 1 ? "month" : "months"}: expand the
          card to see all.
        </p>
      ) : null}
    </div>
  );
}
