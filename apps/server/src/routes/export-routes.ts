import { exportRawData } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { type RawBuilder, sql } from "kysely";
import { registerContract } from "../http/contract-route";
import { csvDownload } from "../http/csv-download";
import type { AppDeps } from "../http/deps";
import { csvText } from "../imports/csv-cell";
import { formatScaled } from "../imports/decimal";

const pageSize = 5000;
const columns = [
  "InvoiceDate",
  "InvoiceNumber",
  "LineNumber",
  "ClientCode",
  "ClientName",
  "ItemCode",
  "ItemName",
  "StockType",
  "Category",
  "Salesperson",
  "Quantity",
  "UnitPrice",
  "Amount",
  "Cost",
  "Margin",
  "ServiceFrom",
  "ServiceTo",
  "RecordType",
];

const cents = (value: string | number | bigint) => formatScaled(BigInt(value), 2);

interface ExportRow {
  invoice_date: string;
  invoice_number: string;
  line_number: number;
  client_code: string;
  client_name: string;
  item_code: string;
  item_name: string;
  stock_type: string;
  category: string;
  salesperson: string | null;
  quantity: string;
  unit_price: string | null;
  amount_cents: string;
  cost_cents: string;
  service_from: string | null;
  service_to: string | null;
  record_type: string;
}

/**
 * Data/ExportRawData: the invoice lines as CSV in key order (invoice number, line number), read
 * from `invoice_lines` a page at a time (each page one query that starts after the last key).
 */
export async function exportRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, exportRawData, ({ auth, query, reply }) => {
    const organisationId = auth!.organisation.id;
    const conditions: RawBuilder<unknown>[] = [sql`l.organisation_id = ${organisationId}`];
    if (query.dateFrom) conditions.push(sql`l.invoice_date >= ${`${query.dateFrom}-01`}::date`);
    if (query.dateTo)
      conditions.push(sql`l.invoice_date < (${`${query.dateTo}-01`}::date + interval '1 month')`);
    if (query.clientID) conditions.push(sql`l.client_id = ${query.clientID}`);
    if (query.stockItemID) conditions.push(sql`l.item_id = ${query.stockItemID}`);
    if (query.salespersonID) conditions.push(sql`l.salesperson_id = ${query.salespersonID}`);
    async function* lines() {
      yield `${columns.join(",")}\n`;
      let after: { invoice: string; line: number } | null = null;
      for (;;) {
        const page: { rows: ExportRow[] } = await sql<ExportRow>`
          select to_char(l.invoice_date, 'YYYY-MM-DD') as invoice_date, l.invoice_number, l.line_number,
            c.code as client_code, c.name as client_name, i.code as item_code, i.name as item_name,
            i.stock_type, coalesce(i.category, o.default_category) as category, s.name as salesperson,
            l.quantity::text as quantity, l.unit_price::text as unit_price,
            l.amount_cents::text as amount_cents, l.cost_cents::text as cost_cents,
            to_char(l.service_from, 'YYYY-MM-DD') as service_from,
            to_char(l.service_to, 'YYYY-MM-DD') as service_to, l.record_type
          from invoice_lines l
            join organisations o on o.id = l.organisation_id
            join clients c on c.organisation_id = l.organisation_id and c.id = l.client_id
            join items i on i.organisation_id = l.organisation_id and i.id = l.item_id
            left join salespeople s on s.organisation_id = l.organisation_id and s.id = l.salesperson_id
          where ${sql.join(conditions, sql` and `)}
            ${after ? sql`and (l.invoice_number, l.line_number) > (${after.invoice}, ${after.line})` : sql``}
          order by l.invoice_number, l.line_number
          limit ${pageSize}`.execute(deps.db);
        if (!page.rows.length) return;
        yield `${page.rows
          .map((line) =>
            [
              line.invoice_date,
              csvText(line.invoice_number),
              line.line_number,
              csvText(line.client_code),
              csvText(line.client_name),
              csvText(line.item_code),
              csvText(line.item_name),
              line.stock_type,
              line.category,
              csvText(line.salesperson),
              line.quantity,
              line.unit_price ?? "",
              cents(line.amount_cents),
              cents(line.cost_cents),
              cents(BigInt(line.amount_cents) - BigInt(line.cost_cents)),
              line.service_from ?? "",
              line.service_to ?? "",
              line.record_type,
            ].join(","),
          )
          .join("\n")}\n`;
        if (page.rows.length < pageSize) return;
        const last = page.rows[page.rows.length - 1]!;
        after = { invoice: last.invoice_number, line: last.line_number };
      }
    }
    const period = [query.dateFrom, query.dateTo].filter(Boolean).join("_to_") || "all";
    return csvDownload(reply, lines(), `varia-raw-data-${period}.csv`);
  });
}
