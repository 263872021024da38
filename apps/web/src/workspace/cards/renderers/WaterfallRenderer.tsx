import type { ResponseOf, waterfallChart } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { Link } from "react-router";
import { Chart } from "../../../ui/charts/Chart";
import { Change } from "../../../ui/format";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { subjectAsFilter } from "../../navigation/drill-path";
import { measureName, twoLines, varianceStepLabel } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";

export type WaterfallStep = ResponseOf<typeof waterfallChart>["steps"][number];

const monthName = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");

/** The label of a step: the measure and month for the totals, the analyst's words for a type and sign. */
export function stepLabel(
  step: WaterfallStep,
  index: number,
  dateFrom: string | null,
  dateTo: string | null,
) {
  if (step.kind === "total") return `${index === 0 ? monthName(dateFrom) : monthName(dateTo)}`;
  return varianceStepLabel(step.type ?? "", step.sign ?? "");
}

/**
 * MRR of the earlier month, one step per variance type and sign, MRR of the later month. A step
 * leads to level 2: the contributors of that type and sign.
 */
export function WaterfallRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
  format,
}: CardRenderProps<WaterfallStep[]>) {
  const drawn = useCardDrawn();
  // On a detail page, a step lists that client's or service's contributors: the subject becomes a filter.
  const stepHref = (step: WaterfallStep) =>
    step.type && step.sign
      ? viewHref(viewPaths.level2, subjectAsFilter(linkFilter), {
          varType: step.type as never,
          sign: step.sign,
        })
      : null;
  const categories = data.map((step, i) => stepLabel(step, i, filter.dateFrom, filter.dateTo));
  const axisLabels = categories.map(twoLines);
  return (
    <>
      <Chart
        title={`${measureName(filter.dataType)} from ${monthName(filter.dateFrom)} to ${monthName(filter.dateTo)}, step by step`}
        height={expanded ? 420 : 300}
        series={[
          {
            kind: "waterfall",
            name: measureName(filter.dataType),
            categories: axisLabels,
            values: data.map((s) => s.valueCents),
            measures: data.map((s) => s.kind),
            keys: data.map(stepHref),
          },
        ]}
        onSelect={navigate}
        onDrawn={drawn}
      />
      {expanded ? (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="number">
                {measureName(filter.dataType)}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((step, i) => {
              const href = stepHref(step);
              return (
                <tr key={step.label}>
                  <th scope="row">{href ? <Link to={href}>{categories[i]}</Link> : categories[i]}</th>
                  <td className="number">
                    {step.kind === "total" ? (
                      format.money(step.valueCents, { decimals: 2 })
                    ) : (
                      <Change
                        value={step.valueCents}
                        text={format.money(step.valueCents, { signed: true, decimals: 2 })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
