import type { ColumnType, Generated } from "kysely";
import "./invoice-schema";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * The tables of migration 080 (connections, data sources, import schedules) and 110 (the users
 * responsible for a connection), merged into `Schema`.
 */
declare module "./schema" {
  interface Schema {
    connections: ConnectionsTable;
    data_sources: DataSourcesTable;
    import_schedules: ImportSchedulesTable;
    connection_responsibilities: ConnectionResponsibilitiesTable;
  }
}

export interface ConnectionsTable {
  organisation_id: string;
  id: string;
  integration_type: "Quickbooks" | "Xero";
  issuer: string;
  subject: string;
  /** AES-256-GCM (auth/token-cipher.ts), never the token itself. */
  access_token_encrypted: string;
  refresh_token_encrypted: string | null;
  access_expires_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface DataSourcesTable {
  organisation_id: string;
  id: string;
  connection_id: string;
  external_id: string;
  name: string;
  last_job_id: string | null;
  created_at: Generated<Timestamp>;
}

export interface ImportSchedulesTable {
  organisation_id: string;
  data_source_id: string;
  time_zone: string;
  country: "NewZealand" | "UnitedKingdom" | "UnitedStates" | "Canada" | "Australia";
  interval: "Monthly" | "Weekly" | "Daily" | "Hourly";
  day_of_month: number | null;
  day_of_week: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday" | null;
  hour: number;
  minute: number;
  am_pm: "AM" | "PM";
  updated_at: Timestamp;
}

export interface ConnectionResponsibilitiesTable {
  organisation_id: string;
  connection_id: string;
  user_id: string;
  created_at: Generated<Timestamp>;
}
