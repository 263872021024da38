import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint columns come back as strings from both drivers. */
type Counter = ColumnType<string, string | number | undefined, string | number>;

/** The tables of migration 060 (organisation settings, exclusion lists), merged into `Schema`. */
declare module "./schema" {
  interface Schema {
    organisation_settings: OrganisationSettingsTable;
    exclusion_lists: ExclusionListsTable;
    exclusion_list_clients: { organisation_id: string; list_id: string; client_code: string };
    exclusion_list_items: { organisation_id: string; list_id: string; item_code: string };
  }
}

export interface OrganisationSettingsTable {
  organisation_id: string;
  time_zone: Generated<string>;
  backups_to_keep: Generated<number>;
  categories_version: Generated<Counter>;
  exclusions_version: Generated<Counter>;
}

export interface ExclusionListsTable {
  organisation_id: string;
  id: string;
  name: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
