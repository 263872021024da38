import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseInvoiceRows } from "../imports/parse-invoice-file";
import { generateDemoCsv } from "./generate-demo-data";

describe("the demo data", () => {
  const csv = generateDemoCsv();

  it("is the same every time", () => {
    expect(generateDemoCsv()).toBe(csv);
  });

  it("is a valid import file with the business's shapes", async () => {
    let valid = 0;
    const clients = new Set<string>();
    const items = new Set<string>();
    const salespeople = new Set<string>();
    const stockTypes = new Set<string>();
    const months = new Set<string>();
    let spread = 0;
    for await (const parsed of parseInvoiceRows(Readable.from([csv]))) {
      expect(parsed.errors).toBeUndefined();
      if (!parsed.row) continue;
      valid++;
      clients.add(parsed.row.clientCode);
      items.add(parsed.row.itemCode);
      if (parsed.row.salesperson) salespeople.add(parsed.row.salesperson);
      stockTypes.add(parsed.row.stockType);
      months.add(parsed.row.invoiceDate.slice(0, 7));
      if (parsed.row.serviceFrom) spread++;
    }
    expect(valid).toBeGreaterThan(10_000);
    expect(clients.size).toBeGreaterThan(250);
    expect(items.size).toBeGreaterThanOrEqual(18);
    expect(salespeople.size).toBe(5);
    expect([...stockTypes].sort()).toEqual(["Hourly", "Product", "Subscription"]);
    expect(months.size).toBe(36);
    expect(spread).toBeGreaterThan(0);
  });
});
