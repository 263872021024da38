import type { gridGeneralKpi, ResponseOf } from "@varia/contracts";
import { Link } from "react-router";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { Change } from "../../../ui/format";
import { type ViewFilter, viewHref, viewPaths } from "../../filters/view-filter";
import { subjectAsFilter } from "../../navigation/drill-path";
import { measureName } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";

export type SegmentData = ResponseOf<typeof gridGeneralKpi>;

export const segmentOptions = [
  { value: "stockType", label: "Stock type" },
  { value: "salesperson", label: "Salesperson" },
  { value: "item", label: "Service" },
  { value: "clientSize", label: "Client size" },
];

/** The dashboard filtered to one segment: what explains a slice. */
function segmentFilter(segment: string, row: SegmentData["rows"][number]): Partial<ViewFilter> | null {
  switch (segment) {
    case "stockType":
      return { stockType: row.key as ViewFilter["stockType"] };
    case "salesperson":
      return /^\d+$/.test(row.key) ? { salespersonID: row.key, salesperson: row.label } : null;
    case "item":
      return { stockItemID: null, stockItem: row.key };
    default:
      return null;
  }
}

/**
 * MRR of the later month by segment (stock type, salesperson, service or client size), with each
 * segment's change; a segment of the earlier month only is listed at 0, so the changes add up to the
 * MRR's (docs/methodology.md, "Charts"). A segment leads to this dashboard filtered to it.
 */
export function SegmentRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  navigate,
  format,
}: CardRenderProps<SegmentData>) {
  const drawn = useCardDrawn();
  const href = (row: SegmentData["rows"][number]) => {
    const changes = segmentFilter(data.segment, row);
    return changes
      ? viewHref(viewPaths.level1, subjectAsFilter(linkFilter), {
          ...changes,
          varType: null,
          sign: null,
          // The dashboard of one segment shows its segments by another dimension, not its one slice.
          segment: null,
        })
      : null;
  };
  const rows = expanded ? data.rows : data.rows.slice(0, 5);
  const withChange = data.rows.some((r) => r.valueCentsVariance !== undefined);
  const segmentName =
    segmentOptions.find((o) => o.value === data.segment)?.label.toLowerCase() ?? data.segment;
  return (
    <div className={`segments${expanded ? " segments--expanded" : ""}`}>
      <Chart
        title={`${measureName(filter.dataType)} by ${segmentName}`}
        height={expanded ? 360 : 190}
        showLegend={false}
        series={[
          {
            kind: "donut",
            name: measureName(filter.dataType),
            categories: data.rows.map((r) => r.label),
            values: data.rows.map((r) => r.valueCents),
            colors: data.rows.map((_, i) => chartColors.slices[i % chartColors.slices.length]!),
            keys: data.rows.map(href),
          },
        ]}
        onSelect={navigate}
        onDrawn={drawn}
      />
      <table className="data-table data-table--compact">
        <thead>
          <tr>
            <th scope="col">{segmentOptions.find((o) => o.value === data.segment)?.label ?? "Segment"}</th>
            <th scope="col" className="number">
              MRR
            </th>
            {withChange ? (
              <th scope="col" className="number">
                Change
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const link = href(row);
            return (
              <tr key={row.key}>
                <th scope="row">
                  <span
                    className="swatch"
                    style={{ background: chartColors.slices[i % chartColors.slices.length] }}
                    aria-hidden="true"
                  />
                  {link ? <Link to={link}>{row.label}</Link> : row.label}
                </th>
                <td className="number">
                  {format.money(row.valueCents)}
                  {/* A segment of the earlier month only has no slice and no share (its change is its all). */}
                  {row.valueCents !== 0 ? (
                    <span className="segments__share">{format.percent(row.share, { decimals: 1 })}</span>
                  ) : null}
                </td>
                {withChange ? (
                  <td className="number">
                    <Change
                      value={row.valueCentsVariance ?? 0}
                      text={format.money(row.valueCentsVariance ?? 0, { signed: true })}
                    />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {!expanded && data.rows.length > rows.length ? (
        <p className="client-list__more">
          {data.rows.length - rows.length} more: expand the card to see all.
        </p>
      ) : null}
    </div>
  );
}
