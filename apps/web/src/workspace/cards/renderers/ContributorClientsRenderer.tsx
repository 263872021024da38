import { type ResponseOf, varianceBars } from "@varia/contracts";
import { useMemo } from "react";
import { api } from "../../../api";
import { Badge } from "../../../ui/Badge";
import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import { DataGrid, type GridColumn, moneyColumn, textColumn } from "../../../ui/grid/Grid";
import type { ViewFilter } from "../../filters/view-filter";
import { varianceStepLabel } from "../../variance-labels";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";
import { searchParam } from "../search-param";
import { stepQuery } from "../step-query";
import { contributorHref } from "./ContributorBarsRenderer";
import { cardGridHeight, clientLinkColumn, GridSummary, gridFileName, useCsvDownload } from "./card-grid";
import { firstPageSource } from "./first-page-source";

export type ContributorPage = ResponseOf<typeof varianceBars>;
type Row = ContributorPage["rows"][number];

export const contributorPageSize = 25;

/** The badge of a client contributor: NEW or LOST for Client, none for Transfer. */
const badgeOf = (row: Row) => (row.type === "Client" ? (row.sign === "Positive" ? "new" : "lost") : null);

function columns(filter: ViewFilter, format: Format, links: ViewFilter): GridColumn<Row>[] {
  return [
    clientLinkColumn<Row>((r) => contributorHref(links, r), { minWidth: 220 }),
    textColumn<Row>("clientCode", "Code", { width: 110, flex: 0, minWidth: 90 }),
    textColumn<Row>("badge", "Status", {
      width: 110,
      flex: 0,
      sortable: false,
      value: (r) => badgeOf(r) ?? "",
      render: (r) => {
        const badge = badgeOf(r);
        return badge ? <Badge variant={badge} /> : null;
      },
    }),
    moneyColumn<Row>("valueCents", varianceStepLabel(filter.varType ?? "", filter.sign ?? ""), {
      width: 170,
      render: (r) => (
        <Change value={r.valueCents} text={format.money(r.valueCents, { signed: true, decimals: 2 })} />
      ),
    }),
  ];
}

/**
 * The contributors of a type summed per client (Client, Transfer): each client with its badge and
 * its contribution, leading to its level-3 view. Paged, sorted and searched on the server
 * (VarianceBars); Download CSV writes every row.
 */
export function ContributorClientsRenderer({
  data,
  filter,
  linkFilter,
  search,
  expanded,
  format,
}: CardRenderProps<ContributorPage>) {
  const drawn = useCardDrawn();
  const cols = useMemo(() => columns(filter, format, linkFilter), [filter, format, linkFilter]);
  const source = useMemo(
    () =>
      firstPageSource(data, contributorPageSize, (page) =>
        api.call(varianceBars, {
          query: {
            ...stepQuery(filter),
            ...searchParam(search),
            ...page,
          },
        }),
      ),
    [data, filter, search],
  );
  const download = useCsvDownload(
    cols.filter((c) => c.field !== "badge"),
    source,
    gridFileName(varianceStepLabel(filter.varType ?? "", filter.sign ?? ""), filter),
  );
  return (
    <div className="step-contributors">
      <GridSummary onDownload={download}>
        <strong>{format.count(data.rowCount)}</strong> {data.rowCount === 1 ? "client" : "clients"}
        {search ? ` matching '${search}'` : ""}, in all{" "}
        <Change
          value={data.totals.valueCents}
          text={format.money(data.totals.valueCents, { signed: true })}
        />
      </GridSummary>
      <DataGrid<Row>
        label="Contributors"
        columns={cols}
        source={source}
        pageSize={contributorPageSize}
        height={cardGridHeight(expanded, data.rowCount, contributorPageSize, 520)}
        getRowId={(r) => `${r.clientID}-${r.stockItemID ?? ""}`}
        onRowCount={drawn}
        stackOnPhone
      />
    </div>
  );
}
