import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database";
import { OuterHandleInTransactionError } from "../src/db/transaction-scope";
import { openTestDatabase, testDatabaseKinds } from "./harness";

const one = (handle: Database["db"]) => sql<{ n: number }>`select 1 as n`.execute(handle);

describe.each(testDatabaseKinds())("the outer handle inside a transaction (%s)", (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase(kind));
  });
  afterAll(() => drop());

  it("is refused at once inside transaction().execute, and the transaction rolls back", async () => {
    await sql`create table if not exists scope_probe (n int)`.execute(database.db);
    const attempt = database.db.transaction().execute(async (tx) => {
      await sql`insert into scope_probe values (1)`.execute(tx);
      await one(database.db);
    });
    await expect(attempt).rejects.toBeInstanceOf(OuterHandleInTransactionError);
    // The connection was given back (PGlite has only one) and nothing was written.
    const rows = await sql<{ count: string }>`select count(*) as count from scope_probe`.execute(database.db);
    expect(Number(rows.rows[0]!.count)).toBe(0);
  });

  it("is refused inside bulkTransaction and connection().execute, and inside what they await", async () => {
    const nested = async () => {
      await Promise.resolve();
      return one(database.db);
    };
    await expect(database.bulkTransaction(() => nested())).rejects.toBeInstanceOf(
      OuterHandleInTransactionError,
    );
    await expect(database.db.connection().execute(() => nested())).rejects.toBeInstanceOf(
      OuterHandleInTransactionError,
    );
    await expect(
      database.db.transaction().execute(() => database.db.transaction().execute(nested)),
    ).rejects.toBeInstanceOf(OuterHandleInTransactionError);
  });

  it("serves the transaction's own handle, and the outer one again once the transaction ends", async () => {
    let later: Promise<unknown> | undefined;
    let release!: () => void;
    const result = await database.db.transaction().execute(async (tx) => {
      // Work started inside and run on after the transaction may use the outer handle then.
      const ended = new Promise<void>((resolve) => {
        release = resolve;
      });
      later = ended.then(() => one(database.db));
      return (await one(tx)).rows[0]!.n;
    });
    expect(result).toBe(1);
    release();
    await expect(later).resolves.toMatchObject({ rows: [{ n: 1 }] });
    expect((await one(database.db)).rows[0]!.n).toBe(1);
  });

  it("offers no controlled transaction, which no scope could follow", () => {
    expect(() => database.db.startTransaction()).toThrow(/transaction\(\)\.execute/);
  });
});
