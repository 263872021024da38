import { recordTypes } from "@varia/contracts";
import { buildCube, type Cube, type CubeRow } from "@varia/variance";
import { type Kysely, sql } from "kysely";
import { CubeCellsBuilder, type CubeColumns } from "../cube/cube-cells";
import { cellsVersion, readCubeSnapshot, writeCubeSnapshot } from "../cube/cube-snapshot";
import type { Schema } from "../db/schema";
import { readDimensions } from "../lines/dimension-names";
import { activeExclusionCodes } from "../settings/exclusion-lists";

/** The clients and items the organisation's active exclusion lists leave out, by id of the cube. */
export interface Exclusions {
  readonly clientIds: ReadonlySet<number>;
  readonly itemIds: ReadonlySet<number>;
}

/**
 * An organisation's data as every number sees it: the monthly cube, and what its active exclusion
 * lists leave out. A new Analysis is made whenever either changes, so results kept for one
 * (`memo`) never outlive the data or the lists they were computed from.
 */
export interface Analysis {
  readonly cube: Cube;
  readonly excluded: Exclusions;
}

/**
 * The organisations' analyses held in memory, so every analytics call is a computation of
 * @varia/variance over arrays rather than a query. A cube is loaded once and reused while the
 * organisation's data is unchanged: its data version is the count and latest finish of the completed
 * import and restore jobs (the only writers of invoice lines and the cube), the organisation's
 * default category and the version of its item categories. The exclusions have a version of their
 * own: a changed list reads the excluded ids again and keeps the cube. Checking both versions is one
 * indexed query per call, so several server processes on one PostgreSQL stay consistent.
 */
export interface CubeCache {
  /** The organisation's analysis, loading what changed since the last load. */
  get(organisationId: string): Promise<Analysis>;
  /**
   * Checks the organisation's versions again (this process changed its data or lists), at once when
   * it is held.
   */
  invalidate(organisationId: string): void;
}

/**
 * How long checked versions are trusted before they are checked again. Changes made by this process
 * invalidate at once (`dataChanged`); one made by another server process is seen within this.
 */
const versionTtlMs = 1000;

const maxOrganisations = 16;
const caches = new WeakMap<object, CubeCache>();

/** The cube cache of a server (one per database handle). */
export function cubeCacheOf(deps: { db: Kysely<Schema> }): CubeCache {
  let cache = caches.get(deps.db);
  if (!cache) {
    cache = createCubeCache(deps.db);
    caches.set(deps.db, cache);
  }
  return cache;
}

/**
 * The organisation's analysis: the only way a route reaches a cube, so that the exclusions come
 * with it (`resolveFilter` and `resolveReportInput` put them into every engine query).
 */
export function analysisFor(deps: { db: Kysely<Schema> }, organisationId: string): Promise<Analysis> {
  return cubeCacheOf(deps).get(organisationId);
}

/**
 * Tells the cube cache that what an organisation's numbers count changed: an import or restore
 * finished, item categories or an exclusion list changed. Call it after the change commits.
 */
export function dataChanged(db: object, organisationId: string) {
  caches.get(db)?.invalidate(organisationId);
}

interface Entry {
  data: string;
  exclusions: string;
  checkedAt: number;
  cube: Promise<Cube>;
  analysis: Promise<Analysis>;
}

export function createCubeCache(db: Kysely<Schema>): CubeCache {
  // Least recently used first; a pending load is shared by concurrent callers.
  const entries = new Map<string, Entry>();
  const forget = (organisationId: string, entry: Entry) => {
    if (entries.get(organisationId) === entry) entries.delete(organisationId);
  };
  return {
    async get(organisationId) {
      const cached = entries.get(organisationId);
      if (cached && performance.now() - cached.checkedAt < versionTtlMs) return cached.analysis;
      const version = await analysisVersion(db, organisationId);
      const entry = entries.get(organisationId);
      if (entry && entry.data === version.data && entry.exclusions === version.exclusions) {
        entry.checkedAt = performance.now();
        entries.delete(organisationId);
        entries.set(organisationId, entry);
        return entry.analysis;
      }
      const cube = entry && entry.data === version.data ? entry.cube : loadCube(db, organisationId);
      const excluded = cube.then((c) => loadExclusions(db, organisationId, c));
      const analysis = Promise.all([cube, excluded]).then(([c, e]) => ({ cube: c, excluded: e }));
      const next: Entry = { ...version, checkedAt: performance.now(), cube, analysis };
      entries.delete(organisationId);
      entries.set(organisationId, next);
      analysis.catch(() => forget(organisationId, next));
      while (entries.size > maxOrganisations) entries.delete(entries.keys().next().value!);
      return analysis;
    },
    invalidate(organisationId) {
      const entry = entries.get(organisationId);
      if (!entry) return;
      entry.checkedAt = Number.NEGATIVE_INFINITY;
      // An organisation someone is looking at gets its new analysis now, not on the next call: after
      // an import, from the cube snapshot it wrote (docs/storage.md). A failure shows on that call.
      this.get(organisationId).catch(() => {});
    },
  };
}

