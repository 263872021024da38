import type { ResponseOf, varianceBars } from "@varia/contracts";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { measureName, varianceStepLabel } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";

export type ContributorRow = ResponseOf<typeof varianceBars>["rows"][number];

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** A contributor's level-3 view: its client, or the client's service. */
export function contributorHref(filter: CardRenderProps<unknown>["filter"], row: ContributorRow) {
  return viewHref(viewPaths.level3, filter, {
    thirdClientID: String(row.clientID),
    thirdStockItemID: row.stockItemID === null ? null : String(row.stockItemID),
  });
}

/** The largest contributors of a type and sign as bars; a bar leads to its level-3 view. */
export function ContributorBarsRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
}: CardRenderProps<ContributorRow[]>) {
  const drawn = useCardDrawn();
  const label = (r: ContributorRow) =>
    `${cut(r.clientName, 26)}${r.itemName ? ` · ${cut(r.itemName, 20)}` : ""}`;
  const step = varianceStepLabel(filter.varType ?? "", filter.sign ?? "").toLowerCase();
  return (
    <Chart
      title={`The ${data.length} largest ${step} of ${measureName(filter.dataType)}`}
      horizontal
      height={Math.max(expanded ? 360 : 240, data.length * (expanded ? 28 : 26) + 40)}
      series={[
        {
          kind: "bar",
          name: varianceStepLabel(filter.varType ?? "", filter.sign ?? ""),
          categories: data.map(label),
          values: data.map((r) => r.valueCents),
          color: filter.sign === "Negative" ? chartColors.negative : chartColors.positive,
          keys: data.map((r) => contributorHref(linkFilter, r)),
        },
      ]}
      onSelect={navigate}
      onDrawn={drawn}
    />
  );
}
