/** The CSV columns of docs/import.md (header names are matched without case; order is free). */
export const invoiceColumns = [
  "InvoiceDate",
  "InvoiceNumber",
  "LineNumber",
  "ClientCode",
  "ClientName",
  "ItemCode",
  "ItemName",
  "StockType",
  "Quantity",
  "UnitPrice",
  "Amount",
  "Cost",
  "Salesperson",
  "ServiceFrom",
  "ServiceTo",
  "RecordType",
  "Category",
] as const;
export type InvoiceColumn = (typeof invoiceColumns)[number];

export const requiredColumns: readonly InvoiceColumn[] = [
  "InvoiceDate",
  "InvoiceNumber",
  "ClientCode",
  "ItemCode",
  "StockType",
  "Quantity",
];

/** Documented limits: larger files are refused with a message naming the limit. */
export const importLimits = {
  maxFileBytes: 256 * 1024 * 1024,
  maxRows: 2_000_000,
  maxFieldLength: 200,
  maxCodeLength: 100,
  /** The largest Quantity and UnitPrice (4 decimals), and Amount and Cost (2 decimals). */
  maxQuantity: "99,999,999,999.9999",
  maxAmount: "9,999,999,999,999.99",
  /** A rejected file lists at most this many bad cells (and counts them all). */
  maxListedErrors: 1000,
} as const;

/** The template served at Import/Template: the header and two example rows. */
export const invoiceTemplate = [
  invoiceColumns.join(","),
  "2025-06-01,INV-1001,1,C001,Acme Ltd,SUB-PRO,Pro subscription,Subscription,5,120.00,,240.00,Jane Smith,,,Actual,Recurring",
  "2025-06-01,INV-1001,2,C001,Acme Ltd,SUPPORT,Support hours,Hourly,3.5,95.00,,,Jane Smith,,,Actual,Recurring",
  "",
].join("\n");