/** The data version (what the cube is built from) and the exclusions version, in one query. */
async function analysisVersion(db: Kysely<Schema>, organisationId: string) {
  const result = await sql<{ data: string; exclusions: string }>`
    select concat_ws(':', count(j.id), max(j.finished_at)::text,
        (select default_category from organisations where id = ${organisationId}),
        (select categories_version from organisation_settings where organisation_id = ${organisationId})
      ) as data,
      coalesce((select exclusions_version from organisation_settings
        where organisation_id = ${organisationId}), 0)::text as exclusions
    from import_jobs j where j.organisation_id = ${organisationId} and j.status = 'Completed'`.execute(db);
  return result.rows[0] ?? { data: "", exclusions: "" };
}

async function dataVersion(db: Kysely<Schema>, organisationId: string): Promise<string> {
  return (await analysisVersion(db, organisationId)).data;
}

/** The ids in `cube` of the clients and items on the organisation's active lists (by code). */
async function loadExclusions(db: Kysely<Schema>, organisationId: string, cube: Cube): Promise<Exclusions> {
  const codes = await activeExclusionCodes(db, organisationId);
  const ids = (wanted: readonly string[], dimension: ReadonlyMap<number, { id: number; code: string }>) => {
    if (wanted.length === 0) return new Set<number>();
    const set = new Set(wanted);
    return new Set([...dimension.values()].filter((d) => set.has(d.code)).map((d) => d.id));
  };
  return { clientIds: ids(codes.clientCodes, cube.clients), itemIds: ids(codes.itemCodes, cube.items) };
}

/**
 * Reads the organisation's cube and dimensions; numbers come back as JavaScript numbers. The cells
 * come from the cube snapshot (docs/storage.md), one read; when it is missing or stale, from
 * `monthly_cube`, and the snapshot is written again.
 *
 * The rows of `monthly_cube` are read one (record type, month) at a time in the order of the table's primary key:
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
  const version = await cellsVersion(db, organisationId);
  const [dimensions, snapshot] = await Promise.all([
    readDimensions(db, organisationId),
    readCubeSnapshot(db, organisationId, version),
  ]);
  const cells = snapshot?.cells ?? (await readCubeCells(db, organisationId));
  // A snapshot missing or stale is written again (one with many changes after it, folded), unless
  // the cells changed meanwhile.
  if ((!snapshot || snapshot.folded) && (await cellsVersion(db, organisationId)) === version)
    await db.transaction().execute((tx) => writeCubeSnapshot(tx, organisationId, version, cells));
  const rows: CubeRow[] = [];
  for (let i = 0; i < cells.month.length; i++)
    rows.push({
      recordType: recordTypes[cells.recordType[i]!]!,
      month: cells.month[i]!,
      clientId: cells.clientId[i]!,
      itemId: cells.itemId[i]!,
      salespersonId: cells.salespersonId[i]!,
      quantity: cells.quantity[i]!,
      revenue: cells.revenue[i]!,
      cost: cells.cost[i]!,
    });
  return buildCube({ ...dimensions, rows });
}

/** The organisation's cells from `monthly_cube`, a (record type, month) at a time (see `loadCube`). */
async function readCubeCells(db: Kysely<Schema>, organisationId: string): Promise<CubeColumns> {
  const groups = await sql<{ recordType: string; month: string }>`
    select record_type as "recordType", to_char(month, 'YYYY-MM-DD') as month
    from monthly_cube where organisation_id = ${organisationId}
    group by record_type, month order by record_type, month`.execute(db);
  const cube = new CubeCellsBuilder();
  for (const group of groups.rows) {
    const cells = await sql<CubeRow & { lines: number }>`
      select (extract(year from month)::int4 * 12 + extract(month from month)::int4 - 1) as month,
        client_id::int4 as "clientId", item_id::int4 as "itemId", salesperson_id::int4 as "salespersonId",
        (quantity * 10000)::float8 as quantity, revenue_cents::float8 as revenue, cost_cents::float8 as cost,
        line_count as lines
      from monthly_cube
      where organisation_id = ${organisationId} and record_type = ${group.recordType}
        and month = ${group.month}::date
      order by client_id, item_id, salesperson_id`.execute(db);
    const recordType = recordTypes.indexOf(group.recordType as never);
    cube.addCells(columnsOf(recordType, cells.rows));
  }
  return cube.finish();
}

function columnsOf(recordType: number, rows: (CubeRow & { lines: number })[]): CubeColumns {
  const n = rows.length;
  const columns: CubeColumns = {
    recordType: new Uint8Array(n).fill(recordType),
    month: Int32Array.from(rows, (r) => r.month),
    clientId: Int32Array.from(rows, (r) => r.clientId),
    itemId: Int32Array.from(rows, (r) => r.itemId),
    salespersonId: Int32Array.from(rows, (r) => r.salespersonId),
    quantity: Float64Array.from(rows, (r) => r.quantity),
    revenue: Float64Array.from(rows, (r) => r.revenue),
    cost: Float64Array.from(rows, (r) => r.cost),
    lines: Int32Array.from(rows, (r) => r.lines),
  };
  return columns;
}
