import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint columns come back as strings from both drivers; they are written as strings too. */
type BigId = ColumnType<string, string | number | undefined, string | number>;
type BigCents = ColumnType<string, string | number, string | number>;
type DateText = ColumnType<Date | string, string, string>;

/** A row of `invoice_lines` (docs/storage.md). */
interface InvoiceLine {
  organisation_id: string;
  invoice_number: string;
  line_number: number;
  invoice_date: DateText;
  client_id: BigCents;
  item_id: BigCents;
  salesperson_id: BigCents | null;
  quantity: string;
  unit_price: string | null;
  amount_cents: BigCents;
  cost_cents: BigCents;
  service_from: DateText | null;
  service_to: DateText | null;
  record_type: string;
  import_job_id: string | null;
}

/** The tables of migration 010 (invoice data, the monthly cube, import jobs, backups), merged into `Schema`. */
declare module "./schema" {
  interface Schema {
    clients: { organisation_id: string; id: Generated<BigId>; code: string; name: Generated<string> };
    items: {
      organisation_id: string;
      id: Generated<BigId>;
      code: string;
      name: Generated<string>;
      stock_type: "Subscription" | "Product" | "Hourly";
      category: "Recurring" | "Adhoc" | "Exclude" | null;
    };
    salespeople: { organisation_id: string; id: Generated<BigId>; name: string };
    invoice_lines: InvoiceLine;
    /** The lines a backup holds, as they were in `invoice_lines`. */
    backup_lines: InvoiceLine & { backup_id: string };
    cube_snapshots: { organisation_id: string; data_version: string; data: Uint8Array };
    cube_snapshot_changes: {
      organisation_id: string;
      seq: Generated<BigId>;
      from_version: string;
      to_version: string;
      data: Uint8Array;
    };
    monthly_cube: {
      organisation_id: string;
      record_type: string;
      month: DateText;
      client_id: BigCents;
      item_id: BigCents;
      salesperson_id: BigCents;
      quantity: string;
      revenue_cents: BigCents;
      cost_cents: BigCents;
      line_count: number;
    };
    import_jobs: {
      organisation_id: string;
      id: string;
      user_id: string | null;
      status: "Pending" | "Running" | "Completed" | "Failed" | "FailedPermanently";
      file_name: string;
      file_path: string;
      file_sha256: string;
      idempotency_key: string;
      attempts: Generated<number>;
      rows_imported: number | null;
      /** Of an import's lines, those that replaced stored ones (migration 150); null for other jobs. */
      rows_replaced: Generated<number | null>;
      result: ColumnType<unknown, string | null | undefined, string | null>;
      created_at: Generated<Timestamp>;
      started_at: Timestamp | null;
      finished_at: Timestamp | null;
      /** RebuildCube: a maintenance job (migration 120). */
      kind: Generated<"Import" | "Restore" | "Connector" | "RebuildCube">;
      backup_id: string | null;
      /** The data source a Connector job reads (migration 080). */
      data_source_id: Generated<string | null>;
    };
    backups: {
      organisation_id: string;
      id: string;
      reason: "BeforeImport" | "OnDemand" | "BeforeRestore";
      import_job_id: string | null;
      line_count: number;
      size_bytes: number;
      data: Uint8Array;
      created_at: Generated<Timestamp>;
    };
  }
}
