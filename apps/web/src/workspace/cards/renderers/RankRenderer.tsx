import { expandedSpecificRankContributionKpi, type ResponseOf } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { useMemo } from "react";
import { Link } from "react-router";
import { api } from "../../../api";
import {
  countColumn,
  DataGrid,
  type GridColumn,
  moneyColumn,
  percentColumn,
  textColumn,
} from "../../../ui/grid/Grid";
import { analyticsQuery, viewHref, viewPaths } from "../../filters/view-filter";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";
import { searchParam } from "../search-param";
import { wholeOf } from "../subject";
import { ClientCode } from "./ClientCode";

/** A client's rank (1 = largest) and share of MRR in the later month, among how many clients. */
export interface RankData {
  show: "rank" | "contribution";
  clientID: number | null;
  rank: number | null;
  contribution: number | null;
  valueCents: number;
  clientCount: number;
  period: string;
}

type Row = ResponseOf<typeof expandedSpecificRankContributionKpi>["rows"][number];

/**
 * The rank or the contribution of a client; expanded, every client ranked (the expanded form,
 * ExpandedSpecificRankContributionKpi), paged on the server, this client marked.
 */
export function RankRenderer({
  data,
  filter,
  linkFilter,
  expanded,
  format,
  search,
}: CardRenderProps<RankData>) {
  useDrawnOnMount();
  const month = periodFormat(periodFromKey(data.period));
  const columns = useMemo<GridColumn<Row>[]>(
    () => [
      countColumn<Row>("rank", "Rank", { width: 90 }),
      textColumn<Row>("clientName", "Client", {
        minWidth: 220,
        render: (r) => (
          <span className="grid-client">
            <Link
              to={viewHref(viewPaths.level3, linkFilter, {
                thirdClientID: String(r.clientID),
                thirdStockItemID: null,
              })}
            >
              {r.clientName}
            </Link>
            {r.clientID === data.clientID ? (
              <strong className="grid-client__mark"> (this client)</strong>
            ) : null}
            <ClientCode name={r.clientName} code={r.clientCode} />
          </span>
        ),
      }),
      moneyColumn<Row>("valueCents", `MRR ${month}`),
      percentColumn<Row>("contribution", "Share of MRR", { width: 140 }),
    ],
    [linkFilter, data.clientID, month],
  );
  const source = useMemo(
    () => (query: { startRow: number; rowLimit: number; sortBy?: string; sortDir?: "asc" | "desc" }) =>
      api.call(expandedSpecificRankContributionKpi, {
        query: {
          ...analyticsQuery(wholeOf(filter)),
          ...searchParam(search),
          ...query,
        },
      }),
    [filter, search],
  );
  const value =
    data.show === "rank"
      ? data.rank === null
        ? "–"
        : `#${format.count(data.rank)}`
      : data.contribution === null
        ? "–"
        : format.percent(data.contribution);
  return (
    <div className="kpi">
      <p className="kpi__value" data-kpi-value>
        {value}
      </p>
      <p className="kpi__from">
        {data.show === "rank"
          ? `of ${format.count(data.clientCount)} clients by MRR in ${month}`
          : `of MRR in ${month}${data.rank ? `, rank #${format.count(data.rank)}` : ""}`}
      </p>
      {expanded ? (
        <DataGrid<Row>
          label="Every client ranked"
          columns={columns}
          source={source}
          pageSize={50}
          height={640}
        />
      ) : null}
    </div>
  );
}
