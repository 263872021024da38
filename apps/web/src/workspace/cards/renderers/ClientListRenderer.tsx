import { Link } from "react-router";
import { Change } from "../../../ui/format";
import { viewHref, viewPaths } from "../../filters/view-filter";
import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";
import { ClientCode } from "./ClientCode";

/** Clients acquired or lost: each with its name, code and value, leading to its level-3 view. */
export interface ClientListData {
  rows: {
    clientID: number;
    clientCode: string;
    clientName: string;
    valueCents: number;
    /** Rank and share in the earlier month (lost clients). */
    rank?: number;
    contribution?: number;
  }[];
  /** Every client of the list (the rows may be the first page). */
  rowCount: number;
  /** What a client of the list is called: 'acquired', 'lost'. */
  noun: string;
}

/** Rows a list shows on its card; the expanded card shows all. */
export const clientListInlineRows = 8;

export function ClientListRenderer({
  data,
  linkFilter,
  expanded,
  format,
  search,
}: CardRenderProps<ClientListData>) {
  useDrawnOnMount();
  const rows = expanded ? data.rows : data.rows.slice(0, clientListInlineRows);
  const withRank = data.rows.some((r) => r.rank !== undefined && r.rank > 0);
  return (
    <div className="client-list">
      <p className="client-list__count">
        {format.count(data.rowCount)} {data.rowCount === 1 ? "client" : "clients"} {data.noun}
        {search ? ` matching '${search}'` : ""}
      </p>
      <table className="data-table data-table--compact">
        <thead>
          <tr>
            <th scope="col">Client</th>
            {withRank ? (
              <>
                <th scope="col" className="number">
                  Rank
                </th>
                <th scope="col" className="number">
                  Share
                </th>
              </>
            ) : null}
            <th scope="col" className="number">
              MRR
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.clientID}>
              <th scope="row">
                <Link to={viewHref(viewPaths.level3, linkFilter, { thirdClientID: String(row.clientID) })}>
                  {row.clientName}
                </Link>
                <ClientCode name={row.clientName} code={row.clientCode} className="client-list__code" />
              </th>
              {withRank ? (
                <>
                  <td className="number">{row.rank ? `#${row.rank}` : ""}</td>
                  <td className="number">
                    {row.contribution === undefined ? "" : format.percent(row.contribution)}
                  </td>
                </>
              ) : null}
              <td className="number">
                <Change value={row.valueCents} text={format.money(row.valueCents, { signed: true })} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.rowCount > rows.length ? (
        <p className="client-list__more">
          {format.count(data.rowCount - rows.length)} more
          {expanded ? ": search for them by name or code." : ": expand the card to see every client."}
        </p>
      ) : null}
    </div>
  );
}
