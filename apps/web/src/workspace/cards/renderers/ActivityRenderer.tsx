import { activityTableGet, type ResponseOf } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { useMemo, useRef } from "react";
import { Link } from "react-router";
import { api } from "../../../api";
import { Badge } from "../../../ui/Badge";
import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import {
  DataGrid,
  exportCsv,
  type GridColumn,
  moneyColumn,
  type ServerSource,
  textColumn,
} from "../../../ui/grid/Grid";
import { analyticsQuery, type ViewFilter, viewHref, viewPaths } from "../../filters/view-filter";
import { useAlert } from "../../workspace-actors";
import { useCardDrawn } from "../Card";
import type { CardQueryContext, CardRenderProps } from "../card-types";
import { ClientCode } from "./ClientCode";

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
    ...(context.search.trim() ? { search: context.search.trim() } : {}),
    startRow: page.startRow,
    rowLimit: page.rowLimit,
    ...(page.sortBy ? { sortBy: page.sortBy, sortDir: page.sortDir ?? "desc" } : {}),
  };
}

function columns(filter: ViewFilter, format: Format): GridColumn<Row>[] {
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  const part = (type: string) =>
    moneyColumn<Row>(`part${type}`, type, { value: (r) => r.parts[type] ?? 0, sortable: false, width: 118 });
  return [
    textColumn<Row>("clientName", "Client", {
      minWidth: 200,
      pinned: true,
      render: (r) => (
        <span className="grid-client">
          <Link
            to={viewHref(viewPaths.level3, filter, {
              thirdClientID: String(r.clientID),
              thirdStockItemID: null,
            })}
          >
            {r.clientName}
          </Link>
          <ClientCode name={r.clientName} code={r.clientCode} />
        </span>
      ),
    }),
    textColumn<Row>("itemName", "Service", {
      minWidth: 180,
      render: (r) => (
        <Link
          to={viewHref(viewPaths.level3, filter, {
            thirdClientID: String(r.clientID),
            thirdStockItemID: String(r.stockItemID),
          })}
        >
          {r.itemName}
        </Link>
      ),
    }),
    textColumn<Row>("salesperson", "Salesperson", { minWidth: 130 }),
    textColumn<Row>("badgeVariant", "Status", {
      width: 112,
      flex: 0,
      render: (r) => <Badge variant={r.badgeVariant} />,
    }),
    moneyColumn<Row>("valueFromCents", `MRR ${month(filter.dateFrom)}`),
    moneyColumn<Row>("valueCents", `MRR ${month(filter.dateTo)}`),
    moneyColumn<Row>("valueCentsVariance", "Change", {
      render: (r) => (
        <Change
          value={r.valueCentsVariance}
          text={format.money(r.valueCentsVariance, { signed: true, decimals: 2 })}
        />
      ),
    }),
    part("Client"),
    part("Service"),
    part("Price"),
    part("Volume"),
    part("Usage"),
    ...(filter.salespersonID || filter.salesperson ? [part("Transfer")] : []),
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
  search,
  toggle,
  expanded,
  format,
}: CardRenderProps<ActivityPage>) {
  const drawn = useCardDrawn();
  const alert = useAlert();
  const sort = useRef<{ sortBy?: string; sortDir?: "asc" | "desc" }>({});
  const cols = useMemo(() => columns(filter, format), [filter, format]);
  // The first page came with the card; the grid asks for it again only after a new sort.
  const source = useMemo<ServerSource<Row>>(() => {
    let first: ActivityPage | null = data;
    return async (page) => {
      sort.current = page.sortBy ? { sortBy: page.sortBy, sortDir: page.sortDir ?? "desc" } : {};
      if (first && page.startRow === 0 && !page.sortBy && page.rowLimit === activityPageSize) {
        const answer = first;
        first = null;
        return answer;
      }
      return api.call(activityTableGet, { query: activityQuery({ filter, search, toggle }, page) });
    };
  }, [data, filter, search, toggle]);
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");

  const download = async () => {
    try {
      await exportCsv({
        columns: cols,
        source,
        sort: sort.current,
        fileName: `Activity ${filter.dateFrom} to ${filter.dateTo}${toggle && toggle !== "all" ? ` ${toggle}` : ""}.csv`,
      });
    } catch {
      alert("The CSV file could not be downloaded.", "Please try again.");
    }
  };

  return (
    <div className="activity">
      <div className="activity__summary">
        <p>
          <strong>{format.count(data.rowCount)}</strong> {data.rowCount === 1 ? "line" : "lines"} ·{" "}
          {month(filter.dateFrom)} {format.money(data.totals.valueFromCents)} → {month(filter.dateTo)}{" "}
          {format.money(data.totals.valueCents)}{" "}
          <Change
            value={data.totals.valueCentsVariance}
            text={format.money(data.totals.valueCentsVariance, { signed: true })}
          />
        </p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={download}
          data-screenshot="skip"
        >
          Download CSV
        </button>
      </div>
      <DataGrid<Row>
        label="Activity by client and service"
        columns={cols}
        source={source}
        firstPage={data}
        pageSize={activityPageSize}
        height={expanded ? 720 : Math.min(560, 100 + Math.min(data.rowCount, activityPageSize) * 40)}
        getRowId={(r) => `${r.clientID}-${r.stockItemID}`}
        onRowCount={drawn}
      />
    </div>
  );
}
