import type { ResponseOf, trendChart } from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey, periodKey, periodPrevious } from "@varia/period";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { measureName, twoLines } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";

export type TrendPoint = ResponseOf<typeof trendChart>["points"][number];

const month = (key: string) => periodFormat(periodFromKey(key));
/** Month labels of an axis: on two lines when there are many. */
const axisMonth = (key: string, count: number) => (count > 6 ? twoLines(month(key)) : month(key));

/**
 * MRR of each of the card's months up to the later compared month (TrendChart), the compared months
 * marked; with ad hoc revenue stacked on top when the toggle asks for it. A month leads to the same
 * page for that month against the one before.
 */
export function TrendRenderer({
  data,
  filter,
  linkFilter,
  toggle,
  expanded,
  navigate,
  here,
}: CardRenderProps<TrendPoint[]>) {
  const drawn = useCardDrawn();
  const categories = data.map((p) => axisMonth(p.period, data.length));
  const compared = new Set([filter.dateFrom, filter.dateTo]);
  const withAdhoc = toggle === "adhoc";
  const monthHref = (key: string) =>
    viewHref(here || viewPaths.level1, linkFilter, {
      dateFrom: periodKey(periodPrevious(periodFromKey(key))),
      dateTo: key as PeriodKey,
    });
  return (
    <Chart
      title={`${measureName(filter.dataType)} over the ${data.length} months to ${month(data.at(-1)?.period ?? filter.dateTo ?? "2000-01")}`}
      height={expanded ? 420 : 280}
      stacked={withAdhoc}
      showLegend={withAdhoc}
      series={[
        {
          kind: "bar",
          name: measureName(filter.dataType),
          categories,
          values: data.map((p) => p.totalCents),
          color: data.map((p) =>
            compared.has(p.period as never) ? chartColors.brand : chartColors.brandSoft,
          ),
          keys: data.map((p) => monthHref(p.period)),
        },
        ...(withAdhoc
          ? [
              {
                kind: "bar" as const,
                name: "Ad hoc",
                categories,
                values: data.map((p) => p.adhocCents ?? 0),
                color: "#cbd5e1",
              },
            ]
          : []),
      ]}
      onSelect={navigate}
      onDrawn={drawn}
    />
  );
}
