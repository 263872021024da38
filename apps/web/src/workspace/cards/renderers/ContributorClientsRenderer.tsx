import { type ResponseOf, varianceBars } from "@varia/contracts";
import { useMemo, useRef } from "react";
import { Link } from "react-router";
import { api } from "../../../api";
import { Badge } from "../../../ui/Badge";
import { Change } from "../../../ui/format";
import type { Format } from "../../../ui/format/format";
import { DataGrid, exportCsv, type GridColumn, moneyColumn, textColumn } from "../../../ui/grid/Grid";
import type { ViewFilter } from "../../filters/view-filter";
import { varianceStepLabel } from "../../variance-labels";
import { useAlert } from "../../workspace-actors";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";
import { stepQuery } from "../step-query";
import { ClientCode } from "./ClientCode";
import { contributorHref } from "./ContributorBarsRenderer";
import { firstPageSource } from "./first-page-source";

export type ContributorPage = ResponseOf<typeof varianceBars>;
type Row = ContributorPage["rows"][number];

export const contributorPageSize = 25;

/** The badge of a client contributor: NEW or LOST for Client, none for Transfer. */
const badgeOf = (row: Row) => (row.type === "Client" ? (row.sign === "Positive" ? "new" : "lost") : null);

function columns(filter: ViewFilter, format: Format): GridColumn<Row>[] {
  return [
    textColumn<Row>("clientName", "Client", {
      minWidth: 220,
      render: (r) => (
        <span className="grid-client">
          <Link to={contributorHref(filter, r)}>{r.clientName}</Link>
          <ClientCode name={r.clientName} code={r.clientCode} />
        </span>
      ),
    }),
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
  search,
  expanded,
  format,
}: CardRenderProps<ContributorPage>) {
  const drawn = useCardDrawn();
  const alert = useAlert();
  const sort = useRef<{ sortBy?: string; sortDir?: "asc" | "desc" }>({});
  const cols = useMemo(() => columns(filter, format), [filter, format]);
  const source = useMemo(
    () =>
      firstPageSource(data, contributorPageSize, (page) => {
        sort.current = page.sortBy ? { sortBy: page.sortBy, sortDir: page.sortDir ?? "desc" } : {};
        return api.call(varianceBars, {
          query: {
            ...stepQuery(filter),
            ...(search.trim() ? { search: search.trim() } : {}),
            ...page,
          },
        });
      }),
    [data, filter, search],
  );
  const download = async () => {
    try {
      await exportCsv({
        columns: cols.filter((c) => c.field !== "badge"),
        source,
        sort: sort.current,
        fileName: `${varianceStepLabel(filter.varType ?? "", filter.sign ?? "")} ${filter.dateFrom} to ${filter.dateTo}.csv`,
      });
    } catch {
      alert("The CSV file could not be downloaded.", "Please try again.");
    }
  };
  return (
    <div className="step-contributors">
      <div className="activity__summary">
        <p>
          <strong>{format.count(data.rowCount)}</strong> {data.rowCount === 1 ? "client" : "clients"}
          {search ? ` matching '${search}'` : ""}, in all{" "}
          <Change
            value={data.totals.valueCents}
            text={format.money(data.totals.valueCents, { signed: true })}
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
        label="Contributors"
        columns={cols}
        source={source}
        pageSize={contributorPageSize}
        height={expanded ? 720 : Math.min(520, 100 + Math.min(data.rowCount, contributorPageSize) * 40)}
        getRowId={(r) => `${r.clientID}-${r.stockItemID ?? ""}`}
        onRowCount={drawn}
      />
    </div>
  );
}
