import type { christmasChart, ResponseOf } from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey, periodKey, periodPrevious } from "@varia/period";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { twoLines, varianceStepLabel } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";
import { DataStartsNote } from "../data-starts";

export type StepHistoryPoint = ResponseOf<typeof christmasChart>["points"][number];

const month = (key: string) => periodFormat(periodFromKey(key));

/**
 * The step of level 2 in each month against the month before (its type's increases or decreases),
 * the compared month marked; a month leads to the same step for that month.
 */
export function StepHistoryRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
}: CardRenderProps<StepHistoryPoint[]>) {
  const drawn = useCardDrawn();
  const type = filter.varType ?? "Client";
  const side = filter.sign === "Negative" ? "negativeCents" : "positiveCents";
  const categories = data.map((p) => (data.length > 6 ? twoLines(month(p.period)) : month(p.period)));
  const colour = filter.sign === "Negative" ? chartColors.negative : chartColors.positive;
  const soft = filter.sign === "Negative" ? "#fca5a5" : "#86efac";
  return (
    <>
      <Chart
        title={`${varianceStepLabel(type, filter.sign ?? "Positive")} in each month against the month before`}
        height={expanded ? 380 : 260}
        series={[
          {
            kind: "bar",
            name: varianceStepLabel(type, filter.sign ?? "Positive"),
            categories,
            values: data.map((p) => p.byType[type][side]),
            color: data.map((p) => (p.period === filter.dateTo ? colour : soft)),
            keys: data.map((p) =>
              viewHref(viewPaths.level2, linkFilter, {
                dateFrom: periodKey(periodPrevious(periodFromKey(p.period))),
                dateTo: p.period as PeriodKey,
              }),
            ),
          },
        ]}
        onSelect={navigate}
        onDrawn={drawn}
      />
      <DataStartsNote points={data} />
    </>
  );
}
