import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseInvoiceRows } from "../../imports/parse-invoice-file";
import { classifyItem, convertQuickBooks } from "./convert-quickbooks";

// A copy of shared/data/quickbooks-sample, so the test runs wherever the repository is cloned.
const sample = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "quickbooks-sample");
const quickBooksSample = () => ({
  invoices: readFileSync(join(sample, "invoice_data.csv"), "utf8"),
  invoiceLines: readFileSync(join(sample, "invoice_line_data.csv"), "utf8"),
  items: readFileSync(join(sample, "item_data.csv"), "utf8"),
});

describe("the QuickBooks converter", () => {
  it("classifies items: inventory as ad-hoc product, subscriptions recurring, hours hourly", () => {
    expect(classifyItem({ type: "Inventory", name: "ZorbSense Leak Detector" })).toEqual({
      stockType: "Product",
      category: "Adhoc",
    });
    expect(classifyItem({ type: "Service", name: "Pro Subscription" })).toEqual({
      stockType: "Subscription",
      category: "Recurring",
    });
    expect(classifyItem({ type: "Service", name: "Support hours" })).toEqual({
      stockType: "Hourly",
      category: "Recurring",
    });
    expect(classifyItem({ type: "Service", name: "Onboarding Services" })).toEqual({
      stockType: "Subscription",
      category: "Adhoc",
    });
  });

  it("maps only sales-item lines and reports each line it cannot place", () => {
    const invoices =
      "id,_fivetran_deleted,customer_id,doc_number,transaction_date,custom_sales_rep\n1,false,7,1001,2025-03-02,Sam\n";
    const items =
      "id,name,type,stock_keeping_unit,purchase_cost,_fivetran_deleted\n5,Pro Subscription,Service,SaaS-Pro,,FALSE\n6,Lock Kit,Inventory,LK-1,131,FALSE\n";
    const invoiceLines = [
      "index,invoice_id,amount,sales_item_item_id,sales_item_quantity,sales_item_unit_price,detail_type",
      "0,1,6200,5,1,6200,SalesItemLineDetail",
      "1,1,598,6,2,299,SalesItemLineDetail",
      "2,1,6798,,,,SubTotalLineDetail",
      "3,2,100,5,1,100,SalesItemLineDetail",
      "4,1,50,9999,1,50,SalesItemLineDetail",
      "5,1,-50,5,1,-50,SalesItemLineDetail",
    ].join("\n");
    const converted = convertQuickBooks({ invoices, items, invoiceLines });
    expect(converted.csv.split("\n").slice(1, 3)).toEqual([
      "2025-03-02,1001,1,QB-7,,SaaS-Pro,Pro Subscription,Subscription,1,6200,6200,,Sam,,,Actual,Recurring",
      "2025-03-02,1001,2,QB-7,,LK-1,Lock Kit,Product,2,299,598,262.00,Sam,,,Actual,Adhoc",
    ]);
    // A credit keeps its minus: a number, not a formula to neutralise.
    expect(converted.csv.split("\n")[3]).toBe(
      "2025-03-02,1001,6,QB-7,,SaaS-Pro,Pro Subscription,Subscription,1,-50,-50,,Sam,,,Actual,Recurring",
    );
    expect(converted.lineCount).toBe(3);
    expect(converted.skipped).toEqual([
      { line: 5, reason: "invoice 2 is not in the invoice list" },
      { line: 6, reason: "item 9999 is not in the item list" },
    ]);
  });

  it("turns the shared QuickBooks sample into a valid import file", async () => {
    const converted = convertQuickBooks(quickBooksSample());
    expect(converted.lineCount).toBeGreaterThan(500);
    let valid = 0;
    for await (const parsed of parseInvoiceRows(Readable.from([converted.csv]))) {
      expect(parsed.errors).toBeUndefined();
      valid++;
    }
    expect(valid).toBe(converted.lineCount);
    expect(converted.skipped.length).toBeGreaterThan(0);
    for (const s of converted.skipped) expect(s.reason).toMatch(/is not in the (invoice|item) list/);
  });
});
