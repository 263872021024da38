import { buildCube, type Cube, type CubeRow } from "@varia/variance";
import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";
import type { AppDeps } from "../http/deps";
import { readDimensions } from "../lines/dimension-names";

/**
 * The organisations' monthly cubes held in memory, so every analytics call is a computation of
 * @varia/variance over arrays rather than a query. A cube is loaded once and reused while the
 * organisation's data is unchanged: its version is the count and latest finish of the completed
 * import and restore jobs (the only writers of invoice lines and the cube) and the organisation's
 * default category. Checking the version is one indexed query per call, so several server processes
 * on one PostgreSQL stay consistent.
 */
export interface CubeCache {
  /** The organisation's cube, loading it when its data changed since the last load. */
  get(organisationId: string): Promise<Cube>;
  /** Checks the organisation's version on the next call (this process finished an import or restore). */
  invalidate(organisationId: string): void;
}

/**
 * How long a checked version is trusted before it is checked again. Jobs finished by this process
 * invalidate at once (`dataChanged`); a job finished by another server process is seen within this.
 */
const versionTtlMs = 1000;

const maxOrganisations = 16;
const caches = new WeakMap<object, CubeCache>();

/** The cube cache of a server (one per database handle). */
export function cubeCacheOf(deps: Pick<AppDeps, "db">): CubeCache {
  let cache = caches.get(deps.db);
  if (!cache) {
    cache = createCubeCache(deps.db);
    caches.set(deps.db, cache);
  }
  return cache;
}

/** Shortcut: the organisation's cube. */
export function cubeFor(deps: Pick<AppDeps, "db">, organisationId: string): Promise<Cube> {
  return cubeCacheOf(deps).get(organisationId);
}

/** Tells the cube cache that an organisation's invoice data changed (an import or restore finished). */
export function dataChanged(db: object, organisationId: string) {
  caches.get(db)?.invalidate(organisationId);
}

export function createCubeCache(db: Kysely<Schema>): CubeCache {
  // Least recently used first; a pending load is shared by concurrent callers.
  const entries = new Map<string, { version: string; checkedAt: number; cube: Promise<Cube> }>();
  return {
    async get(organisationId) {
      const cached = entries.get(organisationId);
      if (cached && performance.now() - cached.checkedAt < versionTtlMs) return cached.cube;
      const version = await dataVersion(db, organisationId);
      const entry = entries.get(organisationId);
      if (entry && entry.version === version) {
        entry.checkedAt = performance.now();
        entries.delete(organisationId);
        entries.set(organisationId, entry);
        return entry.cube;
      }
      const cube = loadCube(db, organisationId);
      entries.set(organisationId, { version, checkedAt: performance.now(), cube });
      cube.catch(() => {
        if (entries.get(organisationId)?.cube === cube) entries.delete(organisationId);
      });
      while (entries.size > maxOrganisations) entries.delete(entries.keys().next().value!);
      return cube;
    },
    invalidate(organisationId) {
      const entry = entries.get(organisationId);
      if (entry) entry.checkedAt = Number.NEGATIVE_INFINITY;
    },
  };
}

async function dataVersion(db: Kysely<Schema>, organisationId: string): Promise<string> {
  const result = await sql<{ version: string }>`
    select concat_ws(':', count(j.id), max(j.finished_at)::text, (select default_category from organisations
      where id = ${organisationId})) as version
    from import_jobs j where j.organisation_id = ${organisationId} and j.status = 'Completed'`.execute(db);
  return result.rows[0]?.version ?? "";
}

/**
 * Reads the organisation's cube and dimensions; numbers come back as JavaScript numbers.
 *
 * The cells are read one (record type, month) at a time in the order of the table's primary key:
 * no single query holds PGlite's one connection for long (other calls answer while a large tenant
 * loads), and rows that arrive in the cube's order make building it a single pass. An import or
 * restore that completes between two reads changes the data version: the load starts again.
 */
export async function loadCube(db: Kysely<Schema>, organisationId: string): Promise<Cube> {
  for (let attempt = 1; ; attempt++) {
    const version = await dataVersion(db, organisationId);
    const cube = await readCube(db, organisationId);
    if (attempt >= 3 || (await dataVersion(db, organisationId)) === version) return cube;
  }
}

async function readCube(db: Kysely<Schema>, organisationId: string): Promise<Cube> {
  const [dimensions, groups] = await Promise.all([
    readDimensions(db, organisationId),
    sql<{ recordType: string; month: string; monthIndex: number }>`
      select record_type as "recordType", to_char(month, 'YYYY-MM-DD') as month,
        (extract(year from month)::int4 * 12 + extract(month from month)::int4 - 1) as "monthIndex"
      from monthly_cube where organisation_id = ${organisationId}
      group by record_type, month order by record_type, month`.execute(db),
  ]);
  const rows: CubeRow[] = [];
  for (const group of groups.rows) {
    const cells = await sql<CubeRow>`
      select ${group.recordType} as "recordType", ${group.monthIndex}::int4 as month,
        client_id::int4 as "clientId", item_id::int4 as "itemId", salesperson_id::int4 as "salespersonId",
        (quantity * 10000)::float8 as quantity, revenue_cents::float8 as revenue, cost_cents::float8 as cost
      from monthly_cube
      where organisation_id = ${organisationId} and record_type = ${group.recordType}
        and month = ${group.month}::date
      order by client_id, item_id, salesperson_id`.execute(db);
    for (const cell of cells.rows) rows.push(cell);
  }
  return buildCube({ ...dimensions, rows });
}
