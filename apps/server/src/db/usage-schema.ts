import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The table of migration 045 (the workspace's analytics records), merged into the one `Schema`. */
declare module "./schema" {
  interface Schema {
    usage_records: UsageRecordsTable;
  }
}

export interface UsageRecordsTable {
  organisation_id: string;
  id: Generated<string>;
  user_id: string;
  record_type: string;
  record_data: string;
  key1: string | null;
  key2: string | null;
  key3: string | null;
  occurred_at: Timestamp;
  received_at: Generated<Timestamp>;
}
