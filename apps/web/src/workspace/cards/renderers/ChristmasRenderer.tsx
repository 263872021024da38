import type { christmasChart, ResponseOf } from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey, periodKey, periodPrevious } from "@varia/period";
import { Chart, chartColors, type Series } from "../../../ui/charts/Chart";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { measureName, twoLines, varianceTypeOrder } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";
import { DataStartsNote } from "../data-starts";

export type ChristmasPoint = ResponseOf<typeof christmasChart>["points"][number];

const month = (key: string) => periodFormat(periodFromKey(key));
/** Month labels of an axis: on two lines when there are many. */
const axisMonth = (key: string, count: number) => (count > 6 ? twoLines(month(key)) : month(key));

/**
 * The year-end ("Christmas") chart: for each month, its change against the month before, the
 * variance types stacked (increases above zero, decreases below) and the net change as a line. A
 * month leads to level 1 for that month against the one before.
 */
export function ChristmasRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
}: CardRenderProps<ChristmasPoint[]>) {
  const drawn = useCardDrawn();
  const categories = data.map((p) => axisMonth(p.period, data.length));
  const keys = data.map((p) =>
    viewHref(viewPaths.level1, linkFilter, {
      dateFrom: periodKey(periodPrevious(periodFromKey(p.period))),
      dateTo: p.period as PeriodKey,
    }),
  );
  const used = varianceTypeOrder.filter((t) =>
    data.some((p) => p.byType[t].positiveCents !== 0 || p.byType[t].negativeCents !== 0),
  );
  const series: Series[] = used.flatMap((type) =>
    (["positiveCents", "negativeCents"] as const).map((side) => ({
      kind: "bar" as const,
      name: side === "positiveCents" ? type : `${type} (decrease)`,
      legendGroup: type,
      showInLegend: side === "positiveCents",
      categories,
      values: data.map((p) => p.byType[type][side]),
      color: chartColors.types[type] ?? chartColors.inkSoft,
      keys,
    })),
  );
  series.push({
    kind: "line",
    name: "Net change",
    categories,
    // Where the data starts there is no change to draw, not a change of 0 (docs/methodology.md, "Charts").
    values: data.map((p) => (p.startsTheData ? null : p.netCents)),
    color: chartColors.ink,
    keys,
  });
  return (
    <>
      <Chart
        title={`Monthly change of ${measureName(filter.dataType)} by variance type, ${month(data[0]?.period ?? "")} to ${month(data.at(-1)?.period ?? "")}`}
        stacked
        showLegend
        height={expanded ? 440 : 300}
        series={series}
        onSelect={navigate}
        onDrawn={drawn}
      />
      <DataStartsNote points={data} />
    </>
  );
}
