import { Readable } from "node:stream";
import { exportRawData } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { registerContract } from "../http/contract-route";
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

/** Data/ExportRawData (spec 7.3): the invoice lines as CSV, streamed a page at a time. */
export async function exportRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, exportRawData, ({ auth, query, reply }) => {
    const organisationId = auth!.organisation.id;
    const monthStart = (ym: string) => `${ym}-01`;
    async function* lines() {
      yield `${columns.join(",")}\n`;
      let after: { invoice: string; line: number } | null = null;
      for (;;) {
        let q = deps.db
          .selectFrom("invoice_lines as l")
          .innerJoin("clients as c", (j) =>
            j.onRef("c.organisation_id", "=", "l.organisation_id").onRef("c.id", "=", "l.client_id"),
          )
          .innerJoin("items as i", (j) =>
            j.onRef("i.organisation_id", "=", "l.organisation_id").onRef("i.id", "=", "l.item_id"),
          )
          .leftJoin("salespeople as s", (j) =>
            j.onRef("s.organisation_id", "=", "l.organisation_id").onRef("s.id", "=", "l.salesperson_id"),
          )
          .select([
            sql<string>`l.invoice_date::text`.as("invoiceDate"),
            "l.invoice_number as invoiceNumber",
            "l.line_number as lineNumber",
            "c.code as clientCode",
            "c.name as clientName",
            "i.code as itemCode",
            "i.name as itemName",
            "i.stock_type as stockType",
            sql<string>`coalesce(i.category, (select default_category from organisations where id = l.organisation_id))`.as(
              "category",
            ),
            "s.name as salesperson",
            sql<string>`l.quantity::text`.as("quantity"),
            sql<string | null>`l.unit_price::text`.as("unitPrice"),
            "l.amount_cents as amountCents",
            "l.cost_cents as costCents",
            sql<string | null>`l.service_from::text`.as("serviceFrom"),
            sql<string | null>`l.service_to::text`.as("serviceTo"),
            "l.record_type as recordType",
          ])
          .where("l.organisation_id", "=", organisationId)
          .orderBy("l.invoice_number")
          .orderBy("l.line_number")
          .limit(pageSize);
        if (query.dateFrom) q = q.where("l.invoice_date", ">=", monthStart(query.dateFrom));
        if (query.dateTo)
          q = q.where(sql`date_trunc('month', l.invoice_date)`, "<=", sql`${monthStart(query.dateTo)}::date`);
        if (query.clientID) q = q.where("l.client_id", "=", query.clientID);
        if (query.stockItemID) q = q.where("l.item_id", "=", query.stockItemID);
        if (query.salespersonID) q = q.where("l.salesperson_id", "=", query.salespersonID);
        if (after) {
          const { invoice, line } = after;
          q = q.where((eb) =>
            eb.or([
              eb("l.invoice_number", ">", invoice),
              eb.and([eb("l.invoice_number", "=", invoice), eb("l.line_number", ">", line)]),
            ]),
          );
        }
        const rows = await q.execute();
        if (!rows.length) return;
        yield rows
          .map((r) =>
            [
              r.invoiceDate,
              csvText(r.invoiceNumber),
              r.lineNumber,
              csvText(r.clientCode),
              csvText(r.clientName),
              csvText(r.itemCode),
              csvText(r.itemName),
              r.stockType,
              r.category,
              csvText(r.salesperson),
              r.quantity,
              r.unitPrice ?? "",
              cents(r.amountCents),
              cents(r.costCents),
              cents(BigInt(r.amountCents) - BigInt(r.costCents)),
              r.serviceFrom ?? "",
              r.serviceTo ?? "",
              r.recordType,
            ].join(","),
          )
          .join("\n")
          .concat("\n");
        const last = rows[rows.length - 1]!;
        after = { invoice: last.invoiceNumber, line: last.lineNumber };
        if (rows.length < pageSize) return;
      }
    }
    const period = [query.dateFrom, query.dateTo].filter(Boolean).join("_to_") || "all";
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="varia-raw-data-${period}.csv"`);
    return Readable.from(lines()) as unknown as string;
  });
}
