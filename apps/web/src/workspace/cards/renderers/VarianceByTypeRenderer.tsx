import type { powerfulBar, ResponseOf, varianceBars } from "@varia/contracts";
import { Link } from "react-router";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { Change } from "../../../ui/format";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { measureName, varianceStepLabel, varianceTypeOrder } from "../../variance-labels";
import { useCardDrawn } from "../Card";
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
    viewHref(viewPaths.level2, filter, { varType: type as never, sign });
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
  filter,
  expanded,
  navigate,
}: CardRenderProps<VarianceByTypeData> & { data: Extract<VarianceByTypeData, { view: "contributors" }> }) {
  const drawn = useCardDrawn();
  const rows = data.rows;
  const cut = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length - 1)}…` : text;
  const label = (r: (typeof rows)[number]) =>
    `${cut(r.clientName, 24)}${r.itemName ? ` · ${cut(r.itemName, 18)}` : ""} (${varianceStepLabel(r.type, r.sign).toLowerCase()})`;
  return (
    <Chart
      title={`The ${rows.length} largest contributions to the change of ${measureName(filter.dataType)}`}
      horizontal
      height={expanded ? Math.max(360, rows.length * 28) : 300}
      series={[
        {
          kind: "bar",
          name: "Contribution",
          categories: rows.map(label),
          values: rows.map((r) => r.valueCents),
          color: rows.map((r) => (r.valueCents >= 0 ? chartColors.positive : chartColors.negative)),
          keys: rows.map((r) => viewHref(viewPaths.level3, filter, { thirdClientID: String(r.clientID) })),
        },
      ]}
      onSelect={navigate}
      onDrawn={drawn}
    />
  );
}
