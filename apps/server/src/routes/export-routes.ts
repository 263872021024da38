import { Readable } from "node:stream";
import { exportRawData } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { monthOf } from "../analytics/resolve-filter";
import { dateOfDay, dayNumber, monthOfDay } from "../db/binary-copy";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { csvText } from "../imports/csv-cell";
import { formatScaled } from "../imports/decimal";
import { dimensionNames, readDimensions } from "../lines/dimension-names";
import { blockLine, type LineBlock } from "../lines/line-block";
import { readLineBlocks } from "../lines/line-blocks-store";
import { mergeBlocks } from "../lines/merge-blocks";

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

/**
 * Data/ExportRawData (spec 7.3): the invoice lines as CSV in key order (invoice number, line number),
 * streamed a page at a time from the organisation's blocks.
 */
export async function exportRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, exportRawData, ({ auth, query, reply }) => {
    const organisationId = auth!.organisation.id;
    const firstDay = query.dateFrom ? dayNumber(`${query.dateFrom}-01`) : Number.NEGATIVE_INFINITY;
    const lastMonth = query.dateTo ? monthOf(query.dateTo) : Number.POSITIVE_INFINITY;
    const id = (value: string | undefined) => (value ? Number(value) : undefined);
    const [clientId, itemId, salespersonId] = [
      id(query.clientID),
      id(query.stockItemID),
      id(query.salespersonID),
    ];
    async function* lines() {
      yield `${columns.join(",")}\n`;
      const [blocks, names] = [
        await readLineBlocks(deps.database, organisationId),
        dimensionNames(await readDimensions(deps.db, organisationId)),
      ];
      const months = new Map<number, number>();
      const monthOf = (day: number) => {
        let month = months.get(day);
        if (month === undefined) {
          month = monthOfDay(day);
          months.set(day, month);
        }
        return month;
      };
      const keep = (block: LineBlock, row: number) => {
        const c = block.columns;
        const day = c.invoiceDay[row]!;
        return (
          day >= firstDay &&
          monthOf(day) <= lastMonth &&
          (clientId === undefined || c.clientId[row] === clientId) &&
          (itemId === undefined || c.itemId[row] === itemId) &&
          (salespersonId === undefined || c.salespersonId[row] === salespersonId)
        );
      };
      let page: string[] = [];
      for (const [block, row] of mergeBlocks(
        blocks.map((b) => b.block),
        keep,
      )) {
        const line = blockLine(block, row);
        const client = names.clients.get(line.clientId);
        const item = names.items.get(line.itemId);
        page.push(
          [
            dateOfDay(line.invoiceDay),
            csvText(line.invoiceNumber),
            line.lineNumber,
            csvText(client?.code ?? ""),
            csvText(client?.name ?? ""),
            csvText(item?.code ?? ""),
            csvText(item?.name ?? ""),
            item?.stockType ?? "",
            item?.category ?? "",
            csvText(line.salespersonId ? (names.salespeople.get(line.salespersonId)?.name ?? "") : null),
            formatScaled(BigInt(line.quantity), 4),
            line.unitPrice === null ? "" : formatScaled(BigInt(line.unitPrice), 4),
            cents(line.amountCents),
            cents(line.costCents),
            cents(line.amountCents - line.costCents),
            line.serviceFromDay === null ? "" : dateOfDay(line.serviceFromDay),
            line.serviceToDay === null ? "" : dateOfDay(line.serviceToDay),
            line.recordType,
          ].join(","),
        );
        if (page.length >= pageSize) {
          yield `${page.join("\n")}\n`;
          page = [];
        }
      }
      if (page.length) yield `${page.join("\n")}\n`;
    }
    const period = [query.dateFrom, query.dateTo].filter(Boolean).join("_to_") || "all";
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="varia-raw-data-${period}.csv"`);
    return Readable.from(lines()) as unknown as string;
  });
}
