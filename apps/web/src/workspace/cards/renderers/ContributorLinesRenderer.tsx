import { activityTableGet, type ResponseOf } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { useMemo } from "react";
import { api } from "../../../api";
import { Badge } from "../../../ui/Badge";
import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import { DataGrid, type GridColumn, moneyColumn, textColumn } from "../../../ui/grid/Grid";
import type { ViewFilter } from "../../filters/view-filter";
import { contributorNoun, varianceStepLabel } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardQueryContext, CardRenderProps } from "../card-types";
import { searchParam } from "../search-param";
import { stepQuery } from "../step-query";
import {
  cardGridHeight,
  clientLinkColumn,
  GridSummary,
  gridFileName,
  rowLevel3Href,
  serviceLinkColumn,
  useCsvDownload,
} from "./card-grid";
import { firstPageSource } from "./first-page-source";

export type ContributorLinesPage = ResponseOf<typeof activityTableGet>;
type Row = ContributorLinesPage["rows"][number];

export const contributorLinesPageSize = 25;

/** The query of a page of a step's lines: largest effect first unless the grid sorts otherwise. */
export function contributorLinesQuery(
  context: Pick<CardQueryContext, "filter" | "search">,
  page: { startRow: number; rowLimit: number; sortBy?: string; sortDir?: "asc" | "desc" },
) {
  const { filter, search } = context;
  const effect = `parts.${filter.varType ?? "Price"}`;
  return {
    ...stepQuery(filter),
    ...searchParam(search),
    startRow: page.startRow,
    rowLimit: page.rowLimit,
    sortBy: page.sortBy ?? effect,
    sortDir: page.sortBy ? (page.sortDir ?? "desc") : filter.sign === "Negative" ? "asc" : "desc",
  };
}

const quantity = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/**
 * The columns of a step's lines, as narrow as their values (a header longer than its column wraps),
 * so that the widest, Price's ten, fit a laptop's screen of 1440 px without scrolling sideways.
 */
function columns(filter: ViewFilter, format: Format, links: ViewFilter): GridColumn<Row>[] {
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  const type = filter.varType ?? "Price";
  const showQuantities = type === "Volume" || type === "Usage" || type === "Price";
  const unit = (cents: number, qty: number) => (qty > 0 ? Math.round(cents / qty) : null);
  return [
    // Pinned, it does not share the room left (flex) as the others do: a width of its own.
    clientLinkColumn<Row>((r) => rowLevel3Href(links, r, false), { width: 160, minWidth: 150, pinned: true }),
    serviceLinkColumn<Row>(links, { minWidth: 120 }),
    moneyColumn<Row>(`parts.${type}`, varianceStepLabel(type, filter.sign ?? "Positive"), {
      width: 120,
      value: (r) => r.parts[type] ?? 0,
      render: (r) => (
        <Change
          value={r.parts[type] ?? 0}
          text={format.money(r.parts[type] ?? 0, { signed: true, decimals: 2 })}
        />
      ),
    }),
    ...(showQuantities
      ? [
          textColumn<Row>("quantities", "Quantity", {
            width: 90,
            flex: 0,
            minWidth: 85,
            sortable: false,
            value: (r) => `${quantity(r.quantityFrom)} → ${quantity(r.quantityTo)}`,
          }),
        ]
      : []),
    ...(type === "Price"
      ? [
          moneyColumn<Row>("unitFrom", `Unit ${month(filter.dateFrom)}`, {
            sortable: false,
            width: 95,
            value: (r) => unit(r.valueFromCents, r.quantityFrom),
          }),
          moneyColumn<Row>("unitTo", `Unit ${month(filter.dateTo)}`, {
            sortable: false,
            width: 95,
            value: (r) => unit(r.valueCents, r.quantityTo),
          }),
        ]
      : []),
    moneyColumn<Row>("valueFromCents", `MRR ${month(filter.dateFrom)}`, { width: 110 }),
    moneyColumn<Row>("valueCents", `MRR ${month(filter.dateTo)}`, { width: 110 }),
    textColumn<Row>("badgeVariant", "Status", {
      width: 110,
      minWidth: 100,
      flex: 0,
      render: (r) => (
        <span className="badges">
          <Badge variant={r.status === "Adhoc" ? "adhoc" : r.status.toLowerCase()} />
          {r.clientBadge ? <Badge variant={r.clientBadge} /> : null}
        </span>
      ),
    }),
    textColumn<Row>("salesperson", "Salesperson", { minWidth: 90 }),
  ];
}

/**
 * The contributors of a type per client and service (Service, Price, Volume, Usage): MRR in both
 * months, the quantities and unit prices where they explain the change, and the effect of the type;
 * a client or a service leads to its level-3 view. Paged, sorted and searched on the server
 * (ActivityTable narrowed to the type and sign), which also sums their effect ("in all": the
 * waterfall's step unless a search narrows them); Download CSV writes every row.
 */
export function ContributorLinesRenderer({
  data,
  filter,
  linkFilter,
  search,
  expanded,
  format,
}: CardRenderProps<ContributorLinesPage>) {
  const drawn = useCardDrawn();
  const cols = useMemo(() => columns(filter, format, linkFilter), [filter, format, linkFilter]);
  const source = useMemo(
    () =>
      firstPageSource(data, contributorLinesPageSize, (page) =>
        api.call(activityTableGet, { query: contributorLinesQuery({ filter, search }, page) }),
      ),
    [data, filter, search],
  );
  const download = useCsvDownload(
    cols.filter((c) => c.field !== "badgeVariant"),
    source,
    gridFileName(varianceStepLabel(filter.varType ?? "", filter.sign ?? ""), filter),
  );
  return (
    <div className="step-contributors">
      <GridSummary onDownload={download}>
        <strong>{format.count(data.rowCount)}</strong> {contributorNoun(filter.varType, data.rowCount)}
        {search ? ` matching '${search}'` : ""}
        {data.totals.stepCents !== undefined ? (
          <>
            , in all{" "}
            <span data-step-total data-cents={data.totals.stepCents}>
              <Change
                value={data.totals.stepCents}
                text={format.money(data.totals.stepCents, { signed: true })}
              />
            </span>
          </>
        ) : null}
      </GridSummary>
      <DataGrid<Row>
        label="Contributors"
        columns={cols}
        source={source}
        pageSize={contributorLinesPageSize}
        height={cardGridHeight(expanded, data.rowCount, contributorLinesPageSize, 520)}
        getRowId={(r) => `${r.clientID}-${r.stockItemID}`}
        onRowCount={drawn}
        stackOnPhone
      />
    </div>
  );
}
