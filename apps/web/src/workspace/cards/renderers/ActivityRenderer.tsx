import { activityTableGet, type ResponseOf } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { useMemo } from "react";
import { api } from "../../../api";
import { Badge } from "../../../ui/Badge";
import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import { DataGrid, type GridColumn, moneyColumn, textColumn } from "../../../ui/grid/Grid";
import { analyticsQuery, type ViewFilter } from "../../filters/view-filter";
import { useCardDrawn } from "../Card";
import type { CardQueryContext, CardRenderProps } from "../card-types";
import { searchParam } from "../search-param";
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

export type ActivityPage = ResponseOf<typeof activityTableGet>;
type Row = ActivityPage["rows"][number];

export const activityPageSize = 25;

/** The badge filter of the table (the card's toggle). */
export const activityBadgeOptions = [
  { value: "all", label: "All" },
  { value: "new", label: "New" },
  { value: "lost", label: "Lost" },
  { value: "added", label: "Added" },
  { value: "removed", label: "Removed" },
  { value: "existing", label: "Existing" },
  { value: "adhoc", label: "Ad hoc" },
];

/** The activity table's query for a page: the filter, the search, the badge, the sort. */
export function activityQuery(
  context: Pick<CardQueryContext, "filter" | "search" | "toggle">,
  page: { startRow: number; rowLimit: number; sortBy?: string; sortDir?: "asc" | "desc" },
) {
  const badge = context.toggle && context.toggle !== "all" ? context.toggle : undefined;
  return {
    ...analyticsQuery(context.filter),
    ...(badge ? { badgeVariant: badge } : {}),
    ...(badge === "adhoc" ? { showAdhoc: "true" } : {}),
    ...searchParam(context.search),
    startRow: page.startRow,
    rowLimit: page.rowLimit,
    ...(page.sortBy ? { sortBy: page.sortBy, sortDir: page.sortDir ?? "desc" } : {}),
  };
}

/** The types a row's change is split into, in the waterfall's order; Transfer only by salesperson. */
function partTypes(filter: ViewFilter): string[] {
  const types = ["Client", "Service", "Price", "Volume", "Usage"];
  return filter.salespersonID || filter.salesperson ? [...types, "Transfer"] : types;
}

/**
 * The grid's columns. The change's split by type is one column naming the types that moved ('Volume
 * +$40.00 · Price -$3.00'; a line's change goes to one or two types), so that every column fits a
 * laptop's 1440 px window without scrolling sideways; the CSV keeps a column per type (`csvColumns`).
 * (docs/behaviour.md, "Tables on a laptop and a phone")
 */
function columns(filter: ViewFilter, format: Format, links: ViewFilter): GridColumn<Row>[] {
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  const types = partTypes(filter);
  return [
    clientLinkColumn<Row>((r) => rowLevel3Href(links, r, false), { width: 180, minWidth: 180, pinned: true }),
    serviceLinkColumn<Row>(links, { minWidth: 160 }),
    textColumn<Row>("salesperson", "Salesperson", { minWidth: 100 }),
    textColumn<Row>("badgeVariant", "Status", {
      width: 112,
      minWidth: 112,
      flex: 0,
      render: (r) => <Badge variant={r.badgeVariant} />,
    }),
    moneyColumn<Row>("valueFromCents", `MRR ${month(filter.dateFrom)}`, { width: 120 }),
    moneyColumn<Row>("valueCents", `MRR ${month(filter.dateTo)}`, { width: 120 }),
    moneyColumn<Row>("valueCentsVariance", "Change", {
      width: 125,
      render: (r) => (
        <Change
          value={r.valueCentsVariance}
          text={format.money(r.valueCentsVariance, { signed: true, decimals: 2 })}
        />
      ),
    }),
    textColumn<Row>("parts", "Change by type", {
      minWidth: 180,
      flex: 1.5,
      sortable: false,
      value: (r) =>
        types
          .filter((type) => (r.parts[type] ?? 0) !== 0)
          .map((type) => `${type} ${format.money(r.parts[type] ?? 0, { signed: true, decimals: 2 })}`)
          .join(" · "),
    }),
  ];
}

/** The CSV's columns: the grid's, with the change's split by type as a number per type. */
function csvColumns(grid: GridColumn<Row>[], filter: ViewFilter): GridColumn<Row>[] {
  return [
    ...grid.filter((c) => c.field !== "parts"),
    ...partTypes(filter).map((type) =>
      moneyColumn<Row>(`part${type}`, type, { value: (r) => r.parts[type] ?? 0, sortable: false }),
    ),
  ];
}

/**
 * One row per client and service: MRR in both months, the change and its split by type, the line's
 * badge. Paged, sorted and filtered on the server (ActivityTable); the card's search and badge
 * toggle filter it; Download CSV writes every row of the current filters.
 */
export function ActivityRenderer({
  data,
  filter,
  linkFilter,
  search,
  toggle,
  expanded,
  format,
}: CardRenderProps<ActivityPage>) {
  const drawn = useCardDrawn();
  const cols = useMemo(() => columns(filter, format, linkFilter), [filter, format, linkFilter]);
  // The first page came with the card; the grid asks for it again only after a new sort.
  const source = useMemo(
    () =>
      firstPageSource(data, activityPageSize, (page) =>
        api.call(activityTableGet, { query: activityQuery({ filter, search, toggle }, page) }),
      ),
    [data, filter, search, toggle],
  );
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  const download = useCsvDownload(
    useMemo(() => csvColumns(cols, filter), [cols, filter]),
    source,
    gridFileName("Activity", filter, toggle && toggle !== "all" ? toggle : undefined),
  );

  return (
    <div className="activity">
      <GridSummary onDownload={download}>
        <strong>{format.count(data.rowCount)}</strong> {data.rowCount === 1 ? "line" : "lines"} ·{" "}
        {month(filter.dateFrom)} {format.money(data.totals.valueFromCents)} → {month(filter.dateTo)}{" "}
        {format.money(data.totals.valueCents)}{" "}
        <Change
          value={data.totals.valueCentsVariance}
          text={format.money(data.totals.valueCentsVariance, { signed: true })}
        />
      </GridSummary>
      <DataGrid<Row>
        label="Activity by client and service"
        columns={cols}
        source={source}
        firstPage={data}
        pageSize={activityPageSize}
        height={cardGridHeight(expanded, data.rowCount, activityPageSize, 560)}
        getRowId={(r) => `${r.clientID}-${r.stockItemID}`}
        onRowCount={drawn}
      />
    </div>
  );
}
