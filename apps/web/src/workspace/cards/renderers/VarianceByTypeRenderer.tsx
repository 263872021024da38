import type { powerfulBar, ResponseOf, varianceBars } from "@varia/contracts";
import { Link } from "react-router";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { Change } from "../../../ui/format";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { measureName, varianceStepLabel, varianceTypeOrder } from "../../variance-labels";
import { useCardDrawn, useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";

export type VarianceByTypeData =
  | { view: "types"; byType: ResponseOf<typeof powerfulBar>["byType"] }
  | { view: "contributors"; rows: ResponseOf<typeof varianceBars>["rows"]; rowCount: number };

/**
 * The change split by variance type, increases and decreases apart (PowerfulBar), or the largest
 * single contributions (VarianceBars). A bar leads to the level that explains it: a type and sign
 * to level 2, a contribution to its client at level 3.
 */
export function VarianceByTypeRenderer(props: CardRenderProps<VarianceByTypeData>) {
  return props.data.view === "types" ? (
    <Types {...props} data={props.data} />
  ) : (
    <Contributors {...props} data={props.data} />
  );
}

function Types({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
  format,
}: CardRenderProps<VarianceByTypeData> & { data: Extract<VarianceByTypeData, { view: "types" }> }) {
  const drawn = useCardDrawn();
  const types = varianceTypeOrder.filter(
    (t) =>
      t !== "Transfer" ||
      data.byType.Transfer.positiveCents !== 0 ||
      data.byType.Transfer.negativeCents !== 0,
  );
  const href = (type: string, sign: "Positive" | "Negative") =>
    viewHref(viewPaths.level2, linkFilter, { varType: type as never, sign });
  return (
    <>
      <Chart
        title={`${measureName(filter.dataType)} change by variance type, increases and decreases`}
        horizontal
        stacked
        showLegend
        height={expanded ? 360 : 300}
        series={[
          {
            kind: "bar",
            name: "Increase",
            categories: types,
            values: types.map((t) => data.byType[t].positiveCents),
            color: chartColors.positive,
            keys: types.map((t) => href(t, "Positive")),
          },
          {
            kind: "bar",
            name: "Decrease",
            categories: types,
            values: types.map((t) => data.byType[t].negativeCents),
            color: chartColors.negative,
            keys: types.map((t) => href(t, "Negative")),
          },
        ]}
        onSelect={navigate}
        onDrawn={drawn}
      />
      {expanded ? (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col" className="number">
                Increase
              </th>
              <th scope="col" className="number">
                Decrease
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr key={t}>
                <th scope="row">{t}</th>
                {(["Positive", "Negative"] as const).map((sign) => {
                  const cents =
                    sign === "Positive" ? data.byType[t].positiveCents : data.byType[t].negativeCents;
                  return (
                    <td key={sign} className="number">
                      <Link
                        to={href(t, sign)}
                        aria-label={`${varianceStepLabel(t, sign)}: ${format.money(cents, { signed: true, decimals: 2 })}`}
                      >
                        <Change value={cents} text={format.money(cents, { signed: true, decimals: 2 })} />
                      </Link>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function Contributors({
  data,
  linkFilter,
  expanded,
  format,
}: CardRenderProps<VarianceByTypeData> & { data: Extract<VarianceByTypeData, { view: "contributors" }> }) {
  useDrawnOnMount();
  const largest = Math.max(1, ...data.rows.map((r) => Math.abs(r.valueCents)));
  return (
    <ol
      className={`contributors${expanded ? " contributors--expanded" : ""}`}
      aria-label="The largest contributions"
    >
      {data.rows.map((r) => (
        <li key={`${r.type}-${r.sign}-${r.clientID}-${r.stockItemID ?? ""}`} className="contributors__row">
          <span className="contributors__who">
            <Link to={viewHref(viewPaths.level3, linkFilter, { thirdClientID: String(r.clientID) })}>
              {r.clientName}
            </Link>
            <span className="contributors__what">
              {varianceStepLabel(r.type, r.sign)}
              {r.itemName ? ` · ${r.itemName}` : ""}
            </span>
          </span>
          <span className="contributors__value">
            <Change value={r.valueCents} text={format.money(r.valueCents, { signed: true })} />
            <span
              className={`contributors__bar contributors__bar--${r.valueCents >= 0 ? "up" : "down"}`}
              style={{ width: `${(Math.abs(r.valueCents) / largest) * 100}%` }}
              aria-hidden="true"
            />
          </span>
        </li>
      ))}
    </ol>
  );
}
